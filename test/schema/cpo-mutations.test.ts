import test from 'ava';
import { startTestApp, type Auth, type TestApp } from '../helpers/app.ts';
import { createArrangement, createEvse } from '../helpers/cpo-factories.ts';
import { createAdministration, createCustomer } from '../helpers/factories.ts';
import { data, failure as failureOf, graphql, restBody } from './graphql.ts';

let app: TestApp;
let adminId: string;
/** A credential limited to another administration. */
let foreign: Auth;
test.before(async () => {
  app = await startTestApp();
  adminId = (await createAdministration(app)).id;
  foreign = await app.credential({ role: 'admin', adminIds: [(await createAdministration(app)).id] });
});
test.after.always(async () => { await app?.close(); });

let counter = 0;
const next = () => `${process.pid}-${++counter}`;

const rest = (path: string) => restBody(app, path);

const failure = (query: string, variables: Record<string, unknown>, auth?: Auth) => failureOf(app, query, variables, auth);

// --- EVSE locations ---

const LOCATION_FIELDS = 'databaseId locationId adminId name street postalCode city country latitude longitude cpoId timeZone deactivatedAt externalUpdatedAt createdAt updatedAt';
const SAVE_LOCATION = `mutation ($l: String!, $i: EvseLocationInput!) { saveEvseLocation(locationId: $l, input: $i) { ${LOCATION_FIELDS} } }`;

const locationFromRest = (l: any) => ({
  databaseId: l.id, locationId: l.location_id, adminId: l.admin_id, name: l.name, street: l.address.street, postalCode: l.address.postal_code,
  city: l.address.city, country: l.address.country, latitude: l.latitude, longitude: l.longitude, cpoId: l.cpo_id, timeZone: l.time_zone,
  deactivatedAt: l.deactivated_at, externalUpdatedAt: l.external_updated_at, createdAt: l.created_at, updatedAt: l.updated_at,
});

test('saveEvseLocation creates, then merge-updates, what REST then answers; bad input and a foreign credential change nothing', async (t) => {
  const locationId = `GLOC-${next()}`;
  const created = (await data(app, SAVE_LOCATION, { l: locationId, i: {
    adminId, name: 'Station', street: 'Stationsplein 1', city: 'Utrecht', country: 'nl', latitude: '52.090737', longitude: '5.121420',
    timeZone: 'Europe/Amsterdam', cpoId: 'NL*VOL',
  } })).saveEvseLocation;
  t.like(created, { locationId, adminId, country: 'NL', longitude: '5.12142', postalCode: null });
  t.deepEqual(created, locationFromRest(await rest(`/cpo-evse-location/${locationId}`)));

  const merged = (await data(app, SAVE_LOCATION, { l: locationId, i: { postalCode: '3511 ED', deactivatedAt: '2026-12-01T00:00:00Z' } })).saveEvseLocation;
  t.like(merged, { name: 'Station', street: 'Stationsplein 1', postalCode: '3511 ED', deactivatedAt: '2026-12-01T00:00:00.000Z' });
  const stored = await rest(`/cpo-evse-location/${locationId}`);
  t.deepEqual(merged, locationFromRest(stored));

  t.like(await failure(SAVE_LOCATION, { l: locationId, i: { latitude: '91.0', name: 'Moved' } }), { status: 200, code: 'invalid_input', param: '$.input.latitude' });
  t.like(await failure(SAVE_LOCATION, { l: locationId, i: { longitude: '5.1234567' } }), { code: 'validation_failed', param: '$.input.longitude' });
  t.like(await failure(SAVE_LOCATION, { l: `NEW-${next()}`, i: { name: 'No administration' } }), { code: 'invalid_input', param: '$.input.adminId' });
  // A location_id held by an administration the caller cannot see is taken (decisions: uniqueness across administrations).
  t.like(await failure(SAVE_LOCATION, { l: locationId, i: { name: 'Taken over' } }, foreign), { code: 'duplicate', param: '$.locationId', data: { saveEvseLocation: null } });
  t.deepEqual(await rest(`/cpo-evse-location/${locationId}`), stored, 'nothing changed');
});

