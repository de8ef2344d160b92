// What EVSE owners are reimbursed per CPO session and arrangement (REST: /cpo-charge-session-reimbursement).
import * as yup from 'yup';
import {
  sessionReimbursementList, sessionReimbursementsByIds, type SessionReimbursementData,
} from '../../src/cpo/session-reimbursement.queries.ts';
import { uuid } from '../../src/platform/input-schemas.ts';
import { validate } from '../../src/platform/input-validation.ts';
import { isDataOf } from '../../src/platform/seek-page.ts';
import { builder } from '../builder.ts';
import { EMBEDDED_VALUE } from '../query-cost.ts';
import { listConnection } from '../connection.ts';
import { refFromArg } from '../ids.ts';
import { DateTime } from './date-time.ts';
import type { ReimbursedEvse as ReimbursedEvseData } from '../../src/cpo/session-reimbursement.entity.ts';
import { CostSubtotal } from './cost-calculation.ts';

const ReimbursedEvseAddress = builder.objectRef<NonNullable<ReimbursedEvseData['address']>>('ReimbursedEvseAddress').implement({
  fields: (t) => ({
    street: t.string({ nullable: true, resolve: (a) => a.street }),
    postalCode: t.string({ nullable: true, resolve: (a) => a.postal_code }),
    city: t.string({ nullable: true, resolve: (a) => a.city }),
    country: t.string({ nullable: true, resolve: (a) => a.country }),
  }),
});

const ReimbursedEvse = builder.objectRef<ReimbursedEvseData>('ReimbursedEvse').implement({
  description: 'The EVSE a reimbursement was for, as it was at the time (REST: evse of /cpo-charge-session-reimbursement).',
  fields: (t) => ({
    evseUid: t.string({ resolve: (e) => e.evse_uid }),
    evseId: t.string({ nullable: true, resolve: (e) => e.evse_id }),
    locationId: t.string({ nullable: true, resolve: (e) => e.location_id }),
    connectorId: t.string({ nullable: true, resolve: (e) => e.connector_id }),
    address: t.field({ type: ReimbursedEvseAddress, nullable: true, resolve: (e) => e.address }),
  }),
});

export const SessionReimbursement = builder.loadableNode('CpoChargeSessionReimbursement', {
  description: 'The reimbursement of one CPO session under one arrangement (REST: /cpo-charge-session-reimbursement). Amounts are decimal strings.',
  id: { resolve: (r: SessionReimbursementData) => r.id },
  cacheResolved: (r) => r.id,
  isTypeOf: (value) => isDataOf(value, 'SessionReimbursement'),
  load: (ids: string[], context) => sessionReimbursementsByIds(context.em, ids) as Promise<SessionReimbursementData[]>,
  fields: (t) => ({
    databaseId: t.exposeString('id'),
    adminId: t.string({ resolve: (r) => r.admin.id }),
    chargeSessionId: t.exposeString('sessionId', { description: 'The REST id of the CPO session.' }),
    arrangementId: t.exposeString('arrangementId'),
    customerId: t.exposeString('customerId', { description: 'The EVSE owner reimbursed.' }),
    version: t.exposeInt('version'),
    currencyCode: t.exposeString('currency'),
    startDateTime: t.field({ type: DateTime, resolve: (r) => r.startAt }),
    totalAmountExclVat: t.exposeString('totalExclVat'),
    totalVatAmount: t.exposeString('totalVat'),
    totalAmountInclVat: t.exposeString('totalInclVat'),
    vatKind: t.exposeString('vatKind'),
    vatCountry: t.exposeString('vatCountry'),
    subtotals: t.field({ type: [CostSubtotal], extensions: EMBEDDED_VALUE, description: 'The lines.', resolve: (r) => r.subtotals }),
    evse: t.field({ type: ReimbursedEvse, extensions: EMBEDDED_VALUE, resolve: (r) => r.evse }),
    createdAt: t.field({ type: DateTime, resolve: (r) => r.createdAt }),
  }),
});

const Connection = builder.connectionObject({ type: SessionReimbursement, name: 'CpoChargeSessionReimbursementConnection' },
  { name: 'CpoChargeSessionReimbursementEdge' });
const rules = yup.object({ chargeSessionId: uuid().nullable(), arrangementId: uuid().nullable(), customerId: uuid().nullable() });
const restId = (raw: string | number | null | undefined, typename: string) => {
  if (raw === null || raw === undefined) return undefined;
  const ref = refFromArg(String(raw), typename, false);
  return 'id' in ref ? ref.id : String(raw);
};

builder.queryFields((t) => ({
  cpoChargeSessionReimbursements: t.connection({
    type: SessionReimbursement,
    description: 'Reimbursement records by id (REST: GET /cpo-charge-session-reimbursement); filters combine with AND.',
    args: {
      chargeSessionId: t.arg.id(), arrangementId: t.arg.id(), customerId: t.arg.id(),
      evseUid: t.arg.string(),
    },
    resolve: (_root, args, context) => {
      const filter = {
        chargeSessionId: restId(args.chargeSessionId, 'ChargeSession'), arrangementId: restId(args.arrangementId, 'ReimbursementArrangement'),
        customerId: restId(args.customerId, 'Customer'),
      };
      validate(rules, filter);
      return listConnection<SessionReimbursementData>(sessionReimbursementList(context.em, { ...filter, evseUid: args.evseUid || undefined }), args);
    },
  }, Connection),
}));
