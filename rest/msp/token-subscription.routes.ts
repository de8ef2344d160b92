import * as yup from 'yup';
import { normalize } from '../../src/money/decimal.ts';
import { createTokenSubscription } from '../../src/msp/create-token-subscription.service.ts';
import { markTokenSubscriptionDefunct } from '../../src/msp/defunct-token-subscription.service.ts';
import {
  getTokenSubscription, tokenSubscriptionDetails, tokenSubscriptionList, type SubscriptionLinkData, type TokenSubscriptionData,
  type TokenSubscriptionDetail,
} from '../../src/msp/token-subscription.queries.ts';
import type { NewTokenSubscription, SubscriptionParties, TokenSubscriptionPatch } from '../../src/msp/token-subscription-input.ts';
import { updateTokenSubscription } from '../../src/msp/update-token-subscription.service.ts';
import { UID_TYPE_IDS } from '../../src/msp/token-reference-data.ts';
import { isUuid } from '../../src/platform/ids.ts';
import type { Em } from '../../src/platform/orm.ts';
import { seekPage } from '../rails/pagination.ts';
import { CONTRACT, contractMembers, contractShape, contractValues, defunctBody, inShapeOrder } from '../rails/contracts.ts';
import { patchFrom } from '../rails/patch.ts';
import { defineRoute, type RouteDef } from '../rails/route.ts';
import { booleanFilter, iso, isoDate, oneOf, text, timestamp } from '../../src/platform/input-schemas.ts';
import { representation, t, type Infer } from '../rails/shape.ts';
import { singleFieldRoutes } from '../rails/single-field-routes.ts';

const TAG = 'MSP token subscriptions';

export const subscriptionLinkShape = representation('TokenSubscriptionLink', {
  id: t.string(),
  evco_id: t.string(),
  valid_from: t.nullable(t.timestamp()),
  effective_valid_from: t.timestamp(),
  valid_until: t.nullable(t.timestamp()),
  defunct: t.boolean(),
});

export const tokenSubscriptionShape = contractShape('TokenSubscription', {
  plan: { plan_id: t.string(), plan_external_reference: t.nullable(t.string()) }, state: { is_valid: t.boolean() },
  custom: { monetary_credit_balance: t.decimal() }, late: { links: t.array(subscriptionLinkShape) },
});

export function serializeSubscriptionLink(link: SubscriptionLinkData): Infer<typeof subscriptionLinkShape> {
  return {
    id: link.id,
    evco_id: link.evcoId,
    valid_from: iso(link.validFrom),
    effective_valid_from: iso(link.effectiveValidFrom),
    valid_until: iso(link.validUntil),
    defunct: link.defunct,
  };
}

export function serializeTokenSubscription(s: TokenSubscriptionDetail): Infer<typeof tokenSubscriptionShape> {
  return inShapeOrder(tokenSubscriptionShape, {
    ...contractValues(s), plan_id: s.plan.id, plan_external_reference: s.planExternalReference, is_valid: s.isValid,
    monetary_credit_balance: normalize(s.monetaryCreditBalance), links: s.links.map(serializeSubscriptionLink),
  });
}

/** The answer of a write: the subscription as it now is, with its plan's external reference and its links. */
export async function present(em: Em, subscription: TokenSubscriptionData) {
  const [detail] = await tokenSubscriptionDetails(em, [subscription.id]);
  return serializeTokenSubscription(detail);
}

const updateFields = {
  ...contractMembers,
  // Set on create only; accepted and ignored on update (decisions.md: immutable fields).
  admin_id: text(64).nullable(),
  customer_id: text(64).nullable(),
  customer_external_reference: text().nullable(),
  plan_id: text(64).nullable(),
  plan_external_reference: text().nullable(),
};

const updateBody = yup.object({
  ...updateFields,
  recurring_cost_correction: yup.boolean().nullable()
    .meta({ description: 'true: the periods already billed with fees of the subscription are billed again from the first moment a change of valid_from or valid_until affects (a changed fee reversed and billed anew in the next open box once its box is closed).' }),
});

const createBody = yup.object({
  ...updateFields,
  token_series_id: text(64).nullable(),
  token_uid_type_id: oneOf(UID_TYPE_IDS).nullable(),
  token_uid: text(64).nullable(),
  links: yup.array(yup.object({
    evco_id: text(64).defined('${path} is required'),
    valid_from: timestamp().nullable(),
    valid_until: timestamp().nullable(),
  })).max(1000, '${path} must hold at most ${max} items').nullable(),
});

const MAPPING = CONTRACT;

type CreateBody = yup.InferType<typeof createBody>;

/** The members naming administration, customer and plan (create only; on update checked and ignored). */
function parties(body: Record<string, unknown>): SubscriptionParties {
  const { admin_id, customer_id, customer_external_reference, plan_id, plan_external_reference } = body as Record<string, string | null | undefined>;
  return {
    adminId: admin_id, customerId: customer_id, customerExternalReference: customer_external_reference,
    planId: plan_id, planExternalReference: plan_external_reference,
  };
}

