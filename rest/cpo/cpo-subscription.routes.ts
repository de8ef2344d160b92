import * as yup from 'yup';
import { createCpoPlan, setCpoPlanVersion, updateCpoPlan, type CpoPlanInput } from '../../src/cpo/cpo-subscription-plan.service.ts';
import {
  cpoLinkList, cpoPlanList, cpoPlanVersions, cpoSubscriptionDetailList, cpoSubscriptionDetails, getCpoLink, getCpoPlan, getCpoSubscription,
  type CpoLinkData, type CpoPlanData, type CpoPlanVersionData, type CpoSubscriptionData, type CpoSubscriptionDetail, type CpoSubscriptionLinkData,
} from '../../src/cpo/cpo-subscription.queries.ts';
import {
  createCpoLink, createCpoSubscription, markCpoLinkDefunct, markCpoSubscriptionDefunct, updateCpoLink, updateCpoSubscription,
  type CpoLinkFields, type CpoSubscriptionFields,
} from '../../src/cpo/cpo-subscription.service.ts';
import { normalize } from '../../src/money/decimal.ts';
import { externalRef, iso, isoDate, text, timestamp, uuid } from '../../src/platform/input-schemas.ts';
import type { Patch } from '../../src/platform/merge-patch.ts';
import type { Em } from '../../src/platform/orm.ts';
import { seekPage } from '../rails/pagination.ts';
import {
  adminMember, CONTRACT, contractBody, contractShape, contractValues, DEPRECATED_WINDOW, defunctBody, deprecatedWindowValues, inShapeOrder, LINK, linkBody, linkShape,
  linkValues, planShape, planValues,
} from '../rails/contracts.ts';
import { orDeprecated, patchFrom } from '../rails/patch.ts';
import { defineRoute, type RouteDef } from '../rails/route.ts';
import { representation, t, type Infer } from '../rails/shape.ts';
import { singleFieldRoutes } from '../rails/single-field-routes.ts';

const TAG = 'CPO subscriptions';

const costShape = t.object({ description: t.string(), amount_excl_vat: t.decimal(), period: t.string(), per: t.string('subscription or evse') });

export const cpoPlanShape = planShape('CpoSubscriptionPlan', {
  published: DEPRECATED_WINDOW,
  referenced: { versions: t.array(t.object({ valid_from: t.timestamp(), recurring_costs: t.array(costShape) })) },
});

/** A link as its subscription lists it: the members an embedded token link of an MSP subscription answers, as an EVSE link has them. */
export const cpoSubscriptionLinkShape = representation('CpoSubscriptionLink', {
  id: t.string(),
  evse_uid: t.string(),
  valid_from: t.nullable(t.timestamp()),
  valid_until: t.nullable(t.timestamp()),
  defunct: t.boolean(),
});

export const cpoSubscriptionShape = contractShape('CpoSubscription', {
  plan: { plan_id: t.string(), plan_external_reference: t.nullable(t.string()) }, late: { links: t.array(cpoSubscriptionLinkShape) },
});

export const cpoLinkShape = linkShape('CpoSubscriptionEvseLink', {
  head: { ...adminMember, subscription_id: t.string(), evse_uid: t.string() }, state: { is_currently_valid: t.boolean() },
});

function serializePlan(plan: CpoPlanData, versions: CpoPlanVersionData[]): Infer<typeof cpoPlanShape> {
  return inShapeOrder(cpoPlanShape, {
    ...planValues(plan),
    ...deprecatedWindowValues(plan),
    versions: versions.filter((v) => v.plan.id === plan.id).map((v) => ({
      valid_from: iso(v.validFrom), recurring_costs: v.recurringCosts.map((c) => ({ ...c, amount_excl_vat: normalize(c.amount_excl_vat), per: c.per ?? 'subscription' })),
    })),
  });
}

const withVersions = async (em: Em, plan: CpoPlanData) => serializePlan(plan, await cpoPlanVersions(em, [plan.id]));

function serializeSubscriptionLink(l: CpoSubscriptionLinkData): Infer<typeof cpoSubscriptionLinkShape> {
  return { id: l.id, evse_uid: l.evseUid, valid_from: iso(l.validFrom), valid_until: iso(l.validUntil), defunct: l.defunct };
}

