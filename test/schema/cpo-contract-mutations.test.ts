// GraphQL writes of the CPO contract families (CPO subscription plans, their versions, subscriptions
// and EVSE links; reimbursement arrangements and links) call the services REST calls: each answers
// what REST then answers (or what the same write over REST answers), bad input is refused with its
// place, and nothing is stored.
import test from 'ava';
import { startTestApp, type Auth, type TestApp } from '../helpers/app.ts';
import { createEvse } from '../helpers/cpo-factories.ts';
import { createAdministration, createCustomer } from '../helpers/factories.ts';
import { data, failure as failureOf, graphql, restBody } from './graphql.ts';

let app: TestApp;
let adminId: string;
let customerId: string;
/** A credential limited to another administration. */
let foreign: Auth;
test.before(async () => {
  app = await startTestApp();
  adminId = (await createAdministration(app)).id;
  customerId = (await createCustomer(app, adminId)).id;
  foreign = await app.credential({ role: 'admin', adminIds: [(await createAdministration(app)).id] });
});
test.after.always(async () => { await app?.close(); });

let counter = 0;
const next = () => `${process.pid}-${++counter}`;
const rest = (path: string) => restBody(app, path);
const failure = (query: string, variables: Record<string, unknown>, auth?: Auth) => failureOf(app, query, variables, auth);

async function restPost(path: string, body: unknown, method = 'POST') {
  const r = await app.request(method, `/main/v1${path}`, { body });
  if (r.status !== 200) throw new Error(`${path}: ${r.status} ${JSON.stringify(r.body)}`);
  return r.body;
}

/** A contract's members as GraphQL answers them, from REST's representation. */
const contractFromRest = (c: any) => ({
  databaseId: c.id, adminId: c.admin_id, buyerReference: c.buyer_reference, validFrom: c.valid_from, validUntil: c.valid_until, defunct: c.defunct,
  customFields: c.custom_fields, externalReference: c.external_reference, externalUpdatedAt: c.external_updated_at, createdAt: c.created_at,
  updatedAt: c.updated_at,
});
const CONTRACT_FIELDS = 'databaseId adminId buyerReference validFrom validUntil defunct customFields externalReference externalUpdatedAt createdAt updatedAt';

// --- CPO subscription plans and their versions ---

const PLAN_FIELDS = 'databaseId adminId name description publishFrom publishUntil externalReference createdAt updatedAt versions { validFrom recurringCosts { description amountExclVat period per } }';
const CREATE_PLAN = `mutation ($i: CpoSubscriptionPlanInput!) { createCpoSubscriptionPlan(input: $i) { ${PLAN_FIELDS} } }`;
const UPDATE_PLAN = `mutation ($id: ID!, $i: CpoSubscriptionPlanInput!) { updateCpoSubscriptionPlan(id: $id, input: $i) { ${PLAN_FIELDS} } }`;
const SET_VERSION = `mutation ($p: ID!, $d: String!, $c: [CpoRecurringCostInput!]) {
  setCpoSubscriptionPlanVersion(planId: $p, validFrom: $d, recurringCosts: $c) { ${PLAN_FIELDS} } }`;

const planFromRest = (p: any) => ({
  databaseId: p.id, adminId: p.admin_id, name: p.name, description: p.description, publishFrom: p.publish_from, publishUntil: p.publish_until,
  externalReference: p.external_reference, createdAt: p.created_at, updatedAt: p.updated_at,
  versions: p.versions.map((v: any) => ({
    validFrom: v.valid_from,
    recurringCosts: v.recurring_costs.map((c: any) => ({ description: c.description, amountExclVat: c.amount_excl_vat, period: c.period, per: c.per })),
  })),
});

async function createPlan(fields: Record<string, unknown> = {}) {
  return (await data(app, CREATE_PLAN, { i: { adminId, name: `CPO plan ${next()}`, ...fields } })).createCpoSubscriptionPlan;
}

