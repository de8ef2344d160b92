// GraphQL twins of the MSP writes (tokens, brands, series, subscriptions, corrections, links, the
// token-issuing operations, plans): each calls the service its REST twin calls, so one call through
// each transport gives the same record; bad input is refused with its place below the argument and
// stores nothing.
import test from 'ava';
import { scopedEm } from '../../src/access/admin-scope.ts';
import { evcoCheckDigit } from '../../src/msp/evco-id.ts';
import { TokenSeries } from '../../src/msp/token-series.entity.ts';
import { TokenSubscription } from '../../src/msp/token-subscription.entity.ts';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { createAdministration, createCustomer, insertSubscriptionPlan, insertToken, insertTokenSeries, insertTokenSubscription } from '../helpers/factories.ts';
import { data, failure as failureOf, restBody } from './graphql.ts';

let app: TestApp;
let adminId: string;
test.before(async () => {
  app = await startTestApp();
  adminId = (await createAdministration(app)).id;
});
test.after.always(async () => { await app?.close(); });

const rest = (path: string) => restBody(app, path);
const failure = (query: string, variables: Record<string, unknown>) => failureOf(app, query, variables);
async function restWrite(method: string, path: string, body?: unknown) {
  const r = await app.request(method, `/main/v1${path}`, body === undefined ? {} : { body });
  if (r.status !== 200) throw new Error(`${method} ${path}: ${r.status} ${JSON.stringify(r.body)}`);
  return r.body;
}

/** A REST representation without what differs between two records written alike (ids, times, EVCO ids). */
function alike(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(alike);
  if (value === null || typeof value !== 'object') return value;
  const skipped = /^(id|.*_id|evco_id_formatted|created_at|updated_at|external_reference|name|activated_at|uid|normalized|formatted|instance|check_digit)$/;
  const kept = ['admin_id', 'current_admin_id', 'initial_admin_id', 'token_uid_type_id', 'country_code', 'provider_id'];
  return Object.fromEntries(Object.entries(value).filter(([key]) => kept.includes(key) || !skipped.test(key)).map(([key, member]) => [key, alike(member)]));
}

let evcoCounter = 0;
const freshEvco = () => {
  const base = `NLGMW${String(process.pid % 1000).padStart(3, '0')}${String(++evcoCounter).padStart(6, '0')}`;
  return `${base}${evcoCheckDigit(base)}`;
};

// --- tokens, brands, series ---

const UPDATE_TOKEN = `mutation ($e: String!, $i: TokenInput!) { updateToken(evcoId: $e, input: $i) {
  evcoId brandCode uid uidType vehicleVin externalUpdatedAt } }`;

test('updateToken merge-updates like POST /msp-token/{evco_id}; bad input names its member below input and changes nothing', async (t) => {
  await restWrite('POST', '/msp-token-brand/GMWBRAND', { name: 'Brand' });
  const [viaRest, viaGraphql] = [await insertToken(app, adminId), await insertToken(app, adminId)];
  const restAnswer = await restWrite('POST', `/msp-token/${viaRest.evcoId}`, {
    brand_code: 'gmwbrand', uid: '04a1b2c3', token_uid_type_id: 'rfid_4byte', vehicle_vin: 'wvwzzz1jzxw000001', external_updated_at: '2026-03-01T00:00:00Z',
  });
  const { updateToken } = await data(app, UPDATE_TOKEN, { e: viaGraphql.evcoId.toLowerCase(), i: {
    brandCode: 'gmwbrand', uid: '04a1b2c4', uidType: 'RFID_4BYTE', vehicleVin: 'wvwzzz1jzxw000001', externalUpdatedAt: '2026-03-01T01:00:00+01:00',
  } });
  t.deepEqual(updateToken, {
    evcoId: viaGraphql.evcoId, brandCode: 'GMWBRAND', uid: '04A1B2C4', uidType: 'RFID_4BYTE', vehicleVin: 'WVWZZZ1JZXW000001', externalUpdatedAt: '2026-03-01T00:00:00.000Z',
  });
  t.deepEqual(alike(await rest(`/msp-token/${viaGraphql.evcoId}`)), alike(restAnswer));

  const before = await rest(`/msp-token/${viaGraphql.evcoId}`);
  t.like(await failure(UPDATE_TOKEN, { e: viaGraphql.evcoId, i: { vehicleVin: 'W'.repeat(18) } }),
    { status: 200, code: 'validation_failed', param: '$.input.vehicleVin', data: { updateToken: null } });
  t.like(await failure(UPDATE_TOKEN, { e: viaGraphql.evcoId, i: { vehicleVin: 'WVWZZZ1JZXW00000I' } }), { code: 'invalid_input', param: '$.input.vehicleVin' });
  t.like(await failure(UPDATE_TOKEN, { e: viaGraphql.evcoId, i: { brandCode: 'NOSUCHBRAND', uid: null } }), { code: 'not_found', param: '$.input.brandCode' });
  t.like(await failure(UPDATE_TOKEN, { e: freshEvco(), i: { uid: null } }), { code: 'not_found', param: undefined });
  t.deepEqual(await rest(`/msp-token/${viaGraphql.evcoId}`), before);
});

