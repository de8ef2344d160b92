// Instance-wide data (instance settings, VAT rates, roaming partners, connections, agreements and
// their OCPI registration, token brands) serves every administration: a credential limited to
// administrations gets 403 `forbidden` on every write of it, REST and GraphQL alike, and the
// database does not change; the same request by a credential without a limit succeeds.
// A uniqueness spanning administrations answers 400 `duplicate` when the holder is invisible, and
// the holder's record does not change (decisions.md "Access to instance-wide data").
import pg from 'pg';
import test from 'ava';
import { startTestApp, type Auth, type TestApp } from '../../helpers/app.ts';
import { databaseFingerprint } from '../../helpers/db-fingerprint.ts';
import { createAdministration, createCustomer, createEndUser } from '../../helpers/factories.ts';
import { createEvse, createLocation } from '../../helpers/cpo-factories.ts';
import { roamingSetup, partySuffix } from '../../helpers/roaming-factories.ts';
import { graphql } from '../../schema/graphql.ts';

let app: TestApp;
let db: pg.Client;
let limited: Auth;
let adminA: string;
let adminB: string;
let setup: Awaited<ReturnType<typeof roamingSetup>>;
let vatRateId: string;

test.before(async () => {
  app = await startTestApp();
  await app.stopWorker();
  adminA = (await createAdministration(app)).id;
  adminB = (await createAdministration(app)).id;
  limited = await app.credential({ role: 'admin', adminIds: [adminB] });
  setup = await roamingSetup(app);
  const vat = await app.request('POST', '/main/v1/vat-rate', { body: { country: 'BE', vat_kind: 'standard', percentage: '21', valid_from: '2020-01-01T00:00:00Z' } });
  vatRateId = vat.body.id;
  db = new pg.Client({ connectionString: app.databaseUrl });
  await db.connect();
});
test.after.always(async () => {
  await db?.end();
  await app?.close();
});

/** The REST writes of instance-wide data, each with a body the unlimited credential may send. */
const restWrites = (): [string, string, Record<string, unknown>][] => [
  ['POST', '/instance', { roaming_enabled: true }],
  ['POST', '/instance', { name: 'Renamed by a limited credential' }],
  ['POST', '/roaming-partner', { name: 'Limited partner', country: 'NL', cpo_ids: [`NL*${partySuffix()}`] }],
  ['POST', `/roaming-partner/${setup.partner.id}`, { name: 'Renamed partner' }],
  ['POST', '/roaming-connection', { name: 'Limited connection', kind: 'locally_owned', partner_id: setup.partner.id }],
  ['POST', `/roaming-connection/${setup.connection.id}`, { notes: 'changed' }],
  ['POST', '/roaming-agreement', { connection_id: setup.connection.id, role: 'cpo', valid_from: '2025-01-01T00:00:00Z', valid_until: '2026-01-01T00:00:00Z' }],
  ['POST', `/roaming-agreement/${setup.agreement.id}`, { valid_until: '2030-01-01T00:00:00Z' }],
  ['POST', `/roaming-connection/${setup.connection.id}/ocpi/register`, {}],
  ['POST', '/vat-rate', { country: 'LU', vat_kind: 'standard', percentage: '17', valid_from: '2020-01-01T00:00:00Z' }],
  ['POST', `/vat-rate/${vatRateId}`, { percentage: '22' }],
  ['POST', '/msp-token-brand/LIMITED', { name: 'Limited brand' }],
];

test.serial('REST: a credential limited to administrations gets 403 forbidden on every instance-wide write, and nothing changes', async (t) => {
  for (const [method, path, body] of restWrites()) {
    const before = await databaseFingerprint(db);
    const response = await app.request(method, `/main/v1${path}`, { body, auth: limited });
    t.is(response.status, 403, `${method} ${path}: ${JSON.stringify(response.body)}`);
    t.is(response.body.code, 'forbidden', `${method} ${path}`);
    t.is(await databaseFingerprint(db), before, `${method} ${path} changed nothing`);
  }
  const instance = (await app.request('GET', '/main/v1/instance', { auth: limited })).body;
  t.like(instance, { roaming_enabled: false, name: 'unnamed instance' }, 'the limited credential still reads the instance');
});

