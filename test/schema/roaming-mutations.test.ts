// GraphQL writes of the roaming setup: create and merge-update of partners, connections and
// agreements through the services REST calls; domain errors answered like the other mutations
// (extensions.code and param below `input`, nothing changed); REST GET shows what GraphQL wrote.
import test from 'ava';
import { startTestApp, type Auth, type TestApp } from '../helpers/app.ts';
import { createAdministration } from '../helpers/factories.ts';
import { createRoamingPartner, partySuffix } from '../helpers/roaming-factories.ts';
import { createRatePlan } from '../helpers/session-factories.ts';
import { data, failure as failureOf, graphql, restBody } from './graphql.ts';

let app: TestApp;
test.before(async () => { app = await startTestApp(); });
test.after.always(async () => { await app?.close(); });

const rest = (path: string) => restBody(app, path);

const failure = (query: string, variables: Record<string, unknown>, auth?: Auth) => failureOf(app, query, variables, auth);

// --- partners ---

const PARTNER_FIELDS = 'id databaseId name country cpoIds mspIds billingEmail vatNumber externalReference createdAt updatedAt roamingAgreements { databaseId }';
const CREATE_PARTNER = `mutation ($i: RoamingPartnerInput!) { createRoamingPartner(input: $i) { ${PARTNER_FIELDS} } }`;
const UPDATE_PARTNER = `mutation ($id: ID!, $i: RoamingPartnerInput!) { updateRoamingPartner(id: $id, input: $i) { ${PARTNER_FIELDS} } }`;

const partnerFromRest = (p: any) => ({
  databaseId: p.id, name: p.name, country: p.country, cpoIds: p.cpo_ids, mspIds: p.msp_ids, billingEmail: p.billing_email, vatNumber: p.vat_number,
  externalReference: p.external_reference, createdAt: p.created_at, updatedAt: p.updated_at,
  roamingAgreements: p.roaming_agreements.map((a: any) => ({ databaseId: a.id })),
});
const withoutId = ({ id: _id, ...rest }: any) => rest;

test('createRoamingPartner and updateRoamingPartner write what REST then answers; a party id of another partner is duplicate, nothing changed', async (t) => {
  const s = partySuffix();
  const created = (await data(app, CREATE_PARTNER, { i: {
    name: 'Graph Roamer', country: 'de', cpoIds: [`de-${s.toLowerCase()}`, `DE*${s}`], billingEmail: 'billing@roamer.example', externalReference: `GRP-${s}`,
    vatNumber: 'DE123456789',
  } })).createRoamingPartner;
  t.like(created, { name: 'Graph Roamer', country: 'DE', cpoIds: [`DE${s}`], mspIds: [], vatNumber: 'DE123456789', roamingAgreements: [] });
  t.deepEqual(withoutId(created), partnerFromRest(await rest(`/roaming-partner/${created.databaseId}`)));

  // By global ID; merge-update keeps what the input leaves out.
  const updated = (await data(app, UPDATE_PARTNER, { id: created.id, i: { mspIds: [`DE*${s}`], billingEmail: null } })).updateRoamingPartner;
  t.like(updated, { name: 'Graph Roamer', cpoIds: [`DE${s}`], mspIds: [`DE${s}`], billingEmail: null, vatNumber: 'DE123456789', externalReference: `GRP-${s}` });
  const stored = await rest(`/roaming-partner/${created.databaseId}`);
  t.deepEqual(withoutId(updated), partnerFromRest(stored));

  // Domain errors, answered like the other mutations: code, param below input, null data, nothing changed.
  const other = await createRoamingPartner(app);
  t.like(await failure(UPDATE_PARTNER, { id: other.id, i: { name: 'Taker', cpoIds: ['NL*AAA', `de*${s}`] } }),
    { status: 200, code: 'duplicate', param: '$.input.cpoIds[1]', data: { updateRoamingPartner: null } });
  t.like(await failure(CREATE_PARTNER, { i: { name: 'Copy', country: 'NL', mspIds: [`DE-${s}`] } }), { code: 'duplicate', param: '$.input.mspIds[0]' });
  t.like(await failure(CREATE_PARTNER, { i: { name: 'Bad', country: 'NL', cpoIds: ['NL*TOOLONG'] } }), { code: 'invalid_input', param: '$.input.cpoIds[0]' });
  t.like(await failure(CREATE_PARTNER, { i: { name: 'Nowhere' } }), { code: 'invalid_input', param: '$.input.country' });
  t.like(await failure(CREATE_PARTNER, { i: { name: 'x'.repeat(256), country: 'NL' } }), { code: 'validation_failed', param: '$.input.name' });
  t.like(await failure(CREATE_PARTNER, { i: { name: 'Mail', country: 'NL', billingEmail: 'no mail' } }), { code: 'validation_failed', param: '$.input.billingEmail' });
  t.like(await failure(UPDATE_PARTNER, { id: created.id, i: { vatNumber: '123456789' } }), { code: 'invalid_input', param: '$.input.vatNumber' });
  t.like(await failure(CREATE_PARTNER, { i: { name: 'Ref', country: 'NL', externalReference: `grp-${s}` } }), { code: 'duplicate' });
  t.like(await failure(UPDATE_PARTNER, { id: '018f0000-0000-7000-8000-000000000000', i: { name: 'Ghost' } }), { code: 'not_found' });
  t.deepEqual(await rest(`/roaming-partner/${created.databaseId}`), stored, 'nothing changed');
  t.deepEqual((await rest(`/roaming-partner/${other.id}`)).cpo_ids, other.cpo_ids, 'nothing changed');
});

