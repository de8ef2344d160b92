import { RoamingAgreement as AgreementEntity } from '../../src/roaming/roaming-agreement.entity.ts';
import { roamingAgreementList } from '../../src/roaming/roaming.queries.ts';
import { builder } from '../builder.ts';
import { listConnection } from '../connection.ts';
import { loadByIds } from '../load.ts';
import { DateTime } from './date-time.ts';

export const RoamingAgreement = builder.loadableNode(AgreementEntity, {
  name: 'RoamingAgreement',
  description: 'A roaming agreement over a locally owned connection, valid from validFrom until (excluding) validUntil (REST: /roaming-agreement/{id}).',
  id: { resolve: (a) => a.id },
  cacheResolved: (a) => a.id,
  load: (ids: string[], context) => loadByIds(context.em, AgreementEntity, ids),
  fields: (t) => ({
    databaseId: t.exposeString('id'),
    connectionId: t.string({ resolve: (a) => a.connection.id }),
    partnerId: t.string({ resolve: (a) => a.partner.id }),
    role: t.string({ description: '`msp`: we are the MSP, the partner the CPO; `cpo`: we are the CPO, the partner the MSP.', resolve: (a) => a.role }),
    validFrom: t.field({ type: DateTime, resolve: (a) => a.validFrom }),
    validUntil: t.field({ type: DateTime, nullable: true, resolve: (a) => a.validUntil ?? null }),
    defunct: t.exposeBoolean('defunct'),
    ratePlanId: t.string({ nullable: true, resolve: (a) => a.ratePlanId ?? null }),
    vatKind: t.string({ resolve: (a) => a.vatKind }),
    externalReference: t.string({ nullable: true, resolve: (a) => a.externalReference ?? null }),
    createdAt: t.field({ type: DateTime, resolve: (a) => a.createdAt }),
    updatedAt: t.field({ type: DateTime, resolve: (a) => a.updatedAt }),
  }),
});

const RoamingAgreementConnection = builder.connectionObject({ type: RoamingAgreement, name: 'RoamingAgreementConnection' }, { name: 'RoamingAgreementEdge' });

builder.queryFields((t) => ({
  roamingAgreements: t.connection({
    type: RoamingAgreement, description: 'Roaming agreements by id (REST: GET /roaming-agreement).',
    resolve: (_root, args, context) => listConnection<AgreementEntity>(roamingAgreementList(context.em), args),
  }, RoamingAgreementConnection),
}));
