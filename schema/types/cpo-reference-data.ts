import { EvseLocation as EvseLocationEntity } from '../../src/cpo/evse-location.entity.ts';
import { ReimbursementPlan as ReimbursementPlanEntity } from '../../src/cpo/reimbursement-plan.entity.ts';
import { evseLocationList } from '../../src/cpo/save-evse-location.service.ts';
import { reimbursementPlans } from '../../src/cpo/reimbursement-plan.service.ts';
import { normalize } from '../../src/money/decimal.ts';
import { builder } from '../builder.ts';
import { listConnection } from '../connection.ts';
import { loadByIds } from '../load.ts';
import { DateTime } from './date-time.ts';

export const EvseLocation = builder.loadableNode(EvseLocationEntity, {
  name: 'EvseLocation',
  description: 'A location holding EVSEs (REST: /cpo-evse-location/{location_id}).',
  id: { resolve: (l) => l.id },
  cacheResolved: (l) => l.id,
  load: (ids: string[], context) => loadByIds(context.em, EvseLocationEntity, ids),
  fields: (t) => ({
    databaseId: t.exposeString('id'),
    locationId: t.exposeString('locationId'),
    adminId: t.string({ resolve: (l) => l.admin.id }),
    name: t.string({ nullable: true, resolve: (l) => l.name ?? null }),
    city: t.string({ nullable: true, resolve: (l) => l.city ?? null }),
    country: t.string({ nullable: true, resolve: (l) => l.country ?? null }),
    latitude: t.string({ nullable: true, description: 'A decimal string.', resolve: (l) => (l.latitude ? normalize(l.latitude) : null) }),
    longitude: t.string({ nullable: true, description: 'A decimal string.', resolve: (l) => (l.longitude ? normalize(l.longitude) : null) }),
    timeZone: t.string({ nullable: true, resolve: (l) => l.timeZone ?? null }),
    deactivatedAt: t.field({ type: DateTime, nullable: true, resolve: (l) => l.deactivatedAt ?? null }),
  }),
});

export const ReimbursementPlan = builder.loadableNode(ReimbursementPlanEntity, {
  name: 'ReimbursementPlan',
  description: 'How charger owners are reimbursed (REST: /cpo-reimbursement-plan).',
  id: { resolve: (p) => p.id },
  cacheResolved: (p) => p.id,
  load: (ids: string[], context) => loadByIds(context.em, ReimbursementPlanEntity, ids),
  fields: (t) => ({
    databaseId: t.exposeString('id'),
    adminId: t.string({ resolve: (p) => p.admin.id }),
    name: t.exposeString('name'),
    mode: t.exposeString('mode', { description: 'cpms_supplied or calculated.' }),
    components: t.exposeStringList('components'),
  }),
});

const EvseLocationConnection = builder.connectionObject({ type: EvseLocation, name: 'EvseLocationConnection' }, { name: 'EvseLocationEdge' });

builder.queryFields((t) => ({
  evseLocations: t.connection({
    type: EvseLocation, description: 'EVSE locations by id (REST: GET /cpo-evse-location).',
    resolve: (_root, args, context) => listConnection<EvseLocationEntity>(evseLocationList(context.em), args),
  }, EvseLocationConnection),
  reimbursementPlans: t.field({
    type: [ReimbursementPlan], extensions: { listEstimate: 1000 },
    description: 'The reimbursement plans (not paged, as REST GET /cpo-reimbursement-plan; at most 1,000).',
    resolve: (_root, _args, context) => reimbursementPlans(context.em),
  }),
}));