const VALIDATE = `query ($e: String!) { validateEvcoId(evcoId: $e) {
  normalized formatted countryCode providerId instance checkDigit checkDigitPresent } }`;

test('validateEvcoId answers what POST /msp-token-evco-id/validate answers; an invalid id is invalid_input at evcoId', async (t) => {
  for (const evcoId of ['nl-abc-000000001', `NL*ABC*000000001*${evcoCheckDigit('NLABC000000001')}`]) {
    const viaRest = await restWrite('POST', '/msp-token-evco-id/validate', { evco_id: evcoId });
    const { validateEvcoId } = await data(app, VALIDATE, { e: evcoId });
    t.deepEqual(validateEvcoId, {
      normalized: viaRest.normalized, formatted: viaRest.formatted, countryCode: viaRest.country_code, providerId: viaRest.provider_id,
      instance: viaRest.instance, checkDigit: viaRest.check_digit, checkDigitPresent: viaRest.check_digit_present,
    });
  }
  t.like(await failure(VALIDATE, { e: 'XX-ABC-000000001' }), { code: 'invalid_input', param: '$.evcoId', data: null });
  t.like(await failure(VALIDATE, { e: 'NL-ABC-0001' }), { code: 'invalid_input', param: '$.evcoId' });
});

const SAVE_BRAND = 'mutation ($c: String!, $n: String!) { saveTokenBrand(code: $c, name: $n) { code name } }';

test('saveTokenBrand creates and renames a brand like POST /msp-token-brand/{code}; limited credentials may not; a long name changes nothing', async (t) => {
  t.deepEqual((await data(app, SAVE_BRAND, { c: 'GmwBrand2', n: 'First' })).saveTokenBrand, { code: 'GmwBrand2', name: 'First' });
  t.deepEqual((await data(app, SAVE_BRAND, { c: 'GmwBrand2', n: 'Renamed' })).saveTokenBrand, { code: 'GmwBrand2', name: 'Renamed' });
  const brands = (await rest('/msp-token-brand')).items;
  t.deepEqual(brands.find((b: any) => b.code === 'GmwBrand2'), { code: 'GmwBrand2', name: 'Renamed' });
  t.deepEqual((await data(app, '{ tokenBrands { code name } }')).tokenBrands, brands);

  t.like(await failure(SAVE_BRAND, { c: 'GmwBrand2', n: 'x'.repeat(256) }), { code: 'validation_failed', param: '$.name', data: { saveTokenBrand: null } });
  t.like(await failure(SAVE_BRAND, { c: '.hidden', n: 'Dot' }), { code: 'invalid_input' });
  const limited = await app.credential({ role: 'admin', adminIds: [adminId] });
  t.like(await failureOf(app, SAVE_BRAND, { c: 'GmwBrand2', n: 'Taken' }, limited), { code: 'forbidden' });
  t.deepEqual((await rest('/msp-token-brand')).items.find((b: any) => b.code === 'GmwBrand2'), { code: 'GmwBrand2', name: 'Renamed' });
});