// Found by probing (2026-11-29): 65 characters were stored, 256 were an internal error.
test('saveEvseLocation holds locationId to REST\'s 64 characters: more is validation_failed at $.locationId and stores nothing', async (t) => {
  const restAnswer = await app.request('POST', '/main/v1/cpo-evse-location', { body: { location_id: 'L'.repeat(65), admin_id: adminId } });
  t.like(restAnswer.body, { code: 'validation_failed', param: '$.location_id' });
  for (const locationId of ['L'.repeat(65), 'M'.repeat(256)]) {
    t.like(await failure(SAVE_LOCATION, { l: locationId, i: { adminId, name: 'Long' } }), { status: 200, code: 'validation_failed', param: '$.locationId', data: { saveEvseLocation: null } });
  }
  const list = await app.request('GET', '/main/v1/cpo-evse-location?page_size=1000');
  t.false(list.body.items.some((l: { location_id: string }) => l.location_id.length > 64), 'nothing stored');
  const suffix = next();
  t.truthy((await data(app, SAVE_LOCATION, { l: `${'K'.repeat(64 - suffix.length)}${suffix}`, i: { adminId } })).saveEvseLocation, '64 characters pass');
});

// --- EVSEs ---

const EVSE_FIELDS = `databaseId evseUid adminId evseId locationId dropoutAllChargesessions reimbursementMandatory externalUpdatedAt createdAt updatedAt
  connectors { id standard format powerType maxPowerKw }`;
const SAVE_EVSE = `mutation ($u: String!, $i: EvseInput!) { saveEvse(evseUid: $u, input: $i) { ${EVSE_FIELDS} } }`;
const DROPOUT = `mutation ($u: String!, $on: Boolean!) { setEvseDropoutAll(evseUid: $u, enabled: $on, reprocessDropouts: true) { ${EVSE_FIELDS} } }`;

const evseFromRest = (e: any) => ({
  databaseId: e.id, evseUid: e.evse_uid, adminId: e.admin_id, evseId: e.evse_id, locationId: e.location_id,
  dropoutAllChargesessions: e.dropout_all_chargesessions, reimbursementMandatory: e.reimbursement_mandatory,
  externalUpdatedAt: e.external_updated_at, createdAt: e.created_at, updatedAt: e.updated_at,
  connectors: e.connectors.map((c: any) => ({
    id: c.id, standard: c.standard ?? null, format: c.format ?? null, powerType: c.power_type ?? null, maxPowerKw: c.max_power_kw ?? null,
  })),
});

test('saveEvse merge-updates connectors and location, setEvseDropoutAll switches safe mode, as REST then answers; bad input and a foreign credential change nothing', async (t) => {
  const evse = await createEvse(app, adminId);
  const locationId = `ELOC-${next()}`;
  await data(app, SAVE_LOCATION, { l: locationId, i: { adminId } });
  const saved = (await data(app, SAVE_EVSE, { u: evse.evse_uid, i: {
    locationId, reimbursementMandatory: true, connectors: [{ id: '1', standard: 'IEC_62196_T2', powerType: 'ac_3phase', maxPowerKw: '22' }],
  } })).saveEvse;
  t.like(saved, { evseUid: evse.evse_uid, evseId: evse.evse_id, locationId, reimbursementMandatory: true });
  t.deepEqual(saved.connectors, [{ id: '1', standard: 'IEC_62196_T2', format: null, powerType: 'ac_3phase', maxPowerKw: '22' }]);
  t.deepEqual(saved, evseFromRest(await rest(`/cpo-evse/${evse.evse_uid}`)));

  const safe = (await data(app, DROPOUT, { u: evse.evse_uid, on: true })).setEvseDropoutAll;
  t.true(safe.dropoutAllChargesessions);
  const stored = await rest(`/cpo-evse/${evse.evse_uid}`);
  t.deepEqual(safe, evseFromRest(stored));

  t.like(await failure(SAVE_EVSE, { u: evse.evse_uid, i: { reimbursementMandatory: false, connectors: [{ id: '1', powerType: 'ac_9phase' }] } }),
    { code: 'validation_failed', param: '$.input.connectors[0].powerType' });
  t.like(await failure(SAVE_EVSE, { u: evse.evse_uid, i: { locationId: 'NO-SUCH-LOCATION' } }), { code: 'not_found', param: '$.input.locationId' });
  t.like(await failure(DROPOUT, { u: 'NO-SUCH-EVSE', on: false }), { code: 'not_found', data: { setEvseDropoutAll: null } });
  t.like(await failure(SAVE_EVSE, { u: evse.evse_uid, i: { reimbursementMandatory: false } }, foreign), { code: 'not_found', data: { saveEvse: null } });
  t.like(await failure(DROPOUT, { u: evse.evse_uid, on: false }, foreign), { code: 'not_found' });
  t.deepEqual(await rest(`/cpo-evse/${evse.evse_uid}`), stored, 'nothing changed');
});