test('CPO subscription plans: create, update and a version answer what REST then answers; bad input and a foreign credential change nothing', async (t) => {
  const reference = `cpo-plan-${next()}`;
  const created = await createPlan({ description: 'Per EVSE', publishFrom: '2026-01-01T00:00:00Z', externalReference: reference });
  t.like(created, { adminId, description: 'Per EVSE', publishFrom: '2026-01-01T00:00:00.000Z', externalReference: reference, versions: [] });
  t.deepEqual(created, planFromRest(await rest(`/cpo-subscription-plan/${created.databaseId}`)));

  const updated = (await data(app, UPDATE_PLAN, { id: `ext_ref.${reference}`, i: { name: 'Renamed', publishUntil: '2027-01-01T00:00:00Z', adminId: 'ignored' } }))
    .updateCpoSubscriptionPlan;
  t.like(updated, { name: 'Renamed', description: 'Per EVSE', publishUntil: '2027-01-01T00:00:00.000Z', adminId });
  const versioned = (await data(app, SET_VERSION, { p: created.databaseId, d: '2026-02-01', c: [
    { description: 'Fee', amountExclVat: '9.50', period: 'month' }, { description: 'Per EVSE', amountExclVat: '2', period: 'quarter', per: 'evse' },
  ] })).setCpoSubscriptionPlanVersion;
  t.is(versioned.versions.length, 1);
  const stored = await rest(`/cpo-subscription-plan/${created.databaseId}`);
  t.deepEqual(versioned, planFromRest(stored));
  t.deepEqual(stored.versions[0].recurring_costs, [
    { description: 'Fee', amount_excl_vat: '9.50', period: 'month', per: 'subscription' }, { description: 'Per EVSE', amount_excl_vat: '2.00', period: 'quarter', per: 'evse' },
  ]);

  // The same version written over REST answers the same plan.
  const again = await restPost(`/cpo-subscription-plan/${created.databaseId}/2026-02-01`, { recurring_costs: stored.versions[0].recurring_costs });
  t.deepEqual(planFromRest({ ...again, updated_at: stored.updated_at }), planFromRest(stored));

  const bad = { p: created.databaseId, d: '2026-03-01' };
  t.like(await failure(SET_VERSION, { ...bad, c: [{ description: 'Fee', amountExclVat: '-1', period: 'month' }] }),
    { code: 'invalid_input', param: '$.recurringCosts[0].amountExclVat' });
  t.like(await failure(SET_VERSION, { ...bad, c: [{ description: 'Fee', amountExclVat: '1', period: 'week' }] }),
    { code: 'invalid_input', param: '$.recurringCosts[0].period' });
  t.like(await failure(SET_VERSION, { ...bad, c: [{ description: 'x'.repeat(300), amountExclVat: '1', period: 'month' }] }),
    { code: 'validation_failed', param: '$.recurringCosts[0].description' });
  t.like(await failure(SET_VERSION, { ...bad, d: '2026-02-30', c: null }), { code: 'invalid_input', param: '$' }, 'a bad path segment in REST');
  t.like(await failure(UPDATE_PLAN, { id: created.databaseId, i: { name: ' ' } }), { code: 'invalid_input', param: '$.input.name' });
  t.like(await failure(UPDATE_PLAN, { id: created.databaseId, i: { publishFrom: '2028-01-01T00:00:00Z' } }), { code: 'invalid_input', param: '$.input.publishUntil' });
  t.like(await failure(CREATE_PLAN, { i: { adminId, name: 'Taken', externalReference: reference } }), { code: 'duplicate', param: '$.input.externalReference' });
  t.like(await failure(UPDATE_PLAN, { id: created.databaseId, i: { name: 'Taken over' } }, foreign), { code: 'not_found', data: { updateCpoSubscriptionPlan: null } });
  t.like(await failure(SET_VERSION, { ...bad, c: [] }, foreign), { code: 'not_found' });
  t.like(await failure(CREATE_PLAN, { i: { adminId, name: 'Foreign' } }, foreign), { code: 'not_found', param: '$.input.adminId' });
  t.deepEqual(await rest(`/cpo-subscription-plan/${created.databaseId}`), stored, 'nothing changed');
  t.false((await rest(`/cpo-subscription-plan?admin_id=${adminId}`)).items.some((p: any) => ['Taken', 'Foreign'].includes(p.name)), 'nothing created');
});

// --- CPO subscriptions ---

const SUBSCRIPTION_FIELDS = `${CONTRACT_FIELDS} customer { databaseId } customerId plan { databaseId } planId planExternalReference`;
const CREATE_SUBSCRIPTION = `mutation ($i: CreateCpoSubscriptionInput!) { createCpoSubscription(input: $i) { ${SUBSCRIPTION_FIELDS} } }`;
const UPDATE_SUBSCRIPTION = `mutation ($id: ID!, $i: CpoSubscriptionInput!, $c: Boolean) {
  updateCpoSubscription(id: $id, input: $i, recurringCostCorrection: $c) { ${SUBSCRIPTION_FIELDS} } }`;
