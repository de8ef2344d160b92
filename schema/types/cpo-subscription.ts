import * as yup from 'yup';
import {
  cpoPlanList, cpoPlansByIds, cpoPlanVersions, cpoSubscriptionList, cpoSubscriptionsByIds,
  type CpoPlanData, type CpoPlanVersionData, type CpoSubscriptionData,
} from '../../src/cpo/cpo-subscription.queries.ts';
import { createCpoPlan, setCpoPlanVersion, updateCpoPlan, type CpoPlanInput } from '../../src/cpo/cpo-subscription-plan.service.ts';
import { createCpoSubscription, markCpoSubscriptionDefunct, updateCpoSubscription } from '../../src/cpo/cpo-subscription.service.ts';
import { normalize } from '../../src/money/decimal.ts';
import { externalRef, text } from '../../src/platform/input-schemas.ts';
import { validate } from '../../src/platform/input-validation.ts';
import { isDataOf } from '../../src/platform/seek-page.ts';
import { builder } from '../builder.ts';
import { EMBEDDED_VALUE } from '../query-cost.ts';
import { listConnection } from '../connection.ts';
import { contractInputFields, contractPatch } from '../contract-inputs.ts';
import { administrationKey, idArg, refFromArg } from '../ids.ts';
import { FIELD_ARGUMENTS, mutate } from '../mutation.ts';
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
    customerId: t.string({ description: 'The REST id of the customer.', resolve: (s) => s.customer.id }),
    plan: t.field({ type: CpoSubscriptionPlan, resolve: (s) => s.plan.id }),
    planId: t.string({ description: 'The REST id of the plan.', resolve: (s) => s.plan.id }),
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
    args: {
      id: t.arg.id({ required: true, description: 'Global ID or REST id.' }),
      externalUpdatedAt: t.arg({ type: DateTime, description: 'Recorded when given (REST: the optional body\'s external_updated_at).' }),
    },
    resolve: (_root, args, context) => mutate(context, null, (em) =>
      markCpoSubscriptionDefunct(em, localId(args.id, 'CpoSubscription'), args.externalUpdatedAt)),
  }),
}));

// --- writes of plans, their versions and subscriptions (the services of REST's /cpo-subscription-plan and /cpo-subscription) ---

builder.objectFields(CpoSubscription, (t) => ({
  planExternalReference: t.string({ nullable: true, description: "The plan's externalReference.", resolve: (s) => s.planExternalReference ?? null }),
  externalUpdatedAt: t.field({ type: DateTime, nullable: true, resolve: (s) => s.externalUpdatedAt ?? null }),
  createdAt: t.field({ type: DateTime, resolve: (s) => s.createdAt }),
  updatedAt: t.field({ type: DateTime, resolve: (s) => s.updatedAt }),
}));

builder.objectFields(CpoSubscriptionPlan, (t) => ({
  description: t.string({ nullable: true, resolve: (plan) => plan.description ?? null }),
  createdAt: t.field({ type: DateTime, resolve: (plan) => plan.createdAt }),
  updatedAt: t.field({ type: DateTime, resolve: (plan) => plan.updatedAt }),
}));

const CpoSubscriptionPlanInput = builder.inputType('CpoSubscriptionPlanInput', {
  description: 'JSON Merge Patch semantics: an absent field keeps its value, null clears it. Creating needs adminId and name. '
    + 'Its recurring costs: setCpoSubscriptionPlanVersion.',
  fields: (t) => ({
    adminId: t.id({ description: 'Slug or global ID of the administration. Set on creation only; ignored on update.' }),
    name: t.string(),
    description: t.string(),
    publishFrom: t.field({ type: DateTime, description: 'The intended window for new subscriptions; not enforced.' }),
    publishUntil: t.field({ type: DateTime, description: 'After publishFrom.' }),
    externalReference: t.string({ description: 'Unique in the instance.' }),
  }),
});

/** What GraphQL types cannot say; the same rules as the REST body. */
const planRules = yup.object({ adminId: text(64).nullable(), name: text().nullable(), description: text(10000).nullable(), externalReference: externalRef().nullable() });

function cpoPlanInput(input: typeof CpoSubscriptionPlanInput.$inferInput): CpoPlanInput {
  validate(planRules, input);
  const { adminId, ...fields } = input;
  return { ...fields, ...(typeof adminId === 'string' ? { adminId: administrationKey(adminId) } : {}) } as CpoPlanInput;
}

const CpoRecurringCostInput = builder.inputType('CpoRecurringCostInput', {
  description: 'A recurring cost of a CPO subscription plan version.',
  fields: (t) => ({
    description: t.string({ required: true }),
    amountExclVat: t.string({ required: true, description: 'A decimal string, not negative.' }),
    period: t.string({ required: true, description: 'month, quarter or year.' }),
    per: t.string({ description: 'subscription (the default) or evse: each validly linked EVSE.' }),
  }),
});

const costRules = yup.object({
  recurringCosts: yup.array(yup.object({ description: text(), amountExclVat: text(32), period: text(16), per: text(16).nullable() })).max(50).nullable(),
});