const CREATE_SERIES = `mutation ($i: TokenSeriesInput!) { createTokenSeries(input: $i) {
  databaseId administration { id } name evcoPrefix instanceWidth nextNumber formFactor uidType brandCode externalReference } }`;

test('createTokenSeries creates what POST /msp-token-series creates; a bad prefix names evcoPrefix and stores nothing', async (t) => {
  const viaRest = await restWrite('POST', '/msp-token-series', {
    admin_id: adminId, name: 'Rest series', evco_prefix: 'nl-gmr-c', form_factor: 'keychain', token_uid_type_id: 'rfid_7byte',
  });
  const { createTokenSeries } = await data(app, CREATE_SERIES, { i: {
    adminId, name: 'Graph series', evcoPrefix: 'nl-gmg-c', formFactor: 'KEYCHAIN', uidType: 'RFID_7BYTE', externalReference: `GMW-SERIES-${process.pid}`,
  } });
  t.like(createTokenSeries, { name: 'Graph series', evcoPrefix: 'NLGMGC', instanceWidth: 8, nextNumber: viaRest.next_number, formFactor: 'KEYCHAIN' });
  t.deepEqual(alike({ ...await rest(`/msp-token-series/${createTokenSeries.databaseId}`), evco_prefix: 'NLGMRC' }), alike(viaRest));

  // An administration of this test's own: the others run alongside and issue series.
  const own = (await createAdministration(app)).id;
  const count = () => scopedEm(app.orm).count(TokenSeries, { admin: own });
  const before = await count();
  t.like(await failure(CREATE_SERIES, { i: { adminId: own, name: 'Bad', evcoPrefix: 'XX-GMB' } }), { code: 'invalid_input', param: '$.input.evcoPrefix' });
  t.like(await failure(CREATE_SERIES, { i: { adminId: own, name: 'Bad', evcoPrefix: 'NLGMBC', instanceWidth: 10 } }), { code: 'validation_failed', param: '$.input.instanceWidth' });
  t.like(await failure(CREATE_SERIES, { i: { adminId: own, evcoPrefix: 'NLGMBC' } }), { code: 'validation_failed', param: '$.input.name' });
  t.like(await failure(CREATE_SERIES, { i: { adminId: 'no-such-admin', name: 'Bad', evcoPrefix: 'NLGMBC' } }), { code: 'not_found', param: '$.input.adminId' });
  t.is(await count(), before);
});

// --- token subscriptions ---

const SUBSCRIPTION = `databaseId adminId customerId plan { databaseId } buyerReference validFrom validUntil defunct isValid customFields
  externalReference externalUpdatedAt monetaryCreditBalance tokenLinks { edges { node { evcoId validFrom validUntil defunct token { formFactor uidType uid } } } }`;
const CREATE_SUBSCRIPTION = `mutation ($i: CreateTokenSubscriptionInput!) { createTokenSubscription(input: $i) { ${SUBSCRIPTION} } }`;
const UPDATE_SUBSCRIPTION = `mutation ($id: ID!, $i: TokenSubscriptionInput!) { updateTokenSubscription(id: $id, input: $i) { ${SUBSCRIPTION} } }`;