// Found by probing (2026-11-29): both were stored, as over REST.
test('saveEvse refuses an evseId of separators only ($.input.evseId) and two connectors of one id ($.input.connectors[1].id); nothing changes', async (t) => {
  const evse = await createEvse(app, adminId);
  const stored = await rest(`/cpo-evse/${evse.evse_uid}`);
  t.like(await failure(SAVE_EVSE, { u: evse.evse_uid, i: { evseId: '* - *', reimbursementMandatory: true } }), { code: 'invalid_input', param: '$.input.evseId', data: { saveEvse: null } });
  t.like(await failure(SAVE_EVSE, { u: evse.evse_uid, i: { reimbursementMandatory: true, connectors: [{ id: 'c1' }, { id: 'C1', standard: 'CHADEMO' }] } }),
    { code: 'duplicate', param: '$.input.connectors[1].id', data: { saveEvse: null } });
  t.deepEqual(await rest(`/cpo-evse/${evse.evse_uid}`), stored, 'nothing changed');
});

// Found by probing (2026-11-29): "" was stored as the time zone.
test('saveEvseLocation refuses a timeZone of "" at $.input.timeZone, on create and merge-update; nothing changes', async (t) => {
  const locationId = `GTZ-${next()}`;
  t.like(await failure(SAVE_LOCATION, { l: locationId, i: { adminId, timeZone: '' } }), { code: 'invalid_input', param: '$.input.timeZone', data: { saveEvseLocation: null } });
  t.is((await app.request('GET', `/main/v1/cpo-evse-location/${locationId}`)).body.code, 'not_found', 'nothing stored');
  await data(app, SAVE_LOCATION, { l: locationId, i: { adminId, timeZone: 'Europe/Amsterdam' } });
  const stored = await rest(`/cpo-evse-location/${locationId}`);
  t.like(await failure(SAVE_LOCATION, { l: locationId, i: { timeZone: '', name: 'Renamed' } }), { code: 'invalid_input', param: '$.input.timeZone' });
  t.deepEqual(await rest(`/cpo-evse-location/${locationId}`), stored, 'nothing changed');
});

// --- reimbursement plans ---

const PLAN_FIELDS = 'databaseId adminId name description mode components publishFrom publishUntil externalReference createdAt updatedAt';
const CREATE_PLAN = `mutation ($i: ReimbursementPlanInput!) { createReimbursementPlan(input: $i) { ${PLAN_FIELDS} } }`;
const UPDATE_PLAN = `mutation ($id: ID!, $i: ReimbursementPlanInput!) { updateReimbursementPlan(id: $id, input: $i) { ${PLAN_FIELDS} } }`;

const planFromRest = (p: any) => ({
  databaseId: p.id, adminId: p.admin_id, name: p.name, description: p.description, mode: p.mode, components: p.components,
  publishFrom: p.publish_from, publishUntil: p.publish_until, externalReference: p.external_reference, createdAt: p.created_at, updatedAt: p.updated_at,
});

async function createPlan(fields: Record<string, unknown> = {}) {
  return (await data(app, CREATE_PLAN, { i: { adminId, name: `Plan ${next()}`, ...fields } })).createReimbursementPlan;
}

