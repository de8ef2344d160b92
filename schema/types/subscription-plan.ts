import * as yup from 'yup';
import { normalize } from '../../src/money/decimal.ts';
import {
  createSubscriptionPlan, RECURRING_PERIODS, upsertSubscriptionPlan, type SubscriptionPlanPatch,
} from '../../src/msp/save-subscription-plan.service.ts';
import {
  findSubscriptionPlan, subscriptionPlanList, subscriptionPlansByIds, type SubscriptionPlanData,
} from '../../src/msp/subscription-plan.queries.ts';
import { RATE_COMPONENTS, type RateComponent as RateComponentValue } from '../../src/pricing/rate-plan-definition.ts';
import { externalRef, text } from '../../src/platform/input-schemas.ts';
import { validate } from '../../src/platform/input-validation.ts';
import { isDataOf } from '../../src/platform/seek-page.ts';
import { builder } from '../builder.ts';
import { EMBEDDED_VALUE } from '../query-cost.ts';
import { listConnection } from '../connection.ts';
import { enumOf } from '../enum.ts';
import { administrationKey, refFromArg } from '../ids.ts';
import { mutate } from '../mutation.ts';
import { Administration } from './administration.ts';
import { DateTime } from './date-time.ts';
import { RatePlan } from './rate-plan.ts';

export const RateComponent = enumOf('RateComponent', RATE_COMPONENTS, 'A price component of a rate plan.');

const RecurringCost = builder.objectRef<{ description: string; amount_excl_vat: string; period: (typeof RECURRING_PERIODS)[number] }>('RecurringCost').implement({
  description: 'A fee of a subscription plan (REST: recurring_costs).',
  fields: (t) => ({
    description: t.exposeString('description'),
    amountExclVat: t.string({ description: 'An exact decimal string.', resolve: (c) => c.amount_excl_vat }),
    period: t.field({ type: RecurringPeriod, resolve: (c) => c.period }),
  }),
});

export const SubscriptionPlan = builder.loadableNode('SubscriptionPlan', {
  description: 'What a token subscription is under: its rate plan and recurring costs.',
  id: { resolve: (plan: SubscriptionPlanData) => plan.id },
  cacheResolved: (plan) => plan.id,
  isTypeOf: (value) => isDataOf(value, 'SubscriptionPlan'),
  load: (ids: string[], context) => subscriptionPlansByIds(context.em, ids) as Promise<SubscriptionPlanData[]>,
  fields: (t) => ({
    databaseId: t.exposeString('id', { description: 'The id of this plan in the REST API.' }),
    adminId: t.string({ description: 'The slug of the administration.', resolve: (plan) => plan.admin.id }),
    administration: t.field({ type: Administration, resolve: (plan) => plan.admin.id }),
    name: t.exposeString('name'),
    description: t.string({ nullable: true, resolve: (plan) => plan.description ?? null }),
    publishFrom: t.field({ type: DateTime, nullable: true, resolve: (plan) => plan.publishFrom ?? null }),
    publishUntil: t.field({ type: DateTime, nullable: true, resolve: (plan) => plan.publishUntil ?? null }),
    ratePlanId: t.string({ nullable: true, resolve: (plan) => plan.ratePlanId ?? null }),
    ratePlan: t.field({
      type: RatePlan,
      nullable: true,
      description: 'Null when there is none, or the caller may not see it.',
      resolve: (plan) => plan.ratePlanId ?? null,
    }),
    recurringCosts: t.field({
      type: [RecurringCost], extensions: EMBEDDED_VALUE,
      description: 'Its fees (REST: recurring_costs).',
      resolve: (plan) => (plan.recurringCosts ?? []).map((cost) => ({
        description: cost.description, amount_excl_vat: normalize(cost.amount_excl_vat), period: cost.period,
      })),
    }),
    useCustomerReimbursementVat: t.exposeBoolean('useCustomerReimbursementVat'),
    creditExcludedComponents: t.field({
      type: [RateComponent],
      description: 'The components monetary credits do not pay.',
      // Stored as checked on input.
      resolve: (plan) => (plan.creditExcludedComponents ?? []) as RateComponentValue[],
    }),
    externalReference: t.string({ nullable: true, resolve: (plan) => plan.externalReference ?? null }),
    createdAt: t.field({ type: DateTime, resolve: (plan) => plan.createdAt }),
    updatedAt: t.field({ type: DateTime, resolve: (plan) => plan.updatedAt }),
  }),
});

const planRef = (id: string | number) => refFromArg(String(id), 'SubscriptionPlan');
const ID_DESCRIPTION = 'Global ID, REST id, or ext_ref.<external_reference>.';

export const SubscriptionPlanConnection = builder.connectionObject(
  { type: SubscriptionPlan, name: 'SubscriptionPlanConnection' },
  { name: 'SubscriptionPlanEdge' },
);

