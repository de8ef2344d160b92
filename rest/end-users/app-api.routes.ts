// The App API: every path carries the end user (`/{end_user_id}/...`), needs an `app` credential
// and reads through the end user's scope (src/end-users/end-user-scope.ts), loaded afresh for each
// request; the queries modules filter by it. Lists page by offset (page, page_size 50, max 200).
// Mounted after every Admin path (rest/routes.ts): a fixed first segment (/customer/...) wins.
import * as yup from 'yup';
import { endUserBoxPage } from '../../src/billing/billing-box.queries.ts';
import type { BoxData } from '../../src/billing/billing-box.queries.ts';
import { endUserDocument } from '../../src/billing/box-documents.queries.ts';
import { evseGroups, type EvseGroupData } from '../../src/cpo/evse-group.queries.ts';
import { cancelEndUserSubscription, switchEndUserPlan } from '../../src/end-users/app-subscription.service.ts';
import { endUserScope } from '../../src/end-users/end-user-scope.ts';
import { normalize } from '../../src/money/decimal.ts';
import { getEndUserSubscription, type EndUserSubscriptionData } from '../../src/end-users/end-user-subscription.queries.ts';
import { coordinate, iso, text } from '../../src/platform/input-schemas.ts';
import { endUserSessionPage, getEndUserSession, type EndUserSessionData } from '../../src/sessions/charge-session.queries.ts';
import { offsetPage, parseOffsetRange } from '../rails/pagination.ts';
import { defineRoute, type FileAnswer, type RouteDef } from '../rails/route.ts';
import { representation, t, type Infer } from '../rails/shape.ts';
import { reportedAddress, reportedAddressShape } from '../sessions/reported-shapes.ts';

const TAG = 'App API';
const SCOPE = 'Only what the end user\'s valid authorizations allow; anything else is 400 not_found.';

const appSubtotalShape = representation('AppChargeSessionSubtotal', {
  kind: t.string(),
  rate_label: t.string(),
  rate: t.decimal(),
  rate_unit: t.string(),
  volume: t.decimal(),
  amount_excl_vat: t.decimal(),
  value: t.decimal(),
  vat_kind: t.string(),
  vat_percent: t.decimal(),
  vat_amount_unrounded: t.decimal(),
  vat_amount: t.decimal(),
  amount_incl_vat: t.decimal(),
}, 'value is the deprecated alias of amount_excl_vat.');

export const appChargeSessionShape = representation('AppChargeSession', {
  id: t.string(),
  session_id: t.string(),
  subscription_id: t.string(),
  token_evco_id: t.string(),
  evse_id: t.nullable(t.string()),
  address: reportedAddressShape,
  time_zone: t.string(),
  start_date_time: t.timestamp(),
  end_date_time: t.timestamp(),
  total_energy_kwh: t.decimal(),
  currency_code: t.string(),
  total_amount_excl_vat: t.decimal(),
  total_vat_amount: t.decimal(),
  total_amount_incl_vat: t.decimal(),
  customer_total: t.decimal(),
  monetary_credit_used: t.decimal(),
  pricing_version: t.integer(),
  subtotals: t.array(appSubtotalShape),
}, 'customer_total is the deprecated alias of total_amount_incl_vat.');

export function serializeAppSession({ session: s, result: r }: EndUserSessionData): Infer<typeof appChargeSessionShape> {
  return {
    id: s.id,
    session_id: s.sessionId,
    subscription_id: s.subscriptionId!,
    token_evco_id: s.evcoId,
    evse_id: s.evseId ?? null,
    address: reportedAddress(s.payload as Record<string, unknown>),
    time_zone: s.timeZone,
    start_date_time: iso(s.startAt),
    end_date_time: iso(s.endAt),
    total_energy_kwh: normalize(s.energyKwh),
    currency_code: r?.currency ?? '',
    total_amount_excl_vat: r?.totalExclVat ?? '0.00',
    total_vat_amount: r?.totalVat ?? '0.00',
    total_amount_incl_vat: r?.totalInclVat ?? '0.00',
    customer_total: r?.totalInclVat ?? '0.00',
    monetary_credit_used: normalize(r?.creditUsed ?? '0'),
    pricing_version: s.pricingVersion,
    subtotals: (r?.subtotals ?? []).map((st) => ({
      kind: st.kind,
      rate_label: st.rate_label,
      rate: st.rate,
      rate_unit: st.rate_unit,
      volume: st.volume,
      amount_excl_vat: st.amount_excl_vat,
      value: st.amount_excl_vat,
      vat_kind: st.vat_kind,
      vat_percent: st.vat_percent,
      vat_amount_unrounded: st.vat_amount_unrounded,
      vat_amount: st.vat_amount,
      amount_incl_vat: st.amount_incl_vat,
    })),
  };
}

