// The roaming setup over HTTP: partners (party ids normalized and unique), connections and
// agreements (validity, a provider-facilitated connection never has one), 400 with param.
import test from 'ava';
import { startTestApp, type TestApp } from '../../helpers/app.ts';
import { createRoamingAgreement, createRoamingConnection, createRoamingPartner, partySuffix } from '../../helpers/roaming-factories.ts';

let app: TestApp;
test.before(async () => { app = await startTestApp(); });
test.after.always(async () => { await app?.close(); });

const api = (path: string) => `/main/v1${path}`;

test('party ids are normalized: NL-TDR = NLTDR = NL*TDR; a party id of another partner is 400 duplicate', async (t) => {
  const s = partySuffix();
  const partner = await createRoamingPartner(app, { cpo_ids: [`nl-${s.toLowerCase()}`, `NL*${s}`], msp_ids: [`NL${s}`] });
  t.deepEqual(partner.cpo_ids, [`NL${s}`]);
  t.deepEqual(partner.msp_ids, [`NL${s}`], 'one partner may hold an id as CPO and as MSP');
  const taken = await app.request('POST', api('/roaming-partner'), { body: { name: 'Other', country: 'DE', msp_ids: ['DE*AAA', `NL-${s}`] } });
  t.is(taken.status, 400);
  t.like(taken.body, { code: 'duplicate', param: '$.msp_ids[1]' });
  const bad = await app.request('POST', api(`/roaming-partner/${partner.id}`), { body: { cpo_ids: ['NL*TOOLONG'] } });
  t.like(bad.body, { code: 'invalid_input', param: '$.cpo_ids[0]' });
  const read = await app.request('GET', api(`/roaming-partner/${partner.id}`));
  t.deepEqual(read.body.cpo_ids, [`NL${s}`], 'nothing changed');
  const updated = await app.request('POST', api(`/roaming-partner/${partner.id}`), { body: { cpo_ids: [`NL*${s}`, `BE-${s}`], name: 'Renamed' } });
  t.like(updated.body, { name: 'Renamed', cpo_ids: [`NL${s}`, `BE${s}`], country: 'NL' });
});

test('a partner lists its agreements; agreements of a connection may not overlap, adjacent ones hand over at valid_until', async (t) => {
  const partner = await createRoamingPartner(app);
  const connection = await createRoamingConnection(app, { partner_id: partner.id, url: 'https://ocpi.example.com/versions' });
  t.like(connection, { protocol: 'ocpi', kind: 'locally_owned', partner_id: partner.id });
  const first = await createRoamingAgreement(app, connection.id, { valid_until: '2026-01-01T00:00:00Z', external_reference: `RA-${partySuffix()}` });
  t.like(first, { partner_id: partner.id, role: 'msp', vat_kind: 'standard', defunct: false });
  const overlap = await app.request('POST', api('/roaming-agreement'), { body: { connection_id: connection.id, role: 'msp', valid_from: '2025-12-31T00:00:00Z' } });
  t.like(overlap.body, { code: 'overlapping_roaming_agreement', param: '$.valid_from' });
  const second = await createRoamingAgreement(app, connection.id, { valid_from: '2026-01-01T00:00:00Z' });
  const cpoSide = await createRoamingAgreement(app, connection.id, { role: 'cpo' });
  const listed = await app.request('GET', api('/roaming-partner'));
  const mine = listed.body.items.find((p: any) => p.id === partner.id);
  t.deepEqual(mine.roaming_agreements.map((a: any) => a.id), [first.id, second.id, cpoSide.id]);
  const byConnection = await app.request('GET', api(`/roaming-agreement?connection_id=${connection.id}&page_size=2`));
  t.is(byConnection.body.items.length, 2);
  t.truthy(byConnection.body.link_next);
  const defunct = await app.request('POST', api(`/roaming-agreement/${second.id}`), { body: { defunct: true } });
  t.true(defunct.body.defunct);
  const after = await app.request('POST', api(`/roaming-agreement/${second.id}`), { body: { vat_kind: 'reduced' } });
  t.is(after.body.code, 'roaming_agreement_defunct');
});