test('createTokenSubscription and updateTokenSubscription write what the REST twins write; bad input stores nothing', async (t) => {
  const customer = await createCustomer(app, adminId);
  const plan = await insertSubscriptionPlan(app, adminId);
  const series = await insertTokenSeries(app, adminId);
  const [restToken, graphToken] = [await insertToken(app, adminId), await insertToken(app, adminId)];
  const common = { valid_from: '2026-01-01T00:00:00Z', valid_until: '2027-01-01T00:00:00Z', buyer_reference: 'PO-1', custom_fields: { cost_center: 7 } };
  const viaRest = await restWrite('POST', '/msp-token-subscription', {
    ...common, customer_id: customer.id, plan_id: plan.id, token_series_id: series.id, token_uid_type_id: 'app_user', token_uid: 'user-1',
    links: [{ evco_id: restToken.evcoId, valid_from: '2026-02-01T00:00:00Z' }],
  });
  const { createTokenSubscription: created } = await data(app, CREATE_SUBSCRIPTION, { i: {
    validFrom: common.valid_from, validUntil: common.valid_until, buyerReference: 'PO-1', customFields: { cost_center: 7 },
    customerId: customer.id, planId: plan.id, tokenSeriesId: series.id, tokenUidType: 'APP_USER', tokenUid: 'user-2',
    links: [{ evcoId: graphToken.evcoId, validFrom: '2026-02-01T00:00:00Z' }],
  } });
  t.like(created, { adminId, customerId: customer.id, plan: { databaseId: plan.id }, buyerReference: 'PO-1', isValid: true, customFields: { cost_center: 7 } });
  t.deepEqual(created.tokenLinks.edges.map((e: any) => e.node.token), [{ formFactor: 'CARD', uidType: 'APP_USER', uid: 'user-2' }, { formFactor: 'CARD', uidType: null, uid: null }]);
  t.deepEqual(alike(await rest(`/msp-token-subscription/${created.databaseId}`)), alike(viaRest));

  const patch = { buyer_reference: null, valid_until: '2026-12-01T00:00:00Z', custom_fields: { cost_center: null, team: 'a' } };
  const restUpdated = await restWrite('POST', `/msp-token-subscription/${viaRest.id}`, patch);
  const { updateTokenSubscription: updated } = await data(app, UPDATE_SUBSCRIPTION, {
    id: created.databaseId, i: { buyerReference: null, validUntil: patch.valid_until, customFields: patch.custom_fields },
  });
  t.like(updated, { buyerReference: null, validUntil: '2026-12-01T00:00:00.000Z', customFields: { team: 'a' } });
  t.deepEqual(alike(await rest(`/msp-token-subscription/${created.databaseId}`)), alike(restUpdated));

  const count = () => scopedEm(app.orm).count(TokenSubscription, { customer: customer.id });
  const before = await count();
  const stored = await rest(`/msp-token-subscription/${created.databaseId}`);
  const create = (i: Record<string, unknown>) => failure(CREATE_SUBSCRIPTION, { i: { validFrom: '2026-01-01T00:00:00Z', customerId: customer.id, planId: plan.id, ...i } });
  t.like(await create({ planId: '00000000-0000-7000-8000-000000000000' }), { code: 'not_found', param: '$.input.planId', data: { createTokenSubscription: null } });
  t.like(await create({ links: [{ evcoId: freshEvco() }] }), { code: 'not_found', param: '$.input.links[0].evcoId' });
  t.like(await create({ customFields: { nested: { no: 1 } } }), { code: 'validation_failed', param: '$.input.customFields.nested' });
  t.like(await create({ buyerReference: 'x'.repeat(256) }), { code: 'validation_failed', param: '$.input.buyerReference' });
  t.is(await count(), before);
  t.like(await failure(UPDATE_SUBSCRIPTION, { id: created.databaseId, i: { validUntil: '2025-01-01T00:00:00Z' } }), { code: 'invalid_input', param: '$.input.validUntil' });
  t.like(await failure(UPDATE_SUBSCRIPTION, { id: created.databaseId, i: { validFrom: null } }), { code: 'invalid_input', param: '$.input.validFrom' });
  t.deepEqual(await rest(`/msp-token-subscription/${created.databaseId}`), stored);
});

const DEFUNCT_SUBSCRIPTION = `mutation ($id: ID!, $at: DateTime) { defunctTokenSubscription(id: $id, externalUpdatedAt: $at) {
  defunct externalUpdatedAt } }`;

test('defunctTokenSubscription records externalUpdatedAt like PUT /msp-token-subscription/{id}/defunct', async (t) => {
  const subscription = await insertTokenSubscription(app, adminId);
  const { defunctTokenSubscription } = await data(app, DEFUNCT_SUBSCRIPTION, { id: subscription.id, at: '2026-05-01T00:00:00Z' });
  t.deepEqual(defunctTokenSubscription, { defunct: true, externalUpdatedAt: '2026-05-01T00:00:00.000Z' });
  t.like(await rest(`/msp-token-subscription/${subscription.id}`), { defunct: true, external_updated_at: '2026-05-01T00:00:00.000Z' });
});