function serializeSubscription(s: CpoSubscriptionDetail): Infer<typeof cpoSubscriptionShape> {
  return inShapeOrder(cpoSubscriptionShape, {
    ...contractValues(s), plan_id: s.plan.id, plan_external_reference: s.planExternalReference, links: s.links.map(serializeSubscriptionLink),
  });
}

/** The answer of a write: the subscription as it now is, with its EVSE links. */
async function present(em: Em, subscription: CpoSubscriptionData) {
  const [detail] = await cpoSubscriptionDetails(em, [subscription.id]);
  return serializeSubscription(detail);
}

function serializeLink(l: CpoLinkData): Infer<typeof cpoLinkShape> {
  return inShapeOrder(cpoLinkShape, { ...linkValues(l), subscription_id: l.subscription.id, evse_uid: l.evseUid, is_currently_valid: l.isCurrentlyValid });
}

const planBody = yup.object({
  admin_id: text(64).nullable(), name: text().nullable(), description: text(10000).nullable(), publish_from: timestamp().nullable(),
  publish_until: timestamp().nullable(), external_reference: externalRef().nullable(),
  valid_from: timestamp().nullable(), valid_until: timestamp().nullable(),
});
const planInput = (b: yup.InferType<typeof planBody>): CpoPlanInput => ({
  adminId: b.admin_id, name: b.name, description: b.description, externalReference: b.external_reference,
  // valid_from and valid_until are the deprecated names of the publishing window.
  publishFrom: isoDate(orDeprecated(b.publish_from, b.valid_from)), publishUntil: isoDate(orDeprecated(b.publish_until, b.valid_until)),
});
const versionBody = yup.object({ recurring_costs: yup.array(yup.object({
  description: text().defined('${path} is required'), amount_excl_vat: text(32).defined('${path} is required'),
  period: text(16).defined('${path} is required'), per: text(16).nullable(),
})).max(50).nullable() });

const subscriptionBody = contractBody;
const correction = yup.boolean().nullable().meta({
  description: 'true: the fees of the periods already billed are collected again from the first period the validity change affects '
    + '(changed in place in an open box, else reversal + new line in the next open box); false or absent: billed fees stay as billed.',
});
const subscriptionUpdateBody = subscriptionBody.shape({ recurring_cost_correction: correction });
const linkUpdateBody = linkBody.shape({ recurring_cost_correction: correction });
const SUBSCRIPTION = CONTRACT;

const LINKS = 'links: every EVSE link of the subscription, defunct ones too, by id (each with the id, evse_uid, valid_from, valid_until '
  + 'and defunct of GET /cpo-subscription-evse-link/{id}).';

const correctionOf = (body: Record<string, unknown>) => ({ recurringCostCorrection: body.recurring_cost_correction === true });
const updateSubscription = (em: Em, id: string, body: Record<string, unknown>, mode: 'merge' | 'replace') =>
  updateCpoSubscription(em, id, patchFrom(body, SUBSCRIPTION, mode) as Patch<CpoSubscriptionFields>, correctionOf(body)).then((s) => present(em, s));
const updateLink = (em: Em, id: string, body: Record<string, unknown>, mode: 'merge' | 'replace') =>
  updateCpoLink(em, id, patchFrom(body, LINK, mode) as Patch<CpoLinkFields>, correctionOf(body)).then(serializeLink);