export const appSubscriptionShape = representation('AppTokenSubscription', {
  id: t.string(),
  customer_id: t.string(),
  plan_id: t.string(),
  plan_name: t.string(),
  external_reference: t.nullable(t.string()),
  valid_from: t.timestamp(),
  valid_until: t.nullable(t.timestamp()),
  defunct: t.boolean(),
  is_currently_valid: t.boolean(),
  monetary_credit: t.decimal(),
  created_at: t.timestamp(),
  updated_at: t.timestamp(),
}, 'monetary_credit: the credit balance, excl. VAT.');

export function serializeAppSubscription(s: EndUserSubscriptionData): Infer<typeof appSubscriptionShape> {
  return {
    id: s.id,
    customer_id: s.customer.id,
    plan_id: s.plan.id,
    plan_name: s.plan.name,
    external_reference: s.externalReference ?? null,
    valid_from: iso(s.validFrom),
    valid_until: iso(s.validUntil),
    defunct: s.defunct,
    is_currently_valid: s.isCurrentlyValid,
    monetary_credit: normalize(s.monetaryCreditBalance),
    created_at: iso(s.createdAt),
    updated_at: iso(s.updatedAt),
  };
}

const appDocumentShape = representation('AppBillingDocument', {
  filename: t.string(), content_type: t.string(), size: t.integer(), primary: t.boolean(),
});

export const appBillingBoxShape = representation('AppBillingBox', {
  id: t.string(),
  customer_id: t.string(),
  state: t.string(),
  period_from: t.timestamp(),
  period_until: t.timestamp(),
  currency_code: t.string(),
  invoice_code: t.nullable(t.string()),
  invoice_date: t.nullable(t.string()),
  total_amount_excl_vat: t.decimal(),
  total_vat_amount: t.decimal(),
  total_amount_incl_vat: t.decimal(),
  documents: t.array(appDocumentShape),
}, 'documents: the issued documents (drafts are not listed); fetch one at /{end_user_id}/billing-box/{id}/document/{filename}.');

export function serializeAppBox(b: BoxData): Infer<typeof appBillingBoxShape> {
  return {
    id: b.id,
    customer_id: b.partyId,
    state: b.state,
    period_from: iso(b.periodFrom),
    period_until: iso(b.periodUntil),
    currency_code: b.currency,
    invoice_code: b.invoiceCode,
    invoice_date: b.invoiceDate,
    total_amount_excl_vat: b.totals.totalExclVat,
    total_vat_amount: b.totals.totalVat,
    total_amount_incl_vat: b.totals.totalInclVat,
    documents: b.documents.filter((d) => !d.draft).map((d) => ({ filename: d.filename, content_type: d.contentType, size: d.size, primary: d.primary })),
  };
}

const connectorShape = representation('AppConnector', {
  id: t.string(), standard: t.nullable(t.string()), format: t.nullable(t.string()), power_type: t.nullable(t.string()), max_power_kw: t.nullable(t.string()),
});