test('createReimbursementPlan and updateReimbursementPlan answer what REST then answers; bad input and a foreign credential change nothing', async (t) => {
  const created = await createPlan({ components: ['energy', 'flat', 'custom'], publishFrom: '2026-01-01T00:00:00Z' });
  t.like(created, { adminId, mode: 'calculated', components: ['energy', 'flat', 'custom'], publishFrom: '2026-01-01T00:00:00.000Z' });
  t.deepEqual(created, planFromRest(await rest(`/cpo-reimbursement-plan/${created.databaseId}`)));

  const { reimbursementPlans } = await data(app, '{ reimbursementPlans { id databaseId } }');
  const globalId = reimbursementPlans.find((p: any) => p.databaseId === created.databaseId).id;
  const updated = (await data(app, UPDATE_PLAN, { id: globalId, i: { mode: 'cpms_supplied', description: 'Home chargers' } })).updateReimbursementPlan;
  t.like(updated, { mode: 'cpms_supplied', description: 'Home chargers', components: ['energy', 'flat', 'custom'] });
  const stored = await rest(`/cpo-reimbursement-plan/${created.databaseId}`);
  t.deepEqual(updated, planFromRest(stored));

  t.like(await failure(UPDATE_PLAN, { id: created.databaseId, i: { mode: 'guess', name: 'Renamed' } }), { code: 'invalid_input', param: '$.input.mode' });
  t.like(await failure(UPDATE_PLAN, { id: created.databaseId, i: { components: ['energy', 'warp'] } }), { code: 'invalid_input', param: '$.input.components[1]' });
  t.like(await failure(CREATE_PLAN, { i: { adminId, name: 'Bad', publishFrom: '2026-02-01T00:00:00Z', publishUntil: '2026-01-01T00:00:00Z' } }),
    { code: 'invalid_input', param: '$.input.publishUntil' });
  t.like(await failure(UPDATE_PLAN, { id: created.databaseId, i: { name: 'Taken over' } }, foreign), { code: 'not_found', data: { updateReimbursementPlan: null } });
  t.like(await failure(CREATE_PLAN, { i: { adminId, name: 'Foreign' } }, foreign), { code: 'not_found', param: '$.input.adminId' });
  t.deepEqual(await rest(`/cpo-reimbursement-plan/${created.databaseId}`), stored, 'nothing changed');
  t.false((await rest('/cpo-reimbursement-plan')).items.some((p: any) => p.name === 'Bad' || p.name === 'Foreign'), 'nothing created');
});

// --- calculation inputs ---

const SET_INPUT = `mutation ($o: CalculationInputOwner!, $id: ID!, $d: String!, $c: String, $v: String, $value: String) {
  setCalculationInput(owner: $o, ownerId: $id, validFrom: $d, componentType: $c, customVarName: $v, value: $value) {
    databaseId validFrom componentType varName value updatedAt } }`;

const inputFromRest = (i: any) => ({
  databaseId: i.id, validFrom: i.valid_from, componentType: i.component_type, varName: i.var_name, value: i.value, updatedAt: i.updated_at,
});

