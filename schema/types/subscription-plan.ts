import { normalize } from '../../src/money/decimal.ts';
import { SubscriptionPlan as SubscriptionPlanEntity } from '../../src/msp/subscription-plan.entity.ts';
import { builder } from '../builder.ts';
import { findConnection } from '../connection.ts';
import { administrationKey } from '../ids.ts';
import { loadByIds } from '../load.ts';
import { Administration } from './administration.ts';
import { DateTime } from './date-time.ts';
import { JsonScalar } from './json.ts';

export const SubscriptionPlan = builder.loadableNode(SubscriptionPlanEntity, {
  name: 'SubscriptionPlan',
  description: 'What a token subscription is under: its rate plan and recurring costs.',
  id: { resolve: (plan) => plan.id },
  cacheResolved: (plan) => plan.id,
  load: (ids: string[], context) => loadByIds(context.em, SubscriptionPlanEntity, ids),
  fields: (t) => ({
    databaseId: t.exposeString('id', { description: 'The id of this plan in the REST API.' }),
    adminId: t.string({ description: 'The slug of the administration.', resolve: (plan) => plan.admin.id }),
    administration: t.field({ type: Administration, resolve: (plan) => plan.admin.id }),
    name: t.exposeString('name'),
    description: t.string({ nullable: true, resolve: (plan) => plan.description ?? null }),
    publishFrom: t.field({ type: DateTime, nullable: true, resolve: (plan) => plan.publishFrom ?? null }),
    publishUntil: t.field({ type: DateTime, nullable: true, resolve: (plan) => plan.publishUntil ?? null }),
    ratePlanId: t.string({ nullable: true, resolve: (plan) => plan.ratePlanId ?? null }),
    recurringCosts: t.field({
      type: JsonScalar,
      description: 'As in REST: a list of { description, amount_excl_vat (exact decimal string), period }.',
      resolve: (plan) => (plan.recurringCosts ?? []).map((cost) => ({
        description: cost.description, amount_excl_vat: normalize(cost.amount_excl_vat), period: cost.period,
      })),
    }),
    useCustomerReimbursementVat: t.exposeBoolean('useCustomerReimbursementVat'),
    externalReference: t.string({ nullable: true, resolve: (plan) => plan.externalReference ?? null }),
    createdAt: t.field({ type: DateTime, resolve: (plan) => plan.createdAt }),
    updatedAt: t.field({ type: DateTime, resolve: (plan) => plan.updatedAt }),
  }),
});

export const SubscriptionPlanConnection = builder.connectionObject(
  { type: SubscriptionPlan, name: 'SubscriptionPlanConnection' },
  { name: 'SubscriptionPlanEdge' },
);

builder.queryFields((t) => ({
  subscriptionPlans: t.connection({
    type: SubscriptionPlan,
    description: 'The subscription plans the caller may see, by id.',
    args: { adminId: t.arg.id({ description: 'Only plans of this administration (slug or global ID).' }) },
    resolve: (_root, args, context) => findConnection(context.em, SubscriptionPlanEntity,
      args.adminId ? { admin: administrationKey(String(args.adminId)) } : {}, args),
  }, SubscriptionPlanConnection),
}));