// --- connections ---

const CONNECTION_FIELDS = 'id databaseId name kind protocol partnerId url notes externalReference createdAt updatedAt';
const CREATE_CONNECTION = `mutation ($i: RoamingConnectionInput!) { createRoamingConnection(input: $i) { ${CONNECTION_FIELDS} } }`;
const UPDATE_CONNECTION = `mutation ($id: ID!, $i: RoamingConnectionInput!) { updateRoamingConnection(id: $id, input: $i) { ${CONNECTION_FIELDS} } }`;

const connectionFromRest = (c: any) => ({
  databaseId: c.id, name: c.name, kind: c.kind, protocol: c.protocol, partnerId: c.partner_id, url: c.url, notes: c.notes,
  externalReference: c.external_reference, createdAt: c.created_at, updatedAt: c.updated_at,
});

test('createRoamingConnection and updateRoamingConnection write what REST then answers; the setup rules answer with their param', async (t) => {
  const partner = (await data(app, CREATE_PARTNER, { i: { name: 'Conn Partner', country: 'NL' } })).createRoamingPartner;
  const created = (await data(app, CREATE_CONNECTION, { i: {
    name: 'Direct', kind: 'locally_owned', partnerId: partner.id, url: 'https://ocpi.example.com/versions',
  } })).createRoamingConnection;
  t.like(created, { name: 'Direct', kind: 'locally_owned', protocol: 'ocpi', partnerId: partner.databaseId, notes: null });
  t.deepEqual(withoutId(created), connectionFromRest(await rest(`/roaming-connection/${created.databaseId}`)));

  // By REST id.
  const updated = (await data(app, UPDATE_CONNECTION, { id: created.databaseId, i: { notes: 'Peering since 2026', url: null } })).updateRoamingConnection;
  t.like(updated, { name: 'Direct', notes: 'Peering since 2026', url: null, partnerId: partner.databaseId });
  const stored = await rest(`/roaming-connection/${created.databaseId}`);
  t.deepEqual(withoutId(updated), connectionFromRest(stored));

  const hub = (await data(app, CREATE_CONNECTION, { i: { name: 'Hub', kind: 'provider_facilitated' } })).createRoamingConnection;
  t.like(hub, { kind: 'provider_facilitated', partnerId: null });

  t.like(await failure(CREATE_CONNECTION, { i: { name: 'Lonely', kind: 'locally_owned' } }), { code: 'invalid_input', param: '$.input.partnerId' });
  t.like(await failure(CREATE_CONNECTION, { i: { name: 'X', kind: 'hub' } }), { code: 'validation_failed', param: '$.input.kind' });
  t.like(await failure(CREATE_CONNECTION, { i: { name: 'X', kind: 'locally_owned', partnerId: '018f0000-0000-7000-8000-000000000000' } }),
    { code: 'not_found', param: '$.input.partnerId' });
  t.like(await failure(UPDATE_CONNECTION, { id: created.id, i: { url: 'not a url', name: 'Renamed' } }), { code: 'validation_failed', param: '$.input.url' });
  t.like(await failure(UPDATE_CONNECTION, { id: created.id, i: { kind: null } }), { code: 'invalid_input', param: '$.input.kind' });
  t.deepEqual(await rest(`/roaming-connection/${created.databaseId}`), stored, 'nothing changed');
});

