import {
  cpoPlanList, cpoPlansByIds, cpoPlanVersions, cpoSubscriptionList, cpoSubscriptionsByIds,
  type CpoPlanData, type CpoPlanVersionData, type CpoSubscriptionData,
} from '../../src/cpo/cpo-subscription.queries.ts';
import { markCpoSubscriptionDefunct } from '../../src/cpo/cpo-subscription.service.ts';
import { normalize } from '../../src/money/decimal.ts';
import { isDataOf } from '../../src/platform/seek-page.ts';
import { builder } from '../builder.ts';
import { EMBEDDED_VALUE } from '../query-cost.ts';
import { listConnection } from '../connection.ts';
import { refFromArg } from '../ids.ts';
import { mutate } from '../mutation.ts';
import { Customer } from './customer.ts';
import { DateTime } from './date-time.ts';
import { JsonScalar } from './json.ts';

export const CpoSubscriptionPlan = builder.loadableNode('CpoSubscriptionPlan', {
  description: 'A CPO subscription plan (REST: /cpo-subscription-plan); its recurring costs come in versions keyed by validFrom.',
  id: { resolve: (plan: CpoPlanData) => plan.id },
  cacheResolved: (plan) => plan.id,
  isTypeOf: (value) => isDataOf(value, 'CpoSubscriptionPlan'),
  load: (ids: string[], context) => cpoPlansByIds(context.em, ids) as Promise<CpoPlanData[]>,
  fields: (t) => ({
    databaseId: t.exposeString('id'),
    adminId: t.string({ resolve: (plan) => plan.admin.id }),
    name: t.exposeString('name'),
    publishFrom: t.field({ type: DateTime, nullable: true, resolve: (plan) => plan.publishFrom ?? null }),
    publishUntil: t.field({ type: DateTime, nullable: true, resolve: (plan) => plan.publishUntil ?? null }),
    externalReference: t.string({ nullable: true, resolve: (plan) => plan.externalReference ?? null }),
  }),
});

const CpoRecurringCost = builder.objectRef<{ description: string; amount_excl_vat: string; period: string; per: string }>('CpoRecurringCost').implement({
  description: 'A fee of a CPO subscription plan version (REST: recurring_costs).',
  fields: (t) => ({
    description: t.exposeString('description'),
    amountExclVat: t.string({ description: 'An exact decimal string.', resolve: (c) => c.amount_excl_vat }),
    period: t.exposeString('period', { description: 'month, quarter or year.' }),
    per: t.exposeString('per', { description: 'subscription, or evse: each validly linked EVSE.' }),
  }),
});

builder.objectField(CpoSubscriptionPlan, 'versions', (t) => t.loadableList({
  type: builder.objectRef<CpoPlanVersionData>('CpoSubscriptionPlanVersion').implement({
    description: 'The recurring costs from validFrom until the next version.',
    fields: (f) => ({
      validFrom: f.field({ type: DateTime, resolve: (v) => v.validFrom }),
      recurringCosts: f.field({
        type: [CpoRecurringCost], extensions: EMBEDDED_VALUE,
        resolve: (v) => v.recurringCosts.map((c) => ({ ...c, amount_excl_vat: normalize(c.amount_excl_vat), per: c.per ?? 'subscription' })),
      }),
    }),
  }),
  description: 'Its versions by validFrom (loaded for all plans of a query at once).',
  load: async (planIds: string[], context) => {
    const versions = await cpoPlanVersions(context.em, planIds);
    return planIds.map((id) => versions.filter((v) => v.plan.id === id));
  },
  resolve: (plan) => plan.id,
}));

export const CpoSubscription = builder.loadableNode('CpoSubscription', {
  description: "A customer's CPO subscription (REST: /cpo-subscription), valid from validFrom until (excluding) validUntil.",
  id: { resolve: (s: CpoSubscriptionData) => s.id },
  cacheResolved: (s) => s.id,
  isTypeOf: (value) => isDataOf(value, 'CpoSubscription'),
  load: (ids: string[], context) => cpoSubscriptionsByIds(context.em, ids) as Promise<CpoSubscriptionData[]>,
  fields: (t) => ({
    databaseId: t.exposeString('id'),
    adminId: t.string({ resolve: (s) => s.admin.id }),
    customer: t.field({ type: Customer, nullable: true, description: 'Null when the customer is outside what the caller may see.', resolve: (s) => s.customer.id }),
    plan: t.field({ type: CpoSubscriptionPlan, resolve: (s) => s.plan.id }),
    buyerReference: t.string({ nullable: true, resolve: (s) => s.buyerReference ?? null }),
    validFrom: t.field({ type: DateTime, resolve: (s) => s.validFrom }),
    validUntil: t.field({ type: DateTime, nullable: true, resolve: (s) => s.validUntil ?? null }),
    defunct: t.exposeBoolean('defunct'),
    customFields: t.field({ type: JsonScalar, resolve: (s) => s.customFields ?? {} }),
    externalReference: t.string({ nullable: true, resolve: (s) => s.externalReference ?? null }),
  }),
});

const CpoPlanConnection = builder.connectionObject({ type: CpoSubscriptionPlan, name: 'CpoSubscriptionPlanConnection' }, { name: 'CpoSubscriptionPlanEdge' });
const CpoSubscriptionConnection = builder.connectionObject({ type: CpoSubscription, name: 'CpoSubscriptionConnection' }, { name: 'CpoSubscriptionEdge' });

const localId = (raw: string | number, typename: string) => {
  const ref = refFromArg(String(raw), typename, false);
  return 'id' in ref ? ref.id : String(raw);
};

builder.queryFields((t) => ({
  cpoSubscriptionPlans: t.connection({
    type: CpoSubscriptionPlan, description: 'CPO subscription plans by id (REST: GET /cpo-subscription-plan).',
    resolve: (_root, args, context) => listConnection<CpoPlanData>(cpoPlanList(context.em), args),
  }, CpoPlanConnection),
  cpoSubscriptions: t.connection({
    type: CpoSubscription, description: 'CPO subscriptions by id (REST: GET /cpo-subscription).',
    resolve: (_root, args, context) => listConnection<CpoSubscriptionData>(cpoSubscriptionList(context.em), args),
  }, CpoSubscriptionConnection),
}));

builder.mutationFields((t) => ({
  defunctCpoSubscription: t.field({
    type: CpoSubscription, nullable: true,
    description: 'Marks a CPO subscription defunct, its EVSE links too (REST: PUT /cpo-subscription/{id}/defunct).',
    args: { id: t.arg.id({ required: true, description: 'Global ID or REST id.' }) },
    resolve: (_root, args, context) => mutate(context, null, (em) => markCpoSubscriptionDefunct(em, localId(args.id, 'CpoSubscription'))),
  }),
}));