const CREATE_SUBSCRIPTION = 'A new CPO subscription of a customer to a plan (its administration is the plan\'s).';

const CreateCpoSubscriptionInput = builder.inputType('CreateCpoSubscriptionInput', {
  description: CREATE_SUBSCRIPTION,
  fields: (t) => ({
    customerId: t.id({ required: true, description: 'Global ID or REST id of the customer.' }),
    planId: t.id({ required: true, description: 'Global ID, REST id, or ext_ref.<external_reference> of the plan.' }),
    ...contractInputFields(t),
    validFrom: t.field({ type: DateTime, required: true }),
  }),
});

const CpoSubscriptionInput = builder.inputType('CpoSubscriptionInput', {
  description: 'JSON Merge Patch semantics: an absent field keeps its value, null clears it (validFrom cannot be cleared).',
  fields: (t) => contractInputFields(t),
});

const RECURRING_COST_CORRECTION = 'true: the fees of the periods already billed are collected again from the first period the validity change '
  + 'affects; false or absent: billed fees stay as billed.';

/** A plan named by its global ID, its REST id or ext_ref.<reference>. */
const planRef = (raw: string | number) => idArg(raw, 'CpoSubscriptionPlan');

builder.mutationFields((t) => ({
  createCpoSubscriptionPlan: t.field({
    type: CpoSubscriptionPlan, nullable: true,
    description: 'Creates a CPO subscription plan (REST: POST /cpo-subscription-plan); its recurring costs: setCpoSubscriptionPlanVersion.',
    args: { input: t.arg({ type: CpoSubscriptionPlanInput, required: true }) },
    resolve: (_root, args, context) => mutate(context, 'input', (em) => createCpoPlan(em, cpoPlanInput(args.input))),
  }),
  updateCpoSubscriptionPlan: t.field({
    type: CpoSubscriptionPlan, nullable: true,
    description: 'Merge-updates a CPO subscription plan (REST: POST /cpo-subscription-plan/{id}).',
    args: {
      id: t.arg.id({ required: true, description: 'Global ID, REST id, or ext_ref.<external_reference>.' }),
      input: t.arg({ type: CpoSubscriptionPlanInput, required: true }),
    },
    resolve: (_root, args, context) => mutate(context, 'input', (em) => updateCpoPlan(em, planRef(args.id), { ...cpoPlanInput(args.input), adminId: undefined })),
  }),
  setCpoSubscriptionPlanVersion: t.field({
    type: CpoSubscriptionPlan, nullable: true,
    description: "Merge-updates the plan's recurring costs valid from a date, creating that version when missing "
      + '(REST: POST /cpo-subscription-plan/{id}/{valid_from}). Billed per invoicing period, prorated by days. An invalid date is invalid_input at $, as in REST.',
    args: {
      planId: t.arg.id({ required: true, description: 'Global ID, REST id, or ext_ref.<external_reference>.' }),
      validFrom: t.arg.string({ required: true, description: 'A date, YYYY-MM-DD: from local midnight of the administration.' }),
      recurringCosts: t.arg({ type: [CpoRecurringCostInput], description: 'Replaced as a whole; null clears them, absent keeps them.' }),
    },
    resolve: (_root, args, context) => mutate(context, FIELD_ARGUMENTS, (em) => {
      validate(costRules, { recurringCosts: args.recurringCosts });
      const recurringCosts = args.recurringCosts === undefined ? undefined : args.recurringCosts?.map((cost) => ({
        description: cost.description, amount_excl_vat: cost.amountExclVat, period: cost.period, per: cost.per ?? null,
      })) ?? null;
      return setCpoPlanVersion(em, planRef(args.planId), args.validFrom, { recurringCosts });
    }),
  }),
  createCpoSubscription: t.field({
    type: CpoSubscription, nullable: true,
    description: `${CREATE_SUBSCRIPTION} The publishing window of the plan is not enforced (REST: POST /cpo-subscription).`,
    args: { input: t.arg({ type: CreateCpoSubscriptionInput, required: true }) },
    resolve: (_root, args, context) => mutate(context, 'input', (em) => {
      const { customerId, planId, ...fields } = args.input;
      return createCpoSubscription(em, { ...contractPatch(fields), customerId: idArg(customerId, 'Customer'), planRef: planRef(planId) });
    }),
  }),
  updateCpoSubscription: t.field({
    type: CpoSubscription, nullable: true,
    description: 'Merge-updates a CPO subscription; optional recurring cost correction (REST: POST /cpo-subscription/{id}).',
    args: {
      id: t.arg.id({ required: true, description: 'Global ID or REST id.' }),
      input: t.arg({ type: CpoSubscriptionInput, required: true }),
      recurringCostCorrection: t.arg.boolean({ description: RECURRING_COST_CORRECTION }),
    },
    resolve: (_root, args, context) => mutate(context, 'input', (em) => updateCpoSubscription(
      em, localId(args.id, 'CpoSubscription'), contractPatch(args.input), { recurringCostCorrection: args.recurringCostCorrection === true },
    )),
  }),
}));

export { RECURRING_COST_CORRECTION };