export const evseGroupShape = representation('MspEvseGroup', {
  location_id: t.string(),
  name: t.nullable(t.string()),
  address: t.object({ street: t.nullable(t.string()), postal_code: t.nullable(t.string()), city: t.nullable(t.string()), country: t.nullable(t.string()) }),
  latitude: t.decimal(),
  longitude: t.decimal(),
  distance_m: t.integer(),
  evses: t.array(t.object({ evse_uid: t.string(), evse_id: t.nullable(t.string()), connectors: t.array(connectorShape) })),
  price_per_kwh_excl_vat: t.nullable(t.decimal()),
  currency_code: t.nullable(t.string()),
  demo: t.boolean(),
}, 'price_per_kwh_excl_vat: the energy rate of the end user\'s subscription valid now (rule-specific prices may differ); demo: a fixed demo group (the instance has no EVSE data).');

function serializeEvseGroup(g: EvseGroupData): Infer<typeof evseGroupShape> {
  return {
    location_id: g.locationId,
    name: g.name,
    address: { street: g.address.street, postal_code: g.address.postalCode, city: g.address.city, country: g.address.country },
    latitude: g.latitude,
    longitude: g.longitude,
    distance_m: g.distanceM,
    evses: g.evses.map((e) => ({
      evse_uid: e.evseUid,
      evse_id: e.evseId,
      connectors: e.connectors.map((c) => ({
        id: String(c.id), standard: c.standard ?? null, format: c.format ?? null, power_type: c.power_type ?? null, max_power_kw: c.max_power_kw ?? null,
      })),
    })),
    price_per_kwh_excl_vat: g.pricePerKwhExclVat,
    currency_code: g.currency,
    demo: g.demo,
  };
}

/** The shared coordinate format (input-schemas.ts; a phone's position may carry 9 decimals), required and within ±max degrees. */
const requiredCoordinate = (max: number) => coordinate(9).required('${path} is required')
  .test('range', `\${path} must lie in -${max}..${max}`, (v) => v === undefined || Math.abs(Number(v)) <= max);

const evseGroupQuery = yup.object({
  latitude: requiredCoordinate(90),
  longitude: requiredCoordinate(180),
  radius_m: yup.string().matches(/^\d{1,6}$/, '${path} must be a whole number of metres up to 100000')
    .test('max', '${path} must be at most 100000', (v) => v === undefined || Number(v) <= 100_000),
});

const switchPlanBody = yup.object({
  plan_id: text(64).nullable(),
  plan_external_reference: text().nullable(),
});

const fileAnswer = (doc: { contentType: string; bytes: Buffer; filename: string }): FileAnswer => ({ file: { contentType: doc.contentType, bytes: doc.bytes, filename: doc.filename } });