const PARTNER = 'mutation ($i: RoamingPartnerInput!) { createRoamingPartner(input: $i) { id } }';
const UPDATE_PARTNER = 'mutation ($id: ID!, $i: RoamingPartnerInput!) { updateRoamingPartner(id: $id, input: $i) { id } }';
const CONNECTION = 'mutation ($i: RoamingConnectionInput!) { createRoamingConnection(input: $i) { id } }';
const UPDATE_CONNECTION = 'mutation ($id: ID!, $i: RoamingConnectionInput!) { updateRoamingConnection(id: $id, input: $i) { id } }';
const AGREEMENT = 'mutation ($i: CreateRoamingAgreementInput!) { createRoamingAgreement(input: $i) { id } }';
const UPDATE_AGREEMENT = 'mutation ($id: ID!, $i: RoamingAgreementInput!) { updateRoamingAgreement(id: $id, input: $i) { id } }';
const INSTANCE = 'mutation ($i: InstanceInput!) { updateInstance(input: $i) { roamingEnabled } }';
const VAT = 'mutation ($i: VatRateInput!) { createVatRate(input: $i) { id } }';
const UPDATE_VAT = 'mutation ($id: ID!, $i: VatRateInput!) { updateVatRate(id: $id, input: $i) { id } }';

const graphqlWrites = (): [string, string, Record<string, unknown>][] => [
  ['updateInstance', INSTANCE, { i: { roamingEnabled: true } }],
  ['createRoamingPartner', PARTNER, { i: { name: 'Graph partner', country: 'NL', cpoIds: [`NL*${partySuffix()}`] } }],
  ['updateRoamingPartner', UPDATE_PARTNER, { id: setup.partner.id, i: { name: 'Graph rename' } }],
  ['createRoamingConnection', CONNECTION, { i: { name: 'Graph connection', kind: 'locally_owned', partnerId: setup.partner.id } }],
  ['updateRoamingConnection', UPDATE_CONNECTION, { id: setup.connection.id, i: { notes: 'graph' } }],
  ['createRoamingAgreement', AGREEMENT, { i: { connectionId: setup.connection.id, role: 'cpo', validFrom: '2026-01-01T00:00:00Z' } }],
  ['updateRoamingAgreement', UPDATE_AGREEMENT, { id: setup.agreement.id, i: { validUntil: '2030-01-01T00:00:00Z' } }],
  ['createVatRate', VAT, { i: { country: 'LU', vatKind: 'STANDARD', percentage: '17', validFrom: '2020-01-01T00:00:00Z' } }],
  ['updateVatRate', UPDATE_VAT, { id: vatRateId, i: { percentage: '22' } }],
];

test.serial('GraphQL: a credential limited to administrations gets a forbidden error on every instance-wide mutation, and nothing changes', async (t) => {
  for (const [field, query, variables] of graphqlWrites()) {
    const before = await databaseFingerprint(db);
    const response = await graphql(app, query, variables, limited);
    t.is(response.body.data?.[field], null, `${field}: ${JSON.stringify(response.body)}`);
    t.is(response.body.errors?.[0]?.extensions?.code, 'forbidden', `${field}: ${JSON.stringify(response.body.errors)}`);
    t.is(await databaseFingerprint(db), before, `${field} changed nothing`);
  }
});

test.serial('the same writes by a credential without an administration limit succeed (the refusals above are about the limit)', async (t) => {
  const unlimited = await app.credential({ role: 'admin' });
  for (const [field, query, variables] of graphqlWrites()) {
    const response = await graphql(app, query, variables, unlimited);
    t.falsy(response.body.errors, `${field}: ${JSON.stringify(response.body.errors)}`);
  }
  for (const [method, path, body] of restWrites()) {
    const renamed = path === '/vat-rate' ? { ...body, country: 'DK' } : body;
    const response = await app.request(method, `/main/v1${path}`, { body: renamed, auth: unlimited });
    t.is(response.status, 200, `${method} ${path}: ${JSON.stringify(response.body)}`);
  }
  t.true((await app.request('GET', '/main/v1/instance')).body.roaming_enabled);
});

// --- uniqueness across administrations ---

const SAVE_LOCATION = 'mutation ($id: String!, $i: EvseLocationInput!) { saveEvseLocation(locationId: $id, input: $i) { locationId } }';
const SAVE_EVSE = 'mutation ($uid: String!, $i: EvseInput!) { saveEvse(evseUid: $uid, input: $i) { evseUid evseId } }';
const CREATE_CUSTOMER = 'mutation ($i: CustomerInput!) { createCustomer(input: $i) { id } }';