const DEFUNCT_SUBSCRIPTION = `mutation ($id: ID!, $at: DateTime) { defunctCpoSubscription(id: $id, externalUpdatedAt: $at) { ${SUBSCRIPTION_FIELDS} } }`;

const subscriptionFromRest = (s: any) => ({
  ...contractFromRest(s), customer: { databaseId: s.customer_id }, customerId: s.customer_id, plan: { databaseId: s.plan_id }, planId: s.plan_id,
  planExternalReference: s.plan_external_reference,
});

async function createSubscription(planId: string, fields: Record<string, unknown> = {}) {
  return (await data(app, CREATE_SUBSCRIPTION, { i: { customerId, planId, validFrom: '2026-01-01T00:00:00Z', ...fields } })).createCpoSubscription;
}

test('CPO subscriptions: create, merge-update and defunct answer what REST then answers; bad input and a foreign credential change nothing', async (t) => {
  const reference = `cpo-plan-${next()}`;
  const plan = await createPlan({ externalReference: reference });
  const created = await createSubscription(`ext_ref.${reference}`, { buyerReference: 'PO-1', customFields: { site: 'north', floors: 2 } });
  t.like(created, { adminId, buyerReference: 'PO-1', customFields: { site: 'north', floors: 2 }, plan: { databaseId: plan.databaseId }, planExternalReference: reference });
  t.deepEqual(created, subscriptionFromRest(await rest(`/cpo-subscription/${created.databaseId}`)));

  const { cpoSubscriptions } = await data(app, '{ cpoSubscriptions(first: 100) { edges { node { id databaseId } } } }');
  const globalId = cpoSubscriptions.edges.find((e: any) => e.node.databaseId === created.databaseId).node.id;
  const updated = (await data(app, UPDATE_SUBSCRIPTION, { id: globalId, i: { customFields: { floors: null, lot: true }, validUntil: '2027-01-01T00:00:00Z' }, c: false }))
    .updateCpoSubscription;
  t.like(updated, { customFields: { site: 'north', lot: true }, validUntil: '2027-01-01T00:00:00.000Z', buyerReference: 'PO-1' });
  t.deepEqual(updated, subscriptionFromRest(await rest(`/cpo-subscription/${created.databaseId}`)));

  // The same merge-update over REST answers the same subscription.
  const overRest = await restPost(`/cpo-subscription/${created.databaseId}`, { custom_fields: { lot: true }, valid_until: '2027-01-01T00:00:00Z' });
  t.deepEqual({ ...subscriptionFromRest(overRest), updatedAt: updated.updatedAt }, updated);

  const bad = { id: created.databaseId };
  t.like(await failure(UPDATE_SUBSCRIPTION, { ...bad, i: { validUntil: '2025-01-01T00:00:00Z', buyerReference: 'Changed' } }),
    { code: 'invalid_input', param: '$.input.validUntil' });
  t.like(await failure(UPDATE_SUBSCRIPTION, { ...bad, i: { validFrom: null } }), { code: 'invalid_input', param: '$.input.validFrom' });
  t.like(await failure(UPDATE_SUBSCRIPTION, { ...bad, i: { customFields: { nested: { no: 1 } } } }), { code: 'validation_failed', param: '$.input.customFields.nested' });
  t.like(await failure(CREATE_SUBSCRIPTION, { i: { customerId, planId: 'ext_ref.no-such-plan', validFrom: '2026-01-01T00:00:00Z' } }),
    { code: 'not_found', param: '$.input.planId' });
  t.like(await failure(CREATE_SUBSCRIPTION, { i: { customerId: '00000000-0000-7000-8000-000000000000', planId: plan.databaseId, validFrom: '2026-01-01T00:00:00Z' } }),
    { code: 'not_found', param: '$.input.customerId' });
  t.like(await failure(UPDATE_SUBSCRIPTION, { ...bad, i: { buyerReference: 'Taken over' } }, foreign), { code: 'not_found', data: { updateCpoSubscription: null } });
  t.like(await failure(DEFUNCT_SUBSCRIPTION, bad, foreign), { code: 'not_found' });
  const stored = await rest(`/cpo-subscription/${created.databaseId}`);
  t.deepEqual(subscriptionFromRest(stored), { ...updated, updatedAt: stored.updated_at }, 'nothing changed');
  t.is((await rest(`/cpo-subscription?plan_id=${plan.databaseId}`)).items.length, 1, 'nothing created');

  const defunct = (await data(app, DEFUNCT_SUBSCRIPTION, { ...bad, at: '2026-05-01T12:00:00+02:00' })).defunctCpoSubscription;
  t.like(defunct, { defunct: true, externalUpdatedAt: '2026-05-01T10:00:00.000Z' });
  t.deepEqual(defunct, subscriptionFromRest(await rest(`/cpo-subscription/${created.databaseId}`)));
  t.like(await failure(UPDATE_SUBSCRIPTION, { ...bad, i: { buyerReference: 'After' } }), { code: 'cpo_subscription_defunct' });
});