export const cpoSubscriptionRoutes: RouteDef[] = [
  defineRoute({
    method: 'get', path: '/cpo-subscription-plan', tag: TAG, paged: true, response: cpoPlanShape, summary: 'List CPO subscription plans',
    query: yup.object({ admin_id: text(64) }),
    handler: async ({ ctx, em, rawQuery, query }) => {
      const page = await seekPage(ctx, { list: cpoPlanList(em, { adminId: query.admin_id }), rawQuery, path: ctx.path, serialize: (p: CpoPlanData) => p });
      const versions = await cpoPlanVersions(em, page.items.map((p) => p.id));
      return { ...page, items: page.items.map((p) => serializePlan(p, versions)) };
    },
  }),
  defineRoute({
    method: 'post', path: '/cpo-subscription-plan', tag: TAG, graphql: 'createCpoSubscriptionPlan', extension: true, body: planBody, response: cpoPlanShape,
    summary: 'Create a CPO subscription plan (its recurring costs: POST /cpo-subscription-plan/{id}/{valid_from})',
    handler: async ({ em, body }) => withVersions(em, await createCpoPlan(em, planInput(body))),
  }),
  defineRoute({
    method: 'get', path: '/cpo-subscription-plan/:id', tag: TAG, response: cpoPlanShape, summary: 'Get a CPO subscription plan (id or ext_ref.<reference>)',
    handler: async ({ em, params }) => withVersions(em, await getCpoPlan(em, params.id)),
  }),
  defineRoute({
    method: 'post', path: '/cpo-subscription-plan/:id', tag: TAG, graphql: 'updateCpoSubscriptionPlan', extension: true, body: planBody, response: cpoPlanShape,
    summary: 'Merge-update a CPO subscription plan (valid_from/valid_until: deprecated names of publish_from/publish_until)',
    handler: async ({ em, params, body }) => withVersions(em, await updateCpoPlan(em, params.id, { ...planInput(body), adminId: undefined })),
  }),
  defineRoute({
    method: 'post', path: '/cpo-subscription-plan/:id/:valid_from', tag: TAG, graphql: 'setCpoSubscriptionPlanVersion', body: versionBody, response: cpoPlanShape,
    summary: "Merge-update the plan's recurring costs valid from a date (YYYY-MM-DD, local midnight of the administration)",
    description: 'recurring_costs: [{description, amount_excl_vat, period (month, quarter, year), per (subscription, or evse: each validly '
      + 'linked EVSE)}]; null clears them. The version of the date is created when missing. Billed per invoicing period, prorated by days.',
    handler: async ({ em, params, body }) =>
      withVersions(em, await setCpoPlanVersion(em, params.id, params.valid_from, { recurringCosts: body.recurring_costs })),
  }),
  defineRoute({
    method: 'get', path: '/cpo-subscription', tag: TAG, extension: true, paged: true, response: cpoSubscriptionShape, summary: 'List CPO subscriptions with their EVSE links',
    description: LINKS,
    query: yup.object({ customer_id: uuid(), plan_id: uuid() }),
    handler: ({ ctx, em, rawQuery, query }) => seekPage(ctx, {
      list: cpoSubscriptionDetailList(em, { customerId: query.customer_id, planId: query.plan_id }), rawQuery, path: ctx.path, serialize: serializeSubscription,
    }),
  }),
  defineRoute({
    method: 'post', path: '/cpo-subscription', tag: TAG, graphql: 'createCpoSubscription', extension: true, response: cpoSubscriptionShape, summary: 'Create a CPO subscription',
    body: subscriptionBody.shape({ customer_id: text(64).defined('${path} is required'), plan_id: text().defined('${path} is required') }),
    description: 'plan_id is the plan\'s id or ext_ref.<reference>. The publishing window of the plan is not enforced.',
    handler: async ({ em, body }) => present(em, await createCpoSubscription(em, {
      ...(patchFrom(body, SUBSCRIPTION) as Patch<CpoSubscriptionFields>), customerId: body.customer_id, planRef: body.plan_id,
    })),
  }),
  defineRoute({
    method: 'get', path: '/cpo-subscription/:id', tag: TAG, extension: true, response: cpoSubscriptionShape, summary: 'Get a CPO subscription with its EVSE links',
    description: LINKS,
    handler: async ({ em, params }) => serializeSubscription(await getCpoSubscription(em, params.id)),
  }),
  defineRoute({
    method: 'post', path: '/cpo-subscription/:id', tag: TAG, graphql: 'updateCpoSubscription', body: subscriptionUpdateBody, response: cpoSubscriptionShape,
    summary: 'Merge-update a CPO subscription; optional recurring cost correction',
    handler: ({ em, params, body }) => updateSubscription(em, params.id, body, 'merge'),
  }),
  defineRoute({
    method: 'put', path: '/cpo-subscription/:id', tag: TAG, body: subscriptionUpdateBody, response: cpoSubscriptionShape, deprecated: true,
    summary: 'Replace a CPO subscription (omitted fields are reset)',
    handler: ({ em, params, body }) => updateSubscription(em, params.id, body, 'replace'),
  }),
  defineRoute({
    method: 'put', path: '/cpo-subscription/:id/defunct', tag: TAG, graphql: 'defunctCpoSubscription', body: defunctBody, bodyOptional: true, response: cpoSubscriptionShape,
    summary: 'Mark a CPO subscription defunct (its EVSE links too)',
    handler: async ({ em, params, body }) => present(em, await markCpoSubscriptionDefunct(em, params.id, isoDate(body.external_updated_at))),
  }),
  ...singleFieldRoutes({
    path: '/cpo-subscription/:id', tag: TAG, response: cpoSubscriptionShape,
    fields: { valid_from: {}, valid_until: { delete: true } },
    update: ({ em, params }, patch) => updateSubscription(em, params.id, patch, 'merge'),
  }),
  defineRoute({
    method: 'get', path: '/cpo-subscription-evse-link', tag: TAG, extension: true, paged: true, response: cpoLinkShape, summary: 'List CPO subscription EVSE links',
    query: yup.object({ subscription_id: uuid() }),
    handler: ({ ctx, em, rawQuery, query }) => seekPage(ctx, {
      list: cpoLinkList(em, { subscriptionId: query.subscription_id }), rawQuery, path: ctx.path, serialize: serializeLink,
    }),
  }),
  defineRoute({
    method: 'post', path: '/cpo-subscription-evse-link', tag: TAG, graphql: 'createCpoSubscriptionEvseLink', extension: true, response: cpoLinkShape, summary: 'Link an EVSE to a CPO subscription',
    description: 'valid_from null defers to the subscription; validity is [valid_from, valid_until).',
    body: linkBody.shape({ subscription_id: text(64).defined('${path} is required'), evse_uid: text(64).defined('${path} is required') }),
    handler: async ({ em, body }) => serializeLink(await createCpoLink(em, {
      ...(patchFrom(body, LINK) as Patch<CpoLinkFields>), subscriptionId: body.subscription_id, evseUid: body.evse_uid,
    })),
  }),
  defineRoute({
    method: 'get', path: '/cpo-subscription-evse-link/:id', tag: TAG, extension: true, response: cpoLinkShape, summary: 'Get a CPO subscription EVSE link',
    handler: async ({ em, params }) => serializeLink(await getCpoLink(em, params.id)),
  }),
  defineRoute({
    method: 'post', path: '/cpo-subscription-evse-link/:id', tag: TAG, graphql: 'updateCpoSubscriptionEvseLink', body: linkUpdateBody, response: cpoLinkShape, summary: 'Merge-update a CPO subscription EVSE link',
    handler: ({ em, params, body }) => updateLink(em, params.id, body, 'merge'),
  }),
  defineRoute({
    method: 'put', path: '/cpo-subscription-evse-link/:id', tag: TAG, body: linkUpdateBody, response: cpoLinkShape, deprecated: true,
    summary: 'Replace a CPO subscription EVSE link (omitted fields are reset)',
    handler: ({ em, params, body }) => updateLink(em, params.id, body, 'replace'),
  }),
  defineRoute({
    method: 'put', path: '/cpo-subscription-evse-link/:id/defunct', tag: TAG, graphql: 'markCpoSubscriptionEvseLinkDefunct', body: defunctBody, bodyOptional: true, response: cpoLinkShape,
    summary: 'Mark a CPO subscription EVSE link defunct',
    handler: async ({ em, params, body }) => serializeLink(await markCpoLinkDefunct(em, params.id, isoDate(body.external_updated_at))),
  }),
  ...singleFieldRoutes({
    path: '/cpo-subscription-evse-link/:id', tag: TAG, response: cpoLinkShape,
    fields: { valid_from: { delete: true }, valid_until: { delete: true } },
    update: ({ em, params }, patch) => updateLink(em, params.id, patch, 'merge'),
  }),
];