test.serial('a value held in an administration the caller cannot see is 400 duplicate at its member, and the holder does not change', async (t) => {
  const n = partySuffix();
  const theirs = {
    endUser: await createEndUser(app, adminA, { username: `taken-${n}`, email: `taken-${n}@example.com` }),
    customer: await createCustomer(app, adminA),
    location: await createLocation(app, adminA, { location_id: `LOC-TAKEN-${n}` }),
    evse: await createEvse(app, adminA, { evse_uid: `EVSE-TAKEN-${n}`, evse_id: `NL*TKN*E${n}` }),
  };
  const taken = theirs.customer.external_reference as string;
  const mine = {
    customer: await createCustomer(app, adminB),
    endUser: await createEndUser(app, adminB),
    evse: await createEvse(app, adminB),
  };
  const cases: [string, string, Record<string, unknown>, string][] = [
    ['POST', '/end-user', { admin_id: adminB, username: `TAKEN-${n}` }, '$.username'],
    ['POST', '/end-user', { admin_id: adminB, username: `free-${n}`, email: `Taken-${n}@example.com` }, '$.email'],
    ['POST', `/end-user/${mine.endUser.id}`, { username: `taken-${n}` }, '$.username'],
    ['POST', '/customer', { admin_id: adminB, name: 'Copy', country: 'NL', external_reference: taken.toUpperCase() }, '$.external_reference'],
    ['POST', `/customer/ext_ref.${taken.toLowerCase()}`, { admin_id: adminB, name: 'Copy', country: 'NL' }, '$.external_reference'],
    ['POST', `/customer/${mine.customer.id}`, { external_reference: taken.toUpperCase() }, '$.external_reference'],
    ['POST', '/cpo-evse-location', { admin_id: adminB, location_id: `LOC-TAKEN-${n}` }, '$.location_id'],
    ['POST', '/cpo-evse', { admin_id: adminB, evse_uid: `EVSE-TAKEN-${n}` }, '$.evse_uid'],
    ['POST', '/cpo-evse', { admin_id: adminB, evse_uid: `EVSE-FREE-${n}`, evse_id: `NL*TKN*E${n}` }, '$.evse_id'],
    ['POST', `/cpo-evse/${mine.evse.evse_uid}`, { evse_id: `nltkne${n}` }, '$.evse_id'],
  ];
  for (const [method, path, body, param] of cases) {
    const before = await databaseFingerprint(db);
    const response = await app.request(method, `/main/v1${path}`, { body, auth: limited });
    t.is(response.status, 400, `${method} ${path} ${JSON.stringify(body)}: ${JSON.stringify(response.body)}`);
    t.is(response.body.code, 'duplicate', `${method} ${path} ${JSON.stringify(body)}`);
    t.is(response.body.param ?? response.body.details?.[0]?.param, param, `${method} ${path} ${JSON.stringify(body)}`);
    t.notRegex(JSON.stringify(response.body), new RegExp(`${adminA}|${theirs.evse.id}|${theirs.location.id}|${theirs.customer.id}|${theirs.endUser.id}`),
      'nothing of the holder is told');
    t.is(await databaseFingerprint(db), before, `${method} ${path} changed nothing`);
  }
  const graphCases: [string, string, Record<string, unknown>, string][] = [
    ['saveEvseLocation', SAVE_LOCATION, { id: `LOC-TAKEN-${n}`, i: { adminId: adminB, name: 'Mine now' } }, '$.locationId'],
    ['saveEvse', SAVE_EVSE, { uid: mine.evse.evse_uid, i: { evseId: `NL*TKN*E${n}` } }, '$.input.evseId'],
    ['createCustomer', CREATE_CUSTOMER, { i: { adminId: adminB, name: 'Copy', country: 'NL', externalReference: taken } }, '$.input.externalReference'],
  ];
  for (const [field, query, variables, param] of graphCases) {
    const before = await databaseFingerprint(db);
    const response = await graphql(app, query, variables, limited);
    const [error] = response.body.errors ?? [];
    t.is(response.body.data?.[field], null, `${field}: ${JSON.stringify(response.body)}`);
    t.is(error?.extensions?.code, 'duplicate', `${field}: ${JSON.stringify(response.body.errors)}`);
    t.is(error?.extensions?.param ?? error?.extensions?.details?.[0]?.param, param, field);
    t.is(await databaseFingerprint(db), before, `${field} changed nothing`);
  }
  t.is((await app.request('GET', `/main/v1/cpo-evse/${theirs.evse.evse_uid}`)).body.evse_id, `NL*TKN*E${n}`, 'the holder keeps its EVSE ID');
});
