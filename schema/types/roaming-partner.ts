import { RoamingPartner as PartnerEntity } from '../../src/parties/roaming-partner.entity.ts';
import { RoamingAgreement as AgreementEntity } from '../../src/roaming/roaming-agreement.entity.ts';
import { RoamingPartnerList } from '../../src/roaming/roaming.queries.ts';
import { builder } from '../builder.ts';
import { listConnection } from '../connection.ts';
import { loadByIds } from '../load.ts';
import { DateTime } from './date-time.ts';
import { RoamingAgreement } from './roaming-agreement.ts';

export const RoamingPartner = builder.loadableNode(PartnerEntity, {
  name: 'RoamingPartner',
  description: 'A party that roams with us: a CPO, an MSP or both (REST: /roaming-partner/{id}).',
  id: { resolve: (p) => p.id },
  cacheResolved: (p) => p.id,
  load: (ids: string[], context) => loadByIds(context.em, PartnerEntity, ids),
  fields: (t) => ({
    databaseId: t.exposeString('id'),
    name: t.exposeString('name'),
    country: t.exposeString('country'),
    cpoIds: t.stringList({ description: 'Party ids, normalized (NL*TDR is NLTDR).', resolve: (p) => p.cpoIds }),
    mspIds: t.stringList({ resolve: (p) => p.mspIds }),
    billingEmail: t.string({ nullable: true, resolve: (p) => p.billingEmail ?? null }),
    externalReference: t.string({ nullable: true, resolve: (p) => p.externalReference ?? null }),
    roamingAgreements: t.field({
      type: [RoamingAgreement], description: 'Its agreements, defunct ones included, by id.',
      resolve: (p, _args, context) => context.em.find(AgreementEntity, { partner: p.id }, { orderBy: { id: 'asc' } }),
    }),
    createdAt: t.field({ type: DateTime, resolve: (p) => p.createdAt }),
    updatedAt: t.field({ type: DateTime, resolve: (p) => p.updatedAt }),
  }),
});

const RoamingPartnerConnection = builder.connectionObject({ type: RoamingPartner, name: 'RoamingPartnerConnection' }, { name: 'RoamingPartnerEdge' });

builder.queryFields((t) => ({
  roamingPartners: t.connection({
    type: RoamingPartner, description: 'Roaming partners by id (REST: GET /roaming-partner).',
    resolve: (_root, args, context) => listConnection<PartnerEntity>(new RoamingPartnerList(context.em), args),
  }, RoamingPartnerConnection),
}));