// --- CPO subscription EVSE links ---

const LINK_FIELDS = 'databaseId adminId subscriptionId evseUid validFrom validUntil defunct isCurrentlyValid externalUpdatedAt createdAt updatedAt';
const CREATE_LINK = `mutation ($i: CreateCpoSubscriptionEvseLinkInput!) { createCpoSubscriptionEvseLink(input: $i) {
  ${LINK_FIELDS} subscription { databaseId } evse { evseUid } } }`;
const UPDATE_LINK = `mutation ($id: ID!, $i: CpoSubscriptionEvseLinkInput!) { updateCpoSubscriptionEvseLink(id: $id, input: $i) { ${LINK_FIELDS} } }`;
const DEFUNCT_LINK = `mutation ($id: ID!) { markCpoSubscriptionEvseLinkDefunct(id: $id) { ${LINK_FIELDS} } }`;

const cpoLinkFromRest = (l: any) => ({
  databaseId: l.id, adminId: l.admin_id, subscriptionId: l.subscription_id, evseUid: l.evse_uid, validFrom: l.valid_from, validUntil: l.valid_until,
  defunct: l.defunct, isCurrentlyValid: l.is_currently_valid, externalUpdatedAt: l.external_updated_at, createdAt: l.created_at, updatedAt: l.updated_at,
});

test('CPO subscription EVSE links: create, merge-update and defunct answer what REST then answers; bad input and a foreign credential change nothing', async (t) => {
  const plan = await createPlan();
  const subscription = await createSubscription(plan.databaseId);
  const evse = await createEvse(app, adminId);
  const created = (await data(app, CREATE_LINK, { i: {
    subscriptionId: subscription.databaseId, evseUid: evse.evse_uid, validFrom: '2026-03-01T00:00:00Z', externalUpdatedAt: '2026-02-01T00:00:00Z',
  } })).createCpoSubscriptionEvseLink;
  const { subscription: linked, evse: linkedEvse, ...fields } = created;
  t.deepEqual([linked, linkedEvse], [{ databaseId: subscription.databaseId }, { evseUid: evse.evse_uid }]);
  t.like(fields, { adminId, validFrom: '2026-03-01T00:00:00.000Z', externalUpdatedAt: '2026-02-01T00:00:00.000Z', isCurrentlyValid: true });
  t.deepEqual(fields, cpoLinkFromRest(await rest(`/cpo-subscription-evse-link/${created.databaseId}`)));

  const updated = (await data(app, UPDATE_LINK, { id: created.databaseId, i: { validFrom: null, validUntil: '2026-02-01T00:00:00Z' } })).updateCpoSubscriptionEvseLink;
  t.like(updated, { validFrom: null, validUntil: '2026-02-01T00:00:00.000Z', isCurrentlyValid: false });
  const stored = await rest(`/cpo-subscription-evse-link/${created.databaseId}`);
  t.deepEqual(updated, cpoLinkFromRest(stored));

  t.like(await failure(UPDATE_LINK, { id: created.databaseId, i: { validUntil: '2025-01-01T00:00:00Z' } }), { code: 'invalid_input', param: '$.input.validUntil' });
  t.like(await failure(CREATE_LINK, { i: { subscriptionId: subscription.databaseId, evseUid: 'NO-SUCH-EVSE' } }), { code: 'not_found', param: '$.input.evseUid' });
  t.like(await failure(CREATE_LINK, { i: { subscriptionId: subscription.databaseId, evseUid: 'E'.repeat(65) } }), { code: 'validation_failed', param: '$.input.evseUid' });
  t.like(await failure(CREATE_LINK, { i: { subscriptionId: '00000000-0000-7000-8000-000000000000', evseUid: evse.evse_uid } }),
    { code: 'not_found', param: '$.input.subscriptionId' });
  t.like(await failure(UPDATE_LINK, { id: created.databaseId, i: { validUntil: null } }, foreign), { code: 'not_found', data: { updateCpoSubscriptionEvseLink: null } });
  t.like(await failure(DEFUNCT_LINK, { id: created.databaseId }, foreign), { code: 'not_found' });
  t.deepEqual(await rest(`/cpo-subscription-evse-link/${created.databaseId}`), stored, 'nothing changed');
  t.is((await rest(`/cpo-subscription-evse-link?subscription_id=${subscription.databaseId}`)).items.length, 1, 'nothing created');

  const defunct = (await data(app, DEFUNCT_LINK, { id: created.databaseId })).markCpoSubscriptionEvseLinkDefunct;
  t.true(defunct.defunct);
  t.deepEqual(defunct, cpoLinkFromRest(await rest(`/cpo-subscription-evse-link/${created.databaseId}`)));
});