const CORRECT = `mutation ($id: ID!, $i: PlanOrCustomerCorrectionInput!) { correctPlanOrCustomer(id: $id, input: $i) {
  oldSubscription { databaseId validUntil } newSubscription { databaseId validFrom validUntil plan { databaseId } customerId externalReference }
  correction { databaseId validFrom recurringCostCorrection } } }`;

test('correctPlanOrCustomer splits the subscription like POST .../plan-or-customer-correction; a plan of another administration changes nothing', async (t) => {
  const newPlan = await insertSubscriptionPlan(app, adminId);
  const [viaRest, viaGraphql] = [await insertTokenSubscription(app, adminId), await insertTokenSubscription(app, adminId)];
  const restAnswer = await restWrite('POST', `/msp-token-subscription/${viaRest.id}/plan-or-customer-correction`, {
    valid_from: '2026-04-01T00:00:00Z', new_plan_id: newPlan.id, recurring_cost_correction: true,
  });
  const { correctPlanOrCustomer: result } = await data(app, CORRECT, { id: viaGraphql.id, i: {
    validFrom: '2026-04-01T00:00:00Z', newPlanId: newPlan.id, recurringCostCorrection: true, newExternalReference: `GMW-CORR-${process.pid}`,
  } });
  t.like(result, {
    oldSubscription: { databaseId: viaGraphql.id, validUntil: '2026-04-01T00:00:00.000Z' },
    newSubscription: { validFrom: '2026-04-01T00:00:00.000Z', validUntil: null, plan: { databaseId: newPlan.id }, customerId: viaGraphql.customerId },
    correction: { validFrom: '2026-04-01T00:00:00.000Z', recurringCostCorrection: true },
  });
  t.deepEqual(alike(await rest(`/msp-token-subscription/${result.oldSubscription.databaseId}`)), alike(restAnswer.old_subscription));
  t.deepEqual(alike(await rest(`/msp-token-subscription/${result.newSubscription.databaseId}`)), alike(restAnswer.new_subscription));

  const otherAdmin = (await createAdministration(app)).id;
  const foreignPlan = await insertSubscriptionPlan(app, otherAdmin);
  const untouched = await insertTokenSubscription(app, adminId);
  const before = await rest(`/msp-token-subscription/${untouched.id}`);
  t.like(await failure(CORRECT, { id: untouched.id, i: { validFrom: '2026-04-01T00:00:00Z', newPlanId: foreignPlan.id } }),
    { code: 'invalid_input', param: '$.input.newPlanId', data: { correctPlanOrCustomer: null } });
  t.like(await failure(CORRECT, { id: untouched.id, i: { validFrom: '2025-04-01T00:00:00Z', newPlanId: newPlan.id } }), { code: 'invalid_input', param: '$.input.validFrom' });
  t.deepEqual(await rest(`/msp-token-subscription/${untouched.id}`), before);
});

test('updateTokenSubscription keeps a correction like POST /msp-token-subscription/{id}: the old one not reopened, the successor not moved back', async (t) => {
  const newPlan = await insertSubscriptionPlan(app, adminId);
  const sub = await insertTokenSubscription(app, adminId);
  const { new_subscription: successor } = await restWrite('POST', `/msp-token-subscription/${sub.id}/plan-or-customer-correction`, {
    valid_from: '2026-04-01T00:00:00Z', new_plan_id: newPlan.id,
  });
  const [oldBefore, successorBefore] = [await rest(`/msp-token-subscription/${sub.id}`), await rest(`/msp-token-subscription/${successor.id}`)];
  t.like(await failure(UPDATE_SUBSCRIPTION, { id: sub.id, i: { validUntil: null } }),
    { code: 'invalid_input', param: '$.input.validUntil', data: { updateTokenSubscription: null } });
  t.like(await failure(UPDATE_SUBSCRIPTION, { id: successor.id, i: { validFrom: '2026-03-01T00:00:00Z' } }), { code: 'invalid_input', param: '$.input.validFrom' });
  t.deepEqual(await rest(`/msp-token-subscription/${sub.id}`), oldBefore);
  t.deepEqual(await rest(`/msp-token-subscription/${successor.id}`), successorBefore);
});

