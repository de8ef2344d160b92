import { RATE_COMPONENTS, type RateComponent } from '../../src/pricing/rate-plan-definition.ts';
import * as yup from 'yup';
import { normalize } from '../../src/money/decimal.ts';
import {
  createSubscriptionPlan, RECURRING_PERIODS, upsertSubscriptionPlan, type SubscriptionPlanPatch,
} from '../../src/msp/save-subscription-plan.service.ts';
import { getSubscriptionPlan, subscriptionPlanList, type SubscriptionPlanData } from '../../src/msp/subscription-plan.queries.ts';
import { parseRef } from '../../src/platform/resource-ref.ts';
import { seekPage } from '../rails/pagination.ts';
import { patchFrom, type FieldMapping } from '../rails/patch.ts';
import { defineRoute, type RouteDef } from '../rails/route.ts';
import { externalRef, isoDate, oneOf, text, timestamp } from '../../src/platform/input-schemas.ts';
import { inShapeOrder, planShape, planValues } from '../rails/contracts.ts';
import { t, type Infer } from '../rails/shape.ts';

const TAG = 'MSP subscription plans';

export const subscriptionPlanShape = planShape('SubscriptionPlan', {
  published: {
    rate_plan_id: t.nullable(t.string()),
    recurring_costs: t.array(t.object({ description: t.string(), amount_excl_vat: t.decimal(), period: t.enum(RECURRING_PERIODS) })),
    use_customer_reimbursement_vat: t.boolean(),
    credit_excluded_components: t.array(t.enum(RATE_COMPONENTS)),
  },
});

export function serializeSubscriptionPlan(p: SubscriptionPlanData): Infer<typeof subscriptionPlanShape> {
  return inShapeOrder(subscriptionPlanShape, {
    ...planValues(p),
    rate_plan_id: p.ratePlanId ?? null,
    recurring_costs: (p.recurringCosts ?? []).map((c) => ({
      description: c.description, amount_excl_vat: normalize(c.amount_excl_vat), period: c.period,
    })),
    use_customer_reimbursement_vat: p.useCustomerReimbursementVat,
    // Stored as checked on input (planBody).
    credit_excluded_components: (p.creditExcludedComponents ?? []) as RateComponent[],
  });
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

const recurringCost = yup.object({
  description: text().defined('${path} is required'),
  amount_excl_vat: yup.string().defined('${path} is required'),
  period: oneOf(RECURRING_PERIODS).defined('${path} is required'),
});

const planBody = yup.object({
  admin_id: text(64).nullable(),
  name: text().nullable(),
  description: yup.string().max(10000, '${path} must be at most ${max} characters').nullable(),
  publish_from: timestamp().nullable(),
  publish_until: timestamp().nullable(),
  rate_plan_id: yup.string().matches(UUID, '${path} must be a UUID').nullable(),
  recurring_costs: yup.array(recurringCost).max(100, '${path} must hold at most ${max} items').nullable(),
  use_customer_reimbursement_vat: yup.boolean().nullable(),
  credit_excluded_components: yup.array(oneOf(RATE_COMPONENTS).defined()).max(4).nullable(),
  external_reference: externalRef().nullable(),
});

const MAPPING: FieldMapping = {
  admin_id: 'adminId',
  name: 'name',
  description: 'description',
  publish_from: { to: 'publishFrom', convert: isoDate },
  publish_until: { to: 'publishUntil', convert: isoDate },
  rate_plan_id: 'ratePlanId',
  recurring_costs: 'recurringCosts',
  use_customer_reimbursement_vat: 'useCustomerReimbursementVat',
  credit_excluded_components: 'creditExcludedComponents',
  external_reference: 'externalReference',
};

const patch = (body: Record<string, unknown>) => patchFrom(body, MAPPING) as SubscriptionPlanPatch;

const RULES = 'Amounts (amount_excl_vat) are exact decimal strings with at most 6 decimals, not negative; period is month, '
  + 'quarter or year. publish_from/publish_until are the intended window for new subscriptions and are not enforced. '
  + 'rate_plan_id names the rate plan that prices the sessions. credit_excluded_components (energy, time, parking_time, flat) '
  + 'are not paid by monetary credits.';

export const subscriptionPlanRoutes: RouteDef[] = [
  defineRoute({
    method: 'get', path: '/msp-token-subscription-plan', tag: TAG, summary: 'List subscription plans', paged: true,
    response: subscriptionPlanShape,
    query: yup.object({ admin_id: yup.string(), external_reference: yup.string() }),
    handler: ({ ctx, em, rawQuery, query }) => seekPage(ctx, {
      list: subscriptionPlanList(em, { adminId: query.admin_id || undefined, externalReference: query.external_reference || undefined }),
      rawQuery, path: '/main/v1/msp-token-subscription-plan', serialize: serializeSubscriptionPlan,
    }),
  }),
  defineRoute({
    method: 'post', path: '/msp-token-subscription-plan', tag: TAG, graphql: 'createSubscriptionPlan', summary: 'Create a subscription plan', extension: true,
    description: `Needs admin_id and name. ${RULES}`, body: planBody, response: subscriptionPlanShape,
    handler: async ({ em, body }) => serializeSubscriptionPlan(await createSubscriptionPlan(em, patch(body))),
  }),
  defineRoute({
    method: 'get', path: '/msp-token-subscription-plan/:id', tag: TAG, extension: true,
    summary: 'Get a subscription plan (id or ext_ref.<external_reference>)', response: subscriptionPlanShape,
    handler: async ({ em, params }) => serializeSubscriptionPlan(await getSubscriptionPlan(em, parseRef(params.id, true))),
  }),
  defineRoute({
    method: 'post', path: '/msp-token-subscription-plan/:id', tag: TAG, graphql: 'updateSubscriptionPlan', extension: true, body: planBody,
    summary: 'Merge-update a subscription plan; on ext_ref.<ref> create it when missing',
    description: `admin_id is set on create only. recurring_costs is replaced as a whole. ${RULES}`, response: subscriptionPlanShape,
    handler: async ({ em, body, params }) => serializeSubscriptionPlan(await upsertSubscriptionPlan(em, parseRef(params.id, true), patch(body))),
  }),
];