// --- reimbursement arrangements and links ---

const ARRANGEMENT_FIELDS = `${CONTRACT_FIELDS} customerId planId`;
const CREATE_ARRANGEMENT = `mutation ($i: CreateReimbursementArrangementInput!) { createReimbursementArrangement(input: $i) { ${ARRANGEMENT_FIELDS} } }`;
const UPDATE_ARRANGEMENT = `mutation ($id: ID!, $i: ReimbursementArrangementInput!) { updateReimbursementArrangement(id: $id, input: $i) { ${ARRANGEMENT_FIELDS} } }`;
const DEFUNCT_ARRANGEMENT = `mutation ($id: ID!) { markReimbursementArrangementDefunct(id: $id) { ${ARRANGEMENT_FIELDS} } }`;
const arrangementFromRest = (a: any) => ({ ...contractFromRest(a), customerId: a.customer_id, planId: a.plan_id });

const RLINK_FIELDS = 'databaseId adminId arrangementId evseUid validFrom validUntil defunct externalUpdatedAt createdAt updatedAt';
const CREATE_RLINK = `mutation ($i: CreateReimbursementLinkInput!) { createReimbursementLink(input: $i) { ${RLINK_FIELDS} arrangement { databaseId } evse { evseUid } } }`;
const UPDATE_RLINK = `mutation ($id: ID!, $i: ReimbursementLinkInput!) { updateReimbursementLink(id: $id, input: $i) { ${RLINK_FIELDS} } }`;
const DEFUNCT_RLINK = `mutation ($id: ID!) { markReimbursementLinkDefunct(id: $id) { ${RLINK_FIELDS} } }`;
const rlinkFromRest = (l: any) => ({
  databaseId: l.id, adminId: l.admin_id, arrangementId: l.arrangement_id, evseUid: l.evse_uid, validFrom: l.valid_from, validUntil: l.valid_until,
  defunct: l.defunct, externalUpdatedAt: l.external_updated_at, createdAt: l.created_at, updatedAt: l.updated_at,
});
const restLinks = async (arrangementId: string) => (await rest(`/cpo-reimbursement-link?arrangement_id=${arrangementId}`)).items;