function newSubscription(body: CreateBody): NewTokenSubscription {
  return {
    ...(patchFrom(body, MAPPING) as TokenSubscriptionPatch),
    ...parties(body),
    tokenSeriesId: body.token_series_id,
    tokenUidTypeId: body.token_uid_type_id,
    tokenUid: body.token_uid,
    links: body.links?.map((link) => ({ evcoId: link.evco_id, validFrom: isoDate(link.valid_from), validUntil: isoDate(link.valid_until) })),
  };
}

const update = async (em: Em, id: string, body: Record<string, unknown>, mode: 'merge' | 'replace') =>
  present(em, await updateTokenSubscription(em, id, { ...(patchFrom(body, MAPPING, mode) as TokenSubscriptionPatch), ...parties(body) }, mode,
    { recurringCostCorrection: body.recurring_cost_correction as boolean | null | undefined }));

const uuidQuery = () => yup.string().test('uuid', '${path} must be an id', (value) => value === undefined || isUuid(value));
const asBoolean = (value: string | undefined) => (value === undefined ? undefined : value === 'true');

const VALIDITY = 'Validity is [valid_from, valid_until); valid_until must be after valid_from. is_valid: valid now and not defunct.';

export const tokenSubscriptionRoutes: RouteDef[] = [
  defineRoute({
    method: 'get', path: '/msp-token-subscription', tag: TAG, summary: 'List token subscriptions', paged: true, createdGt: true,
    response: tokenSubscriptionShape,
    description: 'Filters: is_valid (valid now and not defunct, or not), plan_id, has_monetary_credits (balance above zero, or not), '
      + 'customer_id (extension).',
    query: yup.object({ is_valid: booleanFilter(), plan_id: uuidQuery(), has_monetary_credits: booleanFilter(), customer_id: uuidQuery() }),
    handler: ({ ctx, em, rawQuery, query }) => seekPage(ctx, {
      list: tokenSubscriptionList(em, {
        isValid: asBoolean(query.is_valid), planId: query.plan_id, customerId: query.customer_id, hasMonetaryCredits: asBoolean(query.has_monetary_credits),
      }),
      rawQuery, path: '/main/v1/msp-token-subscription', createdGt: true, serialize: serializeTokenSubscription,
    }),
  }),
  defineRoute({
    method: 'post', path: '/msp-token-subscription', tag: TAG, graphql: 'createTokenSubscription', summary: 'Create a token subscription', body: createBody,
    response: tokenSubscriptionShape,
    description: 'Needs valid_from, exactly one of customer_id and customer_external_reference, and exactly one of plan_id and '
      + 'plan_external_reference. The plan must belong to the subscription\'s administration (admin_id; the plan\'s when '
      + 'absent); the customer may belong to another administration the caller can see. The plan\'s publishing window is '
      + 'not enforced. token_series_id (with optional token_uid_type_id, token_uid) issues a new token from that series and '
      + 'links it; links links existing tokens. All of it happens in one transaction. ' + VALIDITY,
    handler: async ({ em, body }) => present(em, await createTokenSubscription(em, newSubscription(body))),
  }),
  defineRoute({
    method: 'get', path: '/msp-token-subscription/:id', tag: TAG, summary: 'Get a token subscription with its token links',
    response: tokenSubscriptionShape,
    handler: async ({ em, params }) => serializeTokenSubscription(await getTokenSubscription(em, params.id)),
  }),
  defineRoute({
    method: 'post', path: '/msp-token-subscription/:id', tag: TAG, summary: 'Merge-update a token subscription', body: updateBody,
    graphql: 'updateTokenSubscription',
    response: tokenSubscriptionShape,
    description: 'admin_id, customer and plan are set on create only (see plan-or-customer-correction). custom_fields is a JSON '
      + 'merge patch. Moving valid_from moves the links that defer to it (re-checked for overlaps). A defunct subscription '
      + `only records external_updated_at (400 subscription_defunct). ${VALIDITY}`,
    handler: ({ em, body, params }) => update(em, params.id, body, 'merge'),
  }),
  defineRoute({
    method: 'put', path: '/msp-token-subscription/:id', tag: TAG, summary: 'Replace a token subscription (omitted fields are reset)',
    deprecated: true, body: updateBody, description: `valid_from is required. ${VALIDITY}`, response: tokenSubscriptionShape,
    handler: ({ em, body, params }) => update(em, params.id, body, 'replace'),
  }),
  defineRoute({
    method: 'put', path: '/msp-token-subscription/:id/defunct', tag: TAG, summary: 'Mark a token subscription and all its token links defunct',
    graphql: 'defunctTokenSubscription',
    response: tokenSubscriptionShape,
    body: defunctBody, bodyOptional: true,
    handler: async ({ em, body, params }) => present(em, await markTokenSubscriptionDefunct(em, params.id, isoDate(body.external_updated_at))),
  }),
  ...singleFieldRoutes({
    path: '/msp-token-subscription/:id', tag: TAG, response: tokenSubscriptionShape,
    fields: { valid_from: { schema: timestamp() }, valid_until: { delete: true } },
    update: ({ em, params }, patch) => update(em, params.id, patch, 'merge'),
  }),
];