export const appApiRoutes: RouteDef[] = [
  defineRoute({
    method: 'get', path: '/:end_user_id/msp-charge-session', tag: TAG, api: 'app', paged: 'offset', response: appChargeSessionShape,
    summary: "The end user's priced MSP charge sessions, newest first", description: SCOPE,
    handler: async ({ em, actor, params, rawQuery }) => {
      const range = parseOffsetRange(rawQuery);
      const scope = await endUserScope(em, actor, params.end_user_id);
      return offsetPage(range, await endUserSessionPage(em, scope, range), serializeAppSession);
    },
  }),
  defineRoute({
    method: 'get', path: '/:end_user_id/msp-charge-session/:chargesession_id', tag: TAG, api: 'app', response: appChargeSessionShape,
    summary: 'One priced MSP charge session of the end user', description: SCOPE,
    handler: async ({ em, actor, params }) => serializeAppSession(
      await getEndUserSession(em, await endUserScope(em, actor, params.end_user_id), params.chargesession_id)),
  }),
  defineRoute({
    method: 'get', path: '/:end_user_id/msp-token-subscription/:subscription_id', tag: TAG, api: 'app', response: appSubscriptionShape,
    summary: 'A token subscription of the end user, with its monetary credit', description: SCOPE,
    handler: async ({ em, actor, params }) => serializeAppSubscription(
      await getEndUserSubscription(em, await endUserScope(em, actor, params.end_user_id), params.subscription_id)),
  }),
  defineRoute({
    method: 'post', path: '/:end_user_id/msp-token-subscription/:subscription_id/cancel', graphql: 'cancelViewerSubscription', tag: TAG, api: 'app', response: appSubscriptionShape,
    summary: 'Cancel a token subscription now',
    description: `Ends the subscription at this moment: sessions starting from now are not charged under it (one not yet started becomes defunct; `
      + `an ended one stays as it is). Needs a customer authorization as owner or manager, or a subscription authorization as manager. ${SCOPE}`,
    handler: async ({ em, actor, params }) => serializeAppSubscription(
      await cancelEndUserSubscription(em, await endUserScope(em, actor, params.end_user_id), params.subscription_id)),
  }),
  defineRoute({
    method: 'post', path: '/:end_user_id/msp-token-subscription/:subscription_id/switch-plan', graphql: 'switchViewerSubscriptionPlan', tag: TAG, api: 'app', body: switchPlanBody,
    response: appSubscriptionShape, summary: 'Switch the plan of a token subscription from now on',
    description: 'Exactly one of plan_id and plan_external_reference; only plans of the administration inside their publishing window '
      + '(others: 400 not_found; the subscription\'s own plan: 400 invalid_input). Only a running subscription switches (not started yet '
      + 'or ended: 400 subscription_not_current; defunct: 400 subscription_defunct). The subscription ends now and a successor with the new plan continues (answered), with the tokens, '
      + `the credit and the end user's authorizations; sessions from the switch on are priced under the new plan. Needs a managing authorization. ${SCOPE}`,
    handler: async ({ em, actor, params, body }) => {
      const scope = await endUserScope(em, actor, params.end_user_id);
      return serializeAppSubscription(await switchEndUserPlan(em, scope, params.subscription_id, { planId: body.plan_id, planExternalReference: body.plan_external_reference }));
    },
  }),
  defineRoute({
    method: 'get', path: '/:end_user_id/customer/:customer_id/billing-box', tag: TAG, api: 'app', paged: 'offset', response: appBillingBoxShape,
    summary: "The billing boxes of a customer the end user is authorized over, newest first",
    description: `Needs an authorization over the customer (a subscription authorization shows no billing). ${SCOPE}`,
    handler: async ({ em, actor, params, rawQuery }) => {
      const range = parseOffsetRange(rawQuery);
      const scope = await endUserScope(em, actor, params.end_user_id);
      return offsetPage(range, await endUserBoxPage(em, scope, params.customer_id, range), serializeAppBox);
    },
  }),
  defineRoute({
    method: 'get', path: '/:end_user_id/billing-box/:id/document/:filename', tag: TAG, api: 'app', response: t.file(),
    produces: ['application/pdf', 'application/xml'], summary: 'A document (PDF, UBL) of a billing box of an authorized customer',
    description: `Drafts are not served. ${SCOPE}`,
    handler: async ({ em, actor, params }) => fileAnswer(
      await endUserDocument(em, await endUserScope(em, actor, params.end_user_id), params.id, params.filename)),
  }),
  defineRoute({
    method: 'get', path: '/:end_user_id/msp-evse-group', tag: TAG, api: 'app', paged: 'offset', response: evseGroupShape, query: evseGroupQuery,
    summary: 'EVSEs near a point, grouped per location, with the end user\'s price per kWh',
    description: 'latitude and longitude (decimal degrees) are required; radius_m defaults to 1000 (at most 100000). Nearest first, at most '
      + '200 groups. With no EVSE data in the instance the answer is fixed demo groups flagged demo: true.',
    handler: async ({ em, actor, params, query, rawQuery }) => {
      const range = parseOffsetRange(rawQuery);
      const scope = await endUserScope(em, actor, params.end_user_id);
      const groups = await evseGroups(em, scope, {
        latitude: Number(query.latitude), longitude: Number(query.longitude), radiusM: query.radius_m === undefined ? 1000 : Number(query.radius_m),
      });
      const start = (range.page - 1) * range.pageSize;
      return offsetPage(range, { items: groups.slice(start, start + range.pageSize), hasNextPage: groups.length > start + range.pageSize }, serializeEvseGroup);
    },
  }),
];