// --- agreements ---

const AGREEMENT_FIELDS = 'id databaseId connectionId partnerId role validFrom validUntil defunct ratePlanId vatKind externalReference createdAt updatedAt';
const CREATE_AGREEMENT = `mutation ($i: CreateRoamingAgreementInput!) { createRoamingAgreement(input: $i) { ${AGREEMENT_FIELDS} } }`;
const UPDATE_AGREEMENT = `mutation ($id: ID!, $i: RoamingAgreementInput!) { updateRoamingAgreement(id: $id, input: $i) { ${AGREEMENT_FIELDS} } }`;

const agreementFromRest = (a: any) => ({
  databaseId: a.id, connectionId: a.connection_id, partnerId: a.partner_id, role: a.role, validFrom: a.valid_from, validUntil: a.valid_until,
  defunct: a.defunct, ratePlanId: a.rate_plan_id, vatKind: a.vat_kind, externalReference: a.external_reference, createdAt: a.created_at, updatedAt: a.updated_at,
});

test('createRoamingAgreement and updateRoamingAgreement write what REST then answers; an overlap, a hub and a defunct agreement are refused', async (t) => {
  const partner = (await data(app, CREATE_PARTNER, { i: { name: 'Agreement Partner', country: 'NL' } })).createRoamingPartner;
  const connection = (await data(app, CREATE_CONNECTION, { i: { name: 'Agreed', kind: 'locally_owned', partnerId: partner.id } })).createRoamingConnection;
  const hub = (await data(app, CREATE_CONNECTION, { i: { name: 'Hub', kind: 'provider_facilitated' } })).createRoamingConnection;
  const ratePlanId = await createRatePlan(app, [{ valid_from: '2025-01-01T00:00:00Z', definition: { rates: { energy: { price: '0.30' } }, rules: [] } }]);
  const s = partySuffix();

  const created = (await data(app, CREATE_AGREEMENT, { i: {
    connectionId: connection.id, role: 'msp', validFrom: '2026-01-01T01:00:00+01:00', validUntil: '2027-01-01T00:00:00Z', ratePlanId, externalReference: `GRA-${s}`,
  } })).createRoamingAgreement;
  t.like(created, { connectionId: connection.databaseId, partnerId: partner.databaseId, role: 'msp', validFrom: '2026-01-01T00:00:00.000Z',
    defunct: false, ratePlanId, vatKind: 'standard' });
  t.deepEqual(withoutId(created), agreementFromRest(await rest(`/roaming-agreement/${created.databaseId}`)));

  const updated = (await data(app, UPDATE_AGREEMENT, { id: created.id, i: { vatKind: 'reduced', ratePlanId: null } })).updateRoamingAgreement;
  t.like(updated, { vatKind: 'reduced', ratePlanId: null, validUntil: '2027-01-01T00:00:00.000Z' });
  const stored = await rest(`/roaming-agreement/${created.databaseId}`);
  t.deepEqual(withoutId(updated), agreementFromRest(stored));
  const listed = await rest(`/roaming-partner/${partner.databaseId}`);
  t.deepEqual(listed.roaming_agreements.map((a: any) => a.id), [created.databaseId]);

  t.like(await failure(CREATE_AGREEMENT, { i: { connectionId: connection.databaseId, partnerId: partner.id, role: 'msp', validFrom: '2026-06-01T00:00:00Z' } }),
    { status: 200, code: 'overlapping_roaming_agreement', param: '$.input.validFrom', data: { createRoamingAgreement: null } });
  t.like(await failure(CREATE_AGREEMENT, { i: { connectionId: hub.id, role: 'msp', validFrom: '2026-01-01T00:00:00Z' } }),
    { code: 'invalid_input', param: '$.input.connectionId' });
  const otherPartner = await createRoamingPartner(app);
  t.like(await failure(CREATE_AGREEMENT, { i: { connectionId: connection.id, partnerId: otherPartner.id, role: 'cpo', validFrom: '2026-01-01T00:00:00Z' } }),
    { code: 'invalid_input', param: '$.input.partnerId' });
  t.like(await failure(CREATE_AGREEMENT, { i: { connectionId: connection.id, role: 'both', validFrom: '2026-01-01T00:00:00Z' } }),
    { code: 'validation_failed', param: '$.input.role' });
  t.like(await failure(UPDATE_AGREEMENT, { id: created.id, i: { validUntil: '2025-01-01T00:00:00Z' } }), { code: 'invalid_input' });
  t.like(await failure(UPDATE_AGREEMENT, { id: created.id, i: { validFrom: null } }), { code: 'invalid_input', param: '$.input.validFrom' });
  t.like(await failure(UPDATE_AGREEMENT, { id: created.id, i: { ratePlanId: '018f0000-0000-7000-8000-000000000000' } }),
    { code: 'not_found', param: '$.input.ratePlanId' });
  t.deepEqual(await rest(`/roaming-agreement/${created.databaseId}`), stored, 'nothing changed');
  t.is((await rest(`/roaming-agreement?connection_id=${connection.databaseId}`)).items.length, 1, 'nothing created');

  // Adjacent agreements hand over at validUntil; defunct is final.
  const next = (await data(app, CREATE_AGREEMENT, { i: { connectionId: connection.id, role: 'msp', validFrom: '2027-01-01T00:00:00Z' } })).createRoamingAgreement;
  const ended = (await data(app, UPDATE_AGREEMENT, { id: next.databaseId, i: { defunct: true } })).updateRoamingAgreement;
  t.true(ended.defunct);
  t.deepEqual(withoutId(ended), agreementFromRest(await rest(`/roaming-agreement/${next.databaseId}`)));
  t.like(await failure(UPDATE_AGREEMENT, { id: next.id, i: { vatKind: 'standard' } }), { code: 'roaming_agreement_defunct' });
});

test('a readonly credential may not write the roaming setup (403); one limited to administrations gets forbidden, like REST', async (t) => {
  const readonly = await app.credential({ role: 'readonly' });
  const refused = await graphql(app, CREATE_PARTNER, { i: { name: 'Read Only', country: 'NL' } }, readonly);
  t.is(refused.status, 403);
  const limited = await app.credential({ role: 'admin', adminIds: [(await createAdministration(app)).id] });
  const name = `Limited ${partySuffix()}`;
  t.like(await failure(CREATE_PARTNER, { i: { name, country: 'NL' } }, limited), { code: 'forbidden', data: { createRoamingPartner: null } });
  t.false((await rest('/roaming-partner?page_size=1000')).items.some((p: any) => p.name === name), 'nothing created');
  const r = await graphql(app, CREATE_PARTNER, { i: { name: 'Unlimited', country: 'NL' } });
  t.falsy(r.body.errors, JSON.stringify(r.body));
});