// --- token links ---

const LINK = 'databaseId evcoId validFrom effectiveValidFrom validUntil defunct isCurrentlyValid externalUpdatedAt subscription { databaseId }';

test('createTokenLink, updateTokenLink and defunctTokenLink write what the REST twins write; an overlap is refused at validFrom', async (t) => {
  const subscription = await insertTokenSubscription(app, adminId);
  const [restToken, graphToken] = [await insertToken(app, adminId), await insertToken(app, adminId)];
  const restLink = await restWrite('POST', '/msp-token-link', { subscription_id: subscription.id, evco_id: restToken.evcoId, valid_until: '2026-09-01T00:00:00Z' });
  const { createTokenLink: link } = await data(app, `mutation ($i: CreateTokenLinkInput!) { createTokenLink(input: $i) { ${LINK} } }`, {
    i: { subscriptionId: subscription.id, evcoId: graphToken.evcoId.toLowerCase(), validUntil: '2026-09-01T00:00:00Z' },
  });
  t.like(link, { evcoId: graphToken.evcoId, validFrom: null, effectiveValidFrom: '2026-01-01T00:00:00.000Z', subscription: { databaseId: subscription.id } });
  t.deepEqual(alike(await rest(`/msp-token-link/${link.databaseId}`)), alike(restLink));

  const UPDATE = `mutation ($id: ID!, $i: TokenLinkInput!) { updateTokenLink(id: $id, input: $i) { ${LINK} } }`;
  const restUpdated = await restWrite('POST', `/msp-token-link/${restLink.id}`, { valid_from: '2026-02-01T00:00:00Z', external_updated_at: '2026-02-02T00:00:00Z' });
  const { updateTokenLink: updated } = await data(app, UPDATE, { id: link.databaseId, i: { validFrom: '2026-02-01T00:00:00Z', externalUpdatedAt: '2026-02-02T00:00:00Z' } });
  t.like(updated, { validFrom: '2026-02-01T00:00:00.000Z', validUntil: '2026-09-01T00:00:00.000Z' });
  t.deepEqual(alike(await rest(`/msp-token-link/${link.databaseId}`)), alike(restUpdated));

  // A second link of the same token may not overlap the first.
  const CREATE = `mutation ($i: CreateTokenLinkInput!) { createTokenLink(input: $i) { ${LINK} } }`;
  const other = await insertTokenSubscription(app, adminId);
  t.like(await failure(CREATE, { i: { subscriptionId: other.id, evcoId: graphToken.evcoId, validFrom: '2026-08-01T00:00:00Z' } }),
    { code: 'overlapping_token_link', param: '$.input.validFrom', data: { createTokenLink: null } });
  t.like(await failure(UPDATE, { id: link.databaseId, i: { validUntil: '2026-01-15T00:00:00Z' } }), { code: 'invalid_input', param: '$.input.validUntil' });
  t.like(await rest(`/msp-token-link/${link.databaseId}`), { valid_from: '2026-02-01T00:00:00.000Z', valid_until: '2026-09-01T00:00:00.000Z' });

  const DEFUNCT = `mutation ($id: ID!) { defunctTokenLink(id: $id, externalUpdatedAt: "2026-03-01T00:00:00Z") { ${LINK} } }`;
  const restDefunct = await restWrite('PUT', `/msp-token-link/${restLink.id}/defunct`, { external_updated_at: '2026-03-01T00:00:00Z' });
  t.like((await data(app, DEFUNCT, { id: link.databaseId })).defunctTokenLink, { defunct: true, isCurrentlyValid: false });
  t.deepEqual(alike(await rest(`/msp-token-link/${link.databaseId}`)), alike(restDefunct));
  t.like(await failure(UPDATE, { id: link.databaseId, i: { validUntil: '2026-10-01T00:00:00Z' } }), { code: 'token_link_defunct', param: '$.input.validUntil' });
});

// --- issuing tokens ---

const ISSUED = `token { evcoId formFactor uidType uid fulfilment vehicleVin activatedAt series { databaseId } }
  tokenLink { databaseId evcoId validFrom subscription { databaseId } }`;