builder.queryFields((t) => ({
  subscriptionPlans: t.connection({
    type: SubscriptionPlan,
    description: 'The subscription plans the caller may see, by id.',
    args: {
      adminId: t.arg.id({ description: 'Only plans of this administration (slug or global ID).' }),
      externalReference: t.arg.string({ description: 'Only the plan with this external reference.' }),
    },
    resolve: (_root, args, context) => listConnection<SubscriptionPlanData>(subscriptionPlanList(context.em, {
      adminId: args.adminId ? administrationKey(String(args.adminId)) : undefined,
      externalReference: args.externalReference || undefined,
    }), args),
  }, SubscriptionPlanConnection),
  subscriptionPlan: t.field({
    type: SubscriptionPlan,
    nullable: true,
    description: 'A subscription plan; null when there is none the caller may see.',
    args: { id: t.arg.id({ required: true, description: ID_DESCRIPTION }) },
    resolve: async (_root, args, context) => {
      const ref = planRef(args.id);
      return 'id' in ref ? ref.id : findSubscriptionPlan(context.em, ref);
    },
  }),
}));

const RecurringPeriod = enumOf('RecurringPeriod', RECURRING_PERIODS, 'How often a recurring cost is charged.');

const RecurringCostInput = builder.inputType('RecurringCostInput', {
  fields: (t) => ({
    description: t.string({ required: true }),
    amountExclVat: t.string({ required: true, description: 'An exact decimal string, not negative, at most 6 decimals.' }),
    period: t.field({ type: RecurringPeriod, required: true }),
  }),
});

const SubscriptionPlanInput = builder.inputType('SubscriptionPlanInput', {
  description: 'JSON Merge Patch semantics: an absent field keeps its value, null clears it. Creating needs adminId and name.',
  fields: (t) => ({
    adminId: t.id({ description: 'Slug or global ID of the administration. Set on creation only; ignored on update.' }),
    name: t.string(),
    description: t.string(),
    publishFrom: t.field({ type: DateTime, description: 'The intended window for new subscriptions; not enforced.' }),
    publishUntil: t.field({ type: DateTime }),
    ratePlanId: t.id({ description: 'Global ID or REST id of a rate plan of the administration\'s currency shared with it.' }),
    recurringCosts: t.field({ type: [RecurringCostInput], description: 'Replaced as a whole.' }),
    useCustomerReimbursementVat: t.boolean(),
    creditExcludedComponents: t.field({ type: [RateComponent], description: 'Components monetary credits do not pay; replaced as a whole.' }),
    externalReference: t.string({ description: 'Unique in the instance, compared case-insensitively.' }),
  }),
});

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** What GraphQL types cannot say; the same rules as the REST body. */
const inputRules = yup.object({
  adminId: text(64).nullable(),
  name: text().nullable(),
  description: yup.string().max(10000, '${path} must be at most ${max} characters').nullable(),
  ratePlanId: yup.string().matches(UUID, '${path} must be a UUID').nullable(),
  recurringCosts: yup.array(yup.object({ description: text() })).max(100, '${path} must hold at most ${max} items').nullable(),
  creditExcludedComponents: yup.array().max(4, '${path} must hold at most ${max} items').nullable(),
  externalReference: externalRef().nullable(),
});

function subscriptionPlanPatch(input: typeof SubscriptionPlanInput.$inferInput): SubscriptionPlanPatch {
  const { recurringCosts, ...rest } = input;
  const patch = { ...rest } as SubscriptionPlanPatch;
  if (typeof input.adminId === 'string') patch.adminId = administrationKey(input.adminId);
  if (input.ratePlanId !== undefined && input.ratePlanId !== null) {
    const ref = refFromArg(String(input.ratePlanId), 'RatePlan', false);
    patch.ratePlanId = 'id' in ref ? ref.id : String(input.ratePlanId);
  }
  if (recurringCosts !== undefined) {
    patch.recurringCosts = recurringCosts?.map((cost) => ({ description: cost.description, amount_excl_vat: cost.amountExclVat, period: cost.period })) ?? null;
  }
  validate(inputRules, { ...patch, recurringCosts });
  return patch;
}

builder.mutationFields((t) => ({
  createSubscriptionPlan: t.field({
    type: SubscriptionPlan,
    nullable: true,
    description: 'Creates a subscription plan (REST: POST /msp-token-subscription-plan).',
    args: { input: t.arg({ type: SubscriptionPlanInput, required: true }) },
    resolve: (_root, args, context) => mutate(context, 'input', (em) => createSubscriptionPlan(em, subscriptionPlanPatch(args.input))),
  }),
  updateSubscriptionPlan: t.field({
    type: SubscriptionPlan,
    nullable: true,
    description: 'Merge-updates a subscription plan (REST: POST /msp-token-subscription-plan/{id}); with ext_ref.<ref> as id, '
      + 'creates it when none has that reference.',
    args: { id: t.arg.id({ required: true, description: ID_DESCRIPTION }), input: t.arg({ type: SubscriptionPlanInput, required: true }) },
    resolve: (_root, args, context) => mutate(context, 'input', (em) =>
      upsertSubscriptionPlan(em, planRef(args.id), subscriptionPlanPatch(args.input))),
  }),
}));