test('reimbursement arrangements and links: create, merge-update and defunct answer what REST then answers; bad input and a foreign credential change nothing', async (t) => {
  const created = (await data(app, CREATE_ARRANGEMENT, { i: { adminId, customerId, validFrom: '2026-01-01T00:00:00Z', externalReference: `arr-${next()}` } }))
    .createReimbursementArrangement;
  t.like(created, { adminId, customerId, planId: null, defunct: false, customFields: {} });
  t.deepEqual(created, arrangementFromRest(await rest(`/cpo-reimbursement-arrangement/${created.databaseId}`)));
  const updated = (await data(app, UPDATE_ARRANGEMENT, { id: created.databaseId, i: { buyerReference: 'PO-7', customFields: { owner: 'garage' } } }))
    .updateReimbursementArrangement;
  t.like(updated, { buyerReference: 'PO-7', customFields: { owner: 'garage' } });
  const stored = await rest(`/cpo-reimbursement-arrangement/${created.databaseId}`);
  t.deepEqual(updated, arrangementFromRest(stored));

  const evse = await createEvse(app, adminId);
  const link = (await data(app, CREATE_RLINK, { i: { arrangementId: created.databaseId, evseUid: evse.evse_uid, validUntil: '2027-01-01T00:00:00Z' } }))
    .createReimbursementLink;
  const { arrangement, evse: linkedEvse, ...linkFields } = link;
  t.deepEqual([arrangement, linkedEvse], [{ databaseId: created.databaseId }, { evseUid: evse.evse_uid }]);
  t.deepEqual([linkFields], (await restLinks(created.databaseId)).map(rlinkFromRest));
  const movedLink = (await data(app, UPDATE_RLINK, { id: link.databaseId, i: { validFrom: '2026-02-01T00:00:00Z' } })).updateReimbursementLink;
  t.is(movedLink.validFrom, '2026-02-01T00:00:00.000Z');
  const storedLinks = await restLinks(created.databaseId);
  t.deepEqual([movedLink], storedLinks.map(rlinkFromRest));
  // The arrangement as it stands with its link (REST answers its links).
  const storedWithLinks = await rest(`/cpo-reimbursement-arrangement/${created.databaseId}`);

  t.like(await failure(CREATE_ARRANGEMENT, { i: { adminId, customerId, validFrom: '2026-01-01T00:00:00Z', customFields: { list: [1] } } }),
    { code: 'validation_failed', param: '$.input.customFields.list' });
  t.like(await failure(CREATE_ARRANGEMENT, { i: { adminId, customerId, validFrom: '2026-01-01T00:00:00Z', externalReference: stored.external_reference } }),
    { code: 'duplicate', param: '$.input.externalReference' });
  t.like(await failure(UPDATE_ARRANGEMENT, { id: created.databaseId, i: { validUntil: '2025-06-01T00:00:00Z' } }), { code: 'invalid_input', param: '$.input.validUntil' });
  t.like(await failure(UPDATE_RLINK, { id: link.databaseId, i: { validUntil: '2026-01-15T00:00:00Z' } }), { code: 'invalid_input', param: '$.input.validUntil' });
  t.like(await failure(CREATE_RLINK, { i: { arrangementId: created.databaseId, evseUid: 'NO-SUCH-EVSE' } }), { code: 'not_found', param: '$.input.evseUid' });
  t.like(await failure(CREATE_ARRANGEMENT, { i: { adminId, customerId, validFrom: '2026-01-01T00:00:00Z' } }, foreign), { code: 'not_found', param: '$.input.adminId' });
  t.like(await failure(UPDATE_ARRANGEMENT, { id: created.databaseId, i: { buyerReference: 'Taken over' } }, foreign),
    { code: 'not_found', data: { updateReimbursementArrangement: null } });
  t.like(await failure(DEFUNCT_ARRANGEMENT, { id: created.databaseId }, foreign), { code: 'not_found' });
  t.like(await failure(UPDATE_RLINK, { id: link.databaseId, i: { validUntil: null } }, foreign), { code: 'not_found' });
  t.like(await failure(DEFUNCT_RLINK, { id: link.databaseId }, foreign), { code: 'not_found' });
  t.deepEqual(await rest(`/cpo-reimbursement-arrangement/${created.databaseId}`), storedWithLinks, 'nothing changed');
  t.deepEqual(await restLinks(created.databaseId), storedLinks);
  t.false((await rest(`/cpo-reimbursement-link?evse_uid=${evse.evse_uid}`)).items.some((l: any) => l.arrangement_id !== created.databaseId), 'nothing created');

  const defunctLink = (await data(app, DEFUNCT_RLINK, { id: link.databaseId })).markReimbursementLinkDefunct;
  t.true(defunctLink.defunct);
  const second = (await data(app, CREATE_RLINK, { i: { arrangementId: created.databaseId, evseUid: evse.evse_uid, validFrom: '2027-01-01T00:00:00Z' } }))
    .createReimbursementLink;
  const defunct = (await data(app, DEFUNCT_ARRANGEMENT, { id: created.databaseId })).markReimbursementArrangementDefunct;
  t.true(defunct.defunct);
  t.deepEqual(defunct, arrangementFromRest(await rest(`/cpo-reimbursement-arrangement/${created.databaseId}`)));
  t.true((await restLinks(created.databaseId)).every((l: any) => l.defunct), 'its links too');
  t.like(await failure(UPDATE_RLINK, { id: second.databaseId, i: { validUntil: null } }), { code: 'reimbursement_link_defunct' });
});

test('a readonly credential cannot call them', async (t) => {
  const readonly = await app.credential({ role: 'readonly', adminIds: [adminId] });
  const r = await graphql(app, CREATE_PLAN, { i: { adminId, name: 'Readonly' } }, readonly);
  t.is(r.status, 403);
});