test('addVirtualToken, requestTokenFulfilment, addPlugAndChargeVehicle and activateToken issue what the REST twins issue', async (t) => {
  const subscription = await insertTokenSubscription(app, adminId);
  const series = await insertTokenSeries(app, adminId, { uidType: 'rfid_7byte' });

  const restVirtual = await restWrite('POST', '/msp-token-subscription/add-virtual-token', { subscription_id: subscription.id, token_series_id: series.id, uid: 'app-1' });
  const { addVirtualToken: virtual } = await data(app, `mutation ($i: AddVirtualTokenInput!) { addVirtualToken(input: $i) { ${ISSUED} } }`, {
    i: { subscriptionId: subscription.id, tokenSeriesId: series.id, uid: 'app-2' },
  });
  t.like(virtual, { token: { formFactor: 'VIRTUAL', uidType: 'APP_USER', uid: 'app-2', series: { databaseId: series.id } }, tokenLink: { subscription: { databaseId: subscription.id } } });
  t.is(virtual.tokenLink.evcoId, virtual.token.evcoId);
  t.deepEqual(alike(await rest(`/msp-token/${virtual.token.evcoId}`)), alike(restVirtual.token));
  t.deepEqual(alike(await rest(`/msp-token-link/${virtual.tokenLink.databaseId}`)), alike(restVirtual.token_link));

  const FULFIL = `mutation ($s: ID!, $i: TokenFulfilmentInput!) { requestTokenFulfilment(subscriptionId: $s, input: $i) { ${ISSUED} } }`;
  const restCard = await restWrite('POST', `/msp-token-subscription/${subscription.id}/token-fulfilment`, { form_factor: 'card', token_series_id: series.id });
  const { requestTokenFulfilment: card } = await data(app, FULFIL, { s: subscription.id, i: { formFactor: 'CARD', tokenSeriesId: series.id } });
  t.like(card, { token: { formFactor: 'CARD', uidType: 'RFID_7BYTE', fulfilment: 'REQUESTED' } });
  t.deepEqual(alike(await rest(`/msp-token/${card.token.evcoId}`)), alike(restCard.token));

  const ACTIVATE = 'mutation ($e: String!, $u: String) { activateToken(evcoId: $e, uid: $u) { evcoId fulfilment uid activatedAt } }';
  const restActivated = await restWrite('POST', '/msp-token-fulfilment/activate-token', { evco_id: restCard.token.evco_id, uid: '04a1b2c3d4e5f6' });
  const { activateToken } = await data(app, ACTIVATE, { e: card.token.evcoId, u: '04a1b2c3d4e5f7' });
  t.like(activateToken, { fulfilment: 'ACTIVATED', uid: '04A1B2C3D4E5F7' });
  t.truthy(activateToken.activatedAt);
  t.deepEqual(alike(await rest(`/msp-token/${card.token.evcoId}`)), alike(restActivated));

  const VEHICLE = `mutation ($s: ID!, $i: PlugAndChargeVehicleInput!) { addPlugAndChargeVehicle(subscriptionId: $s, input: $i) { ${ISSUED} } }`;
  const [restEvco, graphEvco] = [freshEvco(), freshEvco()];
  const restVehicle = await restWrite('POST', `/msp-token-subscription/${subscription.id}/plug-and-charge-vehicle`, { vehicle_vin: 'WVWZZZ1JZXW000011', evco_id: restEvco });
  const { addPlugAndChargeVehicle: vehicle } = await data(app, VEHICLE, { s: subscription.id, i: { vehicleVin: 'WVWZZZ1JZXW000011', evcoId: graphEvco } });
  t.like(vehicle, { token: { evcoId: graphEvco, formFactor: 'PLUG_AND_CHARGE', uidType: 'EMAID', uid: graphEvco, vehicleVin: 'WVWZZZ1JZXW000011' } });
  t.deepEqual(alike(await rest(`/msp-token/${graphEvco}`)), alike(restVehicle.token));
});