// Serial: it compares the whole connection list before and after, which the other tests add to.
test.serial('bad input is 400 with param and nothing changes; a provider-facilitated connection never has an agreement', async (t) => {
  const before = (await app.request('GET', api('/roaming-connection'))).body.items.length;
  const noPartner = await app.request('POST', api('/roaming-connection'), { body: { name: 'X', kind: 'locally_owned' } });
  t.like(noPartner.body, { code: 'invalid_input', param: '$.partner_id' });
  const badKind = await app.request('POST', api('/roaming-connection'), { body: { name: 'X', kind: 'hub' } });
  t.like(badKind.body, { code: 'validation_failed', param: '$.kind' });
  const unknownPartner = await app.request('POST', api('/roaming-connection'), {
    body: { name: 'X', kind: 'locally_owned', partner_id: '018f0000-0000-7000-8000-000000000000' },
  });
  t.like(unknownPartner.body, { code: 'not_found', param: '$.partner_id' });
  t.is((await app.request('GET', api('/roaming-connection'))).body.items.length, before);

  const hub = await createRoamingConnection(app, { kind: 'provider_facilitated', notes: 'via the hub' });
  t.like(hub, { partner_id: null, notes: 'via the hub' });
  const agreement = await app.request('POST', api('/roaming-agreement'), { body: { connection_id: hub.id, role: 'msp', valid_from: '2025-01-01T00:00:00Z' } });
  t.like(agreement.body, { code: 'invalid_input', param: '$.connection_id' });

  const partner = await createRoamingPartner(app);
  const connection = await createRoamingConnection(app, { partner_id: partner.id });
  const agreementBefore = await createRoamingAgreement(app, connection.id);
  const window = await app.request('POST', api(`/roaming-agreement/${agreementBefore.id}`), { body: { valid_until: '2024-01-01T00:00:00Z', vat_kind: 'reduced' } });
  t.like(window.body, { code: 'invalid_input', param: '$.valid_until' });
  const plan = await app.request('POST', api(`/roaming-agreement/${agreementBefore.id}`), { body: { rate_plan_id: '018f0000-0000-7000-8000-000000000000' } });
  t.like(plan.body, { code: 'not_found', param: '$.rate_plan_id' });
  const unchanged = await app.request('GET', api(`/roaming-agreement/${agreementBefore.id}`));
  t.deepEqual(unchanged.body, agreementBefore);
  const toHub = await app.request('POST', api(`/roaming-connection/${connection.id}`), { body: { kind: 'provider_facilitated' } });
  t.like(toHub.body, { code: 'invalid_input', param: '$.kind' });
  t.is((await app.request('GET', api(`/roaming-connection/${connection.id}`))).body.kind, 'locally_owned');
});

// Found by probing: a second `cpo` agreement of the partner on another connection was accepted, and
// every session of its drivers at our EVSEs then dropped out as multiple_roaming_agreements for good
// (a CPO session cannot name its connection). `msp` ones stay allowed: an MSP session names its connection.
test('a partner\'s cpo agreements may not overlap across its connections; msp ones may (a session names its connection)', async (t) => {
  const partner = await createRoamingPartner(app);
  const c1 = await createRoamingConnection(app, { partner_id: partner.id });
  const c2 = await createRoamingConnection(app, { partner_id: partner.id });
  const first = await createRoamingAgreement(app, c1.id, { role: 'cpo', valid_until: '2026-01-01T00:00:00Z' });
  const listOf = async (connectionId: string) => (await app.request('GET', api(`/roaming-agreement?connection_id=${connectionId}`))).body.items;
  const overlap = await app.request('POST', api('/roaming-agreement'), { body: { connection_id: c2.id, role: 'cpo', valid_from: '2025-12-31T00:00:00Z' } });
  t.is(overlap.status, 400);
  t.like(overlap.body, { code: 'overlapping_roaming_agreement', param: '$.valid_from' });
  t.deepEqual(await listOf(c2.id), [], 'nothing stored');
  const next = await createRoamingAgreement(app, c2.id, { role: 'cpo', valid_from: '2026-01-01T00:00:00Z' });
  t.like(next, { role: 'cpo', connection_id: c2.id }, 'adjacent ones hand over at valid_until');
  const earlier = await app.request('POST', api(`/roaming-agreement/${next.id}`), { body: { valid_from: '2025-06-01T00:00:00Z', vat_kind: 'reduced' } });
  t.like(earlier.body, { code: 'overlapping_roaming_agreement', param: '$.valid_from' });
  const longer = await app.request('POST', api(`/roaming-agreement/${first.id}`), { body: { valid_until: null } });
  t.like(longer.body, { code: 'overlapping_roaming_agreement', param: '$.valid_from' });
  t.deepEqual((await app.request('GET', api(`/roaming-agreement/${next.id}`))).body, next, 'nothing changed');
  t.deepEqual((await app.request('GET', api(`/roaming-agreement/${first.id}`))).body, first, 'nothing changed');
  await createRoamingAgreement(app, c1.id, { role: 'msp' });
  t.like(await createRoamingAgreement(app, c2.id, { role: 'msp' }), { role: 'msp' }, 'msp agreements may overlap across connections');
  // A defunct one no longer counts.
  await app.request('POST', api(`/roaming-agreement/${first.id}`), { body: { defunct: true } });
  const moved = await app.request('POST', api(`/roaming-agreement/${next.id}`), { body: { valid_from: '2025-06-01T00:00:00Z' } });
  t.is(moved.status, 200, JSON.stringify(moved.body));
});