test('setCalculationInput sets and removes plan and arrangement inputs as the REST PUT and DELETE; bad input and a foreign credential change nothing', async (t) => {
  const plan = await createPlan({ components: ['energy', 'custom'] });
  const set = async (variables: Record<string, unknown>) => (await data(app, SET_INPUT, { o: 'PLAN', id: plan.databaseId, d: '2026-01-01', ...variables })).setCalculationInput;
  await set({ c: 'energy', value: '0.20' });
  const inputs = await set({ v: 'bonus', value: '1.5' });
  t.deepEqual(inputs.map((i: any) => [i.validFrom, i.componentType, i.varName, i.value]), [
    ['2026-01-01T00:00:00.000Z', 'custom', 'bonus', '1.50'], ['2026-01-01T00:00:00.000Z', 'energy', null, '0.20'],
  ]);
  t.deepEqual(inputs, (await rest(`/cpo-reimbursement-plan/${plan.databaseId}/calculation-input`)).map(inputFromRest));
  const removed = await set({ v: 'bonus', value: null });
  t.deepEqual(removed.map((i: any) => i.componentType), ['energy']);
  const stored = await rest(`/cpo-reimbursement-plan/${plan.databaseId}/calculation-input`);
  t.deepEqual(removed, stored.map(inputFromRest));

  const customer = await createCustomer(app, adminId);
  const arrangement = await createArrangement(app, adminId, customer.id);
  const own = (await data(app, SET_INPUT, { o: 'ARRANGEMENT', id: arrangement.id, d: '2026-06-01', c: 'energy', value: '0.25' })).setCalculationInput;
  t.deepEqual(own, (await rest(`/cpo-reimbursement-arrangement/${arrangement.id}/calculation-input`)).map(inputFromRest));
  t.deepEqual(own.map((i: any) => i.value), ['0.25']);

  const bad = { o: 'PLAN', id: plan.databaseId, d: '2026-01-01', c: 'energy' };
  t.like(await failure(SET_INPUT, { ...bad, value: '-1' }), { code: 'invalid_input', param: '$.value' });
  t.like(await failure(SET_INPUT, { ...bad, value: 'cheap' }), { code: 'invalid_input', param: '$.value' });
  t.like(await failure(SET_INPUT, bad), { code: 'validation_failed', param: '$.value' }, 'value is required, as in REST');
  t.like(await failure(SET_INPUT, { ...bad, d: '2026-02-30', value: '1' }), { code: 'invalid_input', param: '$' }, 'a bad path segment in REST');
  t.like(await failure(SET_INPUT, { ...bad, c: 'warp', value: '1' }), { code: 'invalid_input', param: '$' });
  t.like(await failure(SET_INPUT, { ...bad, c: null, v: '9lives', value: '1' }), { code: 'invalid_input', param: '$' });
  t.like(await failure(SET_INPUT, { ...bad, v: 'bonus', value: '1' }), { code: 'invalid_input', param: '$.componentType' }, 'not both');
  t.like(await failure(SET_INPUT, { ...bad, value: '9' }, foreign), { code: 'not_found', data: { setCalculationInput: null } });
  t.like(await failure(SET_INPUT, { o: 'ARRANGEMENT', id: arrangement.id, d: '2026-06-01', c: 'energy', value: null }, foreign), { code: 'not_found' });
  t.deepEqual(await rest(`/cpo-reimbursement-plan/${plan.databaseId}/calculation-input`), stored, 'nothing changed');
  t.is((await rest(`/cpo-reimbursement-arrangement/${arrangement.id}/calculation-input`)).length, 1);
});

// --- switching an arrangement's plan ---

const SWITCH = `mutation ($a: ID!, $p: ID!) { switchReimbursementPlan(arrangementId: $a, planId: $p) {
  databaseId adminId customerId planId plan { databaseId name } buyerReference validFrom validUntil defunct customFields externalReference
  externalUpdatedAt createdAt updatedAt } }`;

test('switchReimbursementPlan answers what REST then answers; an unknown plan and a foreign credential change nothing', async (t) => {
  const plan = await createPlan();
  const customer = await createCustomer(app, adminId);
  const arrangement = await createArrangement(app, adminId, customer.id);
  const switched = (await data(app, SWITCH, { a: arrangement.id, p: plan.databaseId })).switchReimbursementPlan;
  t.deepEqual(switched.plan, { databaseId: plan.databaseId, name: plan.name });
  const stored = await rest(`/cpo-reimbursement-arrangement/${arrangement.id}`);
  const { plan: _plan, ...fields } = switched;
  t.deepEqual(fields, {
    databaseId: stored.id, adminId: stored.admin_id, customerId: stored.customer_id, planId: stored.plan_id, buyerReference: stored.buyer_reference,
    validFrom: stored.valid_from, validUntil: stored.valid_until, defunct: stored.defunct, customFields: stored.custom_fields,
    externalReference: stored.external_reference, externalUpdatedAt: stored.external_updated_at, createdAt: stored.created_at, updatedAt: stored.updated_at,
  });

  const other = await createPlan();
  t.like(await failure(SWITCH, { a: arrangement.id, p: '00000000-0000-7000-8000-000000000000' }), { code: 'not_found', param: '$.planId' });
  t.like(await failure(SWITCH, { a: arrangement.id, p: other.databaseId }, foreign), { code: 'not_found', data: { switchReimbursementPlan: null } });
  t.deepEqual(await rest(`/cpo-reimbursement-arrangement/${arrangement.id}`), stored, 'nothing changed');
});

test('a readonly credential cannot call them', async (t) => {
  const readonly = await app.credential({ role: 'readonly', adminIds: [adminId] });
  const r = await graphql(app, CREATE_PLAN, { i: { adminId, name: 'Readonly' } }, readonly);
  t.is(r.status, 403);
});