test('the token-issuing mutations refuse bad input at its place below input and issue nothing', async (t) => {
  const subscription = await insertTokenSubscription(app, adminId);
  const series = await insertTokenSeries(app, adminId);
  const links = async () => (await rest(`/msp-token-subscription/${subscription.id}`)).links.length;
  const before = await links();
  const VIRTUAL = `mutation ($i: AddVirtualTokenInput!) { addVirtualToken(input: $i) { ${ISSUED} } }`;
  t.like(await failure(VIRTUAL, { i: { subscriptionId: subscription.id, tokenSeriesId: series.id, evcoId: freshEvco() } }),
    { code: 'invalid_input', param: '$.input.evcoId', data: { addVirtualToken: null } });
  t.like(await failure(VIRTUAL, { i: { subscriptionId: subscription.id } }), { code: 'invalid_input', param: '$.input.tokenSeriesId' });
  t.like(await failure(VIRTUAL, { i: { subscriptionId: '00000000-0000-7000-8000-000000000000', tokenSeriesId: series.id } }),
    { code: 'not_found', param: '$.input.subscriptionId' });
  t.like(await failure(VIRTUAL, { i: { subscriptionId: subscription.id, tokenSeriesId: series.id, uid: 'x'.repeat(65) } }),
    { code: 'validation_failed', param: '$.input.uid' });
  const FULFIL = `mutation ($s: ID!, $i: TokenFulfilmentInput!) { requestTokenFulfilment(subscriptionId: $s, input: $i) { ${ISSUED} } }`;
  t.like(await failure(FULFIL, { s: subscription.id, i: { formFactor: 'VIRTUAL', tokenSeriesId: series.id } }), { code: 'form_factor_not_fulfilable', param: '$.input.formFactor' });
  const VEHICLE = `mutation ($s: ID!, $i: PlugAndChargeVehicleInput!) { addPlugAndChargeVehicle(subscriptionId: $s, input: $i) { ${ISSUED} } }`;
  t.like(await failure(VEHICLE, { s: subscription.id, i: { vehicleVin: 'WVWZZZ1JZXW00000O', tokenSeriesId: series.id } }), { code: 'invalid_input', param: '$.input.vehicleVin' });
  const ACTIVATE = 'mutation ($e: String!) { activateToken(evcoId: $e) { evcoId } }';
  t.like(await failure(ACTIVATE, { e: freshEvco() }), { code: 'not_found', param: '$.evcoId', data: { activateToken: null } });
  t.is(await links(), before);
});

// --- subscription plans ---

test('createSubscriptionPlan and updateSubscriptionPlan carry creditExcludedComponents like the REST twins', async (t) => {
  const viaRest = await restWrite('POST', '/msp-token-subscription-plan', { admin_id: adminId, name: 'Plan', credit_excluded_components: ['parking_time', 'flat'] });
  const CREATE = 'mutation ($i: SubscriptionPlanInput!) { createSubscriptionPlan(input: $i) { databaseId creditExcludedComponents } }';
  const { createSubscriptionPlan: plan } = await data(app, CREATE, { i: { adminId, name: 'Plan', creditExcludedComponents: ['PARKING_TIME', 'FLAT'] } });
  t.deepEqual(plan.creditExcludedComponents, ['PARKING_TIME', 'FLAT']);
  t.deepEqual(alike(await rest(`/msp-token-subscription-plan/${plan.databaseId}`)), alike(viaRest));
  const UPDATE = 'mutation ($id: ID!, $i: SubscriptionPlanInput!) { updateSubscriptionPlan(id: $id, input: $i) { creditExcludedComponents } }';
  t.deepEqual((await data(app, UPDATE, { id: plan.databaseId, i: { creditExcludedComponents: null } })).updateSubscriptionPlan, { creditExcludedComponents: [] });
  t.like(await failure(UPDATE, { id: plan.databaseId, i: { creditExcludedComponents: ['ENERGY', 'TIME', 'FLAT', 'PARKING_TIME', 'FLAT'], name: 'x'.repeat(256) } }),
    { code: 'validation_failed', param: '$.input.name' });
  t.like(await rest(`/msp-token-subscription-plan/${plan.databaseId}`), { name: 'Plan', credit_excluded_components: [] });
});