// Found by probing: ids are accepted in any casing, but the connection's own partner by an upper-case id was 400.
test('an agreement may name its connection\'s partner by an id in any casing; another partner is still refused', async (t) => {
  const partner = await createRoamingPartner(app);
  const other = await createRoamingPartner(app);
  const connection = await createRoamingConnection(app, { partner_id: partner.id });
  const upper = await app.request('POST', api('/roaming-agreement'), { body: {
    connection_id: connection.id.toUpperCase(), partner_id: partner.id.toUpperCase(), role: 'msp', valid_from: '2025-01-01T00:00:00Z' } });
  t.is(upper.status, 200, JSON.stringify(upper.body));
  t.like(upper.body, { partner_id: partner.id, connection_id: connection.id });
  const wrong = await app.request('POST', api('/roaming-agreement'), { body: {
    connection_id: connection.id, partner_id: other.id.toUpperCase(), role: 'cpo', valid_from: '2025-01-01T00:00:00Z' } });
  t.like(wrong.body, { code: 'invalid_input', param: '$.partner_id' });
  t.deepEqual((await app.request('GET', api(`/roaming-agreement?connection_id=${connection.id}`))).body.items.map((a: any) => a.id), [upper.body.id]);
});

test('GraphQL reads partners with agreements, connections and agreements', async (t) => {
  const partner = await createRoamingPartner(app);
  const connection = await createRoamingConnection(app, { partner_id: partner.id });
  const agreement = await createRoamingAgreement(app, connection.id);
  const r = await app.request('POST', '/graphql', { body: { query: `{
    roamingPartners(first: 100) { edges { node { databaseId cpoIds roamingAgreements { databaseId role connectionId } } } }
    roamingConnections(first: 100) { edges { node { databaseId kind partnerId } } }
    roamingAgreements(first: 100) { edges { node { databaseId validFrom vatKind } } }
  }` } });
  t.falsy(r.body.errors);
  const p = r.body.data.roamingPartners.edges.find((e: any) => e.node.databaseId === partner.id).node;
  t.deepEqual(p.roamingAgreements, [{ databaseId: agreement.id, role: 'msp', connectionId: connection.id }]);
  t.true(r.body.data.roamingConnections.edges.some((e: any) => e.node.databaseId === connection.id && e.node.partnerId === partner.id));
  t.true(r.body.data.roamingAgreements.edges.some((e: any) => e.node.databaseId === agreement.id));
});

// Found by probing: a partner had no VAT number at all (a body's vat_number was ignored), so its
// reverse-charge box could never be finalized (BR-AE-02). Checked as a seller's VAT number is.
test('a partner\'s vat_number is set, merge-updated and cleared; one without its country code or blank is 400 at $.vat_number', async (t) => {
  const partner = await createRoamingPartner(app, { country: 'BE', vat_number: 'BE0123456789' });
  t.is(partner.vat_number, 'BE0123456789');
  const renamed = await app.request('POST', api(`/roaming-partner/${partner.id}`), { body: { name: 'Renamed' } });
  t.like(renamed.body, { name: 'Renamed', vat_number: 'BE0123456789' }, 'absent keeps');
  for (const bad of ['0123456789', 'be0123456789', 'XX0123456789', '   ']) {
    const r = await app.request('POST', api(`/roaming-partner/${partner.id}`), { body: { vat_number: bad } });
    t.like(r.body, { code: 'invalid_input', param: '$.vat_number' }, bad);
  }
  t.like((await app.request('POST', api('/roaming-partner'), { body: { name: 'X', country: 'DE', vat_number: '123456789' } })).body, { code: 'invalid_input', param: '$.vat_number' });
  t.is((await app.request('GET', api(`/roaming-partner/${partner.id}`))).body.vat_number, 'BE0123456789', 'nothing changed');
  const cleared = await app.request('POST', api(`/roaming-partner/${partner.id}`), { body: { vat_number: null } });
  t.is(cleared.body.vat_number, null);
  t.is((await createRoamingPartner(app)).vat_number, null);
});
