import test from 'ava';
import { startTestApp, type Auth, type TestApp } from '../../helpers/app.ts';
import { createAdministration, createTokenSubscription, insertToken, insertTokenLink, insertTokenSeries, insertTokenSubscription } from '../../helpers/factories.ts';
import { failure as graphqlFailure } from '../../schema/graphql.ts';

let app: TestApp;
let adminId: string;
test.before(async () => {
  app = await startTestApp();
  adminId = (await createAdministration(app)).id;
  for (const [code, name] of [['ACME', 'Acme cards'], ['Volt', 'Volt']]) {
    const brand = await app.request('POST', `/main/v1/msp-token-brand/${code}`, { body: { name } });
    if (brand.status !== 200) throw new Error(JSON.stringify(brand.body));
  }
});
test.after.always(async () => { await app?.close(); });

/** An administration of its own with a credential limited to it: lists see only its tokens. */
async function isolated(): Promise<{ adminId: string; auth: Auth }> {
  const admin = (await createAdministration(app)).id;
  return { adminId: admin, auth: await app.credential({ role: 'admin', adminIds: [admin] }) };
}

test('the list pages by evco_id; after is compared case-insensitively', async (t) => {
  const { adminId: own, auth } = await isolated();
  for (const evcoId of ['NlPgA000000003', 'nlpga000000001', 'NLPGA000000002']) await insertToken(app, own, { evcoId });

  const first = await app.request('GET', '/main/v1/msp-token?page_size=2', { auth });
  t.is(first.status, 200, JSON.stringify(first.body));
  t.deepEqual(first.body.items.map((i: any) => i.evco_id), ['nlpga000000001', 'NLPGA000000002']);
  t.is(first.body.page_size, 2);
  t.is(first.body.link_next, '/main/v1/msp-token?after=NLPGA000000002&page_size=2');
  t.is(first.headers.get('link'), '</main/v1/msp-token?after=NLPGA000000002&page_size=2>; rel="next"');
  t.false('links' in first.body.items[0], 'no undocumented links');

  const second = await app.request('GET', first.body.link_next, { auth });
  t.deepEqual(second.body.items.map((i: any) => i.evco_id), ['NlPgA000000003']);
  t.false('link_next' in second.body);

  const otherCasing = await app.request('GET', '/main/v1/msp-token?after=NLPGA000000001', { auth });
  t.deepEqual(otherCasing.body.items.map((i: any) => i.evco_id), ['NLPGA000000002', 'NlPgA000000003']);
  const separators = await app.request('GET', '/main/v1/msp-token?after=nl-pga-000000002', { auth });
  t.deepEqual(separators.body.items.map((i: any) => i.evco_id), ['NlPgA000000003']);

  const unknown = await app.request('GET', '/main/v1/msp-token?after=NLPGA000000009', { auth });
  t.is(unknown.status, 400);
  t.is(unknown.body.query_param, 'after');
});

test('the used filter: tokens ever linked', async (t) => {
  const { adminId: own, auth } = await isolated();
  await insertToken(app, own, { evcoId: 'NLUSD000000001', firstLinkedAt: new Date('2026-01-01T00:00:00Z') });
  await insertToken(app, own, { evcoId: 'NLUSD000000002' });
  await insertToken(app, own, { evcoId: 'NLUSD000000003', firstLinkedAt: new Date('2026-02-01T00:00:00Z') });

  const used = await app.request('GET', '/main/v1/msp-token?used=true&page_size=1', { auth });
  t.deepEqual(used.body.items.map((i: any) => [i.evco_id, i.used]), [['NLUSD000000001', true]]);
  t.is(used.body.link_next, '/main/v1/msp-token?used=true&after=NLUSD000000001&page_size=1');
  const usedNext = await app.request('GET', used.body.link_next, { auth });
  t.deepEqual(usedNext.body.items.map((i: any) => i.evco_id), ['NLUSD000000003']);

  const unused = await app.request('GET', '/main/v1/msp-token?used=false', { auth });
  t.deepEqual(unused.body.items.map((i: any) => [i.evco_id, i.used]), [['NLUSD000000002', false]]);
  const bad = await app.request('GET', '/main/v1/msp-token?used=yes', { auth });
  t.is(bad.status, 400);
  t.is(bad.body.query_param, 'used');
});

test('look-ups ignore casing, separators and the check digit; the stored casing is answered', async (t) => {
  await insertToken(app, adminId, { evcoId: 'NlTnMc00122045K', uid: 'AABBCCDD', uidType: 'rfid_4byte', brandCode: 'ACME' });
  for (const path of ['NL-TNM-C00122045-K', 'nltnmc00122045k', 'NL*TNM*C00122045', 'nl-tnm-c00122045']) {
    const found = await app.request('GET', `/main/v1/msp-token/${encodeURIComponent(path)}`);
    t.is(found.status, 200, path);
    t.is(found.body.evco_id, 'NlTnMc00122045K');
  }
  const found = await app.request('GET', '/main/v1/msp-token/NLTNMC00122045K');
  t.like(found.body, {
    evco_id_formatted: 'NL-TNM-C00122045-K', uid: 'AABBCCDD', token_uid_type_id: 'rfid_4byte', brand_code: 'ACME', form_factor: 'card',
    token_series_id: null, is_currently_valid: false, current_admin_id: adminId, initial_admin_id: adminId,
    charge_auth_requests_blocked: false, fulfilment: 'none', activated_at: null, vehicle_vin: null, used: false,
  });
  t.regex(found.body.created_at, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);

  // Stored without check digit: found with it too.
  await insertToken(app, adminId, { evcoId: 'DE8AACA2B3C4D5' });
  const withCheck = await app.request('GET', '/main/v1/msp-token/DE-8AA-CA2B3C4D5-L');
  t.is(withCheck.body.evco_id, 'DE8AACA2B3C4D5');
  t.is(withCheck.body.evco_id_formatted, 'DE-8AA-CA2B3C4D5');

  for (const path of ['NL-TNM-C00122045-X', 'NLTNMC00122046', 'nonsense']) {
    const missing = await app.request('GET', `/main/v1/msp-token/${path}`);
    t.is(missing.status, 400, path);
    t.is(missing.body.code, 'not_found');
  }
});

test('merge-update changes what is present; brand codes must exist; form_factor stays', async (t) => {
  const { evcoId } = await insertToken(app, adminId, { brandCode: 'ACME', vehicleVin: 'WVWZZZ1JZXW000001' });
  const path = `/main/v1/msp-token/${evcoId}`;
  const updated = await app.request('POST', path, { body: { brand_code: 'volt', uid: 'deadbeef', token_uid_type_id: 'rfid_4byte', form_factor: 'keychain' } });
  t.is(updated.status, 200, JSON.stringify(updated.body));
  t.like(updated.body, { brand_code: 'Volt', uid: 'DEADBEEF', token_uid_type_id: 'rfid_4byte', form_factor: 'card', vehicle_vin: 'WVWZZZ1JZXW000001' });

  const unknownBrand = await app.request('POST', path, { body: { brand_code: 'NOPE', uid: '11223344' } });
  t.is(unknownBrand.status, 400);
  t.is(unknownBrand.body.code, 'not_found');
  t.is(unknownBrand.body.param, '$.brand_code');
  t.is((await app.request('GET', path)).body.uid, 'DEADBEEF', 'nothing changed');

  const badUid = await app.request('POST', path, { body: { uid: 'XYZ' } });
  t.is(badUid.status, 400);
  t.is(badUid.body.param, '$.uid');
  const badVin = await app.request('POST', path, { body: { vehicle_vin: 'IOQ' } });
  t.is(badVin.status, 400);
  t.is(badVin.body.param, '$.vehicle_vin');
  const badType = await app.request('POST', path, { body: { token_uid_type_id: 'barcode' } });
  t.is(badType.status, 400);
  t.is(badType.body.param, '$.token_uid_type_id');

  const cleared = await app.request('POST', path, { body: { brand_code: null, vehicle_vin: null } });
  t.like(cleared.body, { brand_code: null, vehicle_vin: null, uid: 'DEADBEEF' });
});

test('an older external_updated_at is ignored', async (t) => {
  const { evcoId } = await insertToken(app, adminId);
  const path = `/main/v1/msp-token/${evcoId}`;
  const first = await app.request('POST', path, { body: { brand_code: 'ACME', external_updated_at: '2026-03-01T10:00:00+01:00' } });
  t.is(first.body.external_updated_at, '2026-03-01T09:00:00.000Z');
  const stale = await app.request('POST', path, { body: { brand_code: 'Volt', external_updated_at: '2026-02-01T00:00:00Z' } });
  t.is(stale.status, 200);
  t.is(stale.body.brand_code, 'ACME');
  const fresh = await app.request('POST', path, { body: { brand_code: 'Volt', external_updated_at: '2026-03-02T00:00:00Z' } });
  t.is(fresh.body.brand_code, 'Volt');
});

test('deprecated PUT resets omitted fields; form_factor is kept', async (t) => {
  const { evcoId } = await insertToken(app, adminId, { brandCode: 'ACME', uid: 'AABBCCDD', uidType: 'rfid_4byte', formFactor: 'keychain' });
  const replaced = await app.request('PUT', `/main/v1/msp-token/${evcoId.toLowerCase()}`, { body: { vehicle_vin: 'wvwzzz1jzxw000002' } });
  t.is(replaced.status, 200, JSON.stringify(replaced.body));
  t.like(replaced.body, { brand_code: null, uid: null, token_uid_type_id: null, vehicle_vin: 'WVWZZZ1JZXW000002', form_factor: 'keychain' });
});

test('POST on an unknown evco_id creates nothing', async (t) => {
  const response = await app.request('POST', '/main/v1/msp-token/NL-NEW-000000001', { body: { brand_code: 'ACME' } });
  t.is(response.status, 400);
  t.is(response.body.code, 'not_found');
  t.is((await app.request('GET', '/main/v1/msp-token/NLNEW000000001')).status, 400);
});

test('block and unblock charge authorization; the removed DELETE answers 405', async (t) => {
  const { evcoId } = await insertToken(app, adminId);
  const blocked = await app.request('POST', `/main/v1/msp-token/${evcoId}/block-charge-auth-requests`);
  t.is(blocked.status, 200);
  t.true(blocked.body.charge_auth_requests_blocked);
  t.true((await app.request('POST', `/main/v1/msp-token/${evcoId}/block-charge-auth-requests`)).body.charge_auth_requests_blocked, 'idempotent');
  const unblocked = await app.request('POST', `/main/v1/msp-token/${evcoId}/unblock-charge-auth-requests`);
  t.false(unblocked.body.charge_auth_requests_blocked);

  const removed = await app.request('DELETE', `/main/v1/msp-token/${evcoId}/block-charge-auth-requests`);
  t.is(removed.status, 404, 'removed endpoints answer 404');
  const unknown = await app.request('POST', '/main/v1/msp-token/NLZZZ000000000/block-charge-auth-requests');
  t.is(unknown.status, 400);
  t.is(unknown.body.code, 'not_found');
});

test('is_currently_valid follows links, subscriptions and blocks', async (t) => {
  const { adminId: own, auth } = await isolated();
  const subscription = await insertTokenSubscription(app, own, { validFrom: new Date('2020-01-01T00:00:00Z') });
  const linked = await insertToken(app, own, { evcoId: 'NLVAL000000001' });
  const ended = await insertToken(app, own, { evcoId: 'NLVAL000000002' });
  await insertToken(app, own, { evcoId: 'NLVAL000000003' });
  await insertTokenLink(app, own, subscription.id, linked.id);
  await insertTokenLink(app, own, subscription.id, ended.id, { validUntil: new Date('2021-01-01T00:00:00Z') });

  const list = await app.request('GET', '/main/v1/msp-token', { auth });
  t.deepEqual(list.body.items.map((i: any) => [i.evco_id, i.is_currently_valid]), [
    ['NLVAL000000001', true], ['NLVAL000000002', false], ['NLVAL000000003', false],
  ]);
  await app.request('POST', '/main/v1/msp-token/NLVAL000000001/block-charge-auth-requests', { auth });
  t.false((await app.request('GET', '/main/v1/msp-token/NLVAL000000001', { auth })).body.is_currently_valid);
  await app.request('POST', '/main/v1/msp-token/NLVAL000000001/unblock-charge-auth-requests', { auth });
  await app.request('POST', `/main/v1/customer/${subscription.customerId}/block-charge-auth-requests`, { auth });
  t.false((await app.request('GET', '/main/v1/msp-token/NLVAL000000001', { auth })).body.is_currently_valid);
});

test('a credential of another administration sees no tokens', async (t) => {
  const { adminId: own, auth } = await isolated();
  const stranger = await isolated();
  const { evcoId } = await insertToken(app, own);
  t.is((await app.request('GET', `/main/v1/msp-token/${evcoId}`, { auth })).status, 200);

  const list = await app.request('GET', '/main/v1/msp-token', { auth: stranger.auth });
  t.deepEqual(list.body.items, []);
  for (const [method, path] of [
    ['GET', `/main/v1/msp-token/${evcoId}`], ['POST', `/main/v1/msp-token/${evcoId}`], ['PUT', `/main/v1/msp-token/${evcoId}`],
    ['POST', `/main/v1/msp-token/${evcoId}/block-charge-auth-requests`], ['POST', `/main/v1/msp-token/${evcoId}/unblock-charge-auth-requests`],
  ]) {
    const response = await app.request(method, path, { auth: stranger.auth, body: method === 'GET' ? undefined : {} });
    t.is(response.status, 400, `${method} ${path}`);
    t.is(response.body.code, 'not_found');
  }
  const after = await app.request('GET', `/main/v1/msp-token?after=${evcoId}`, { auth: stranger.auth });
  t.is(after.status, 400);
  t.is(after.body.query_param, 'after');
});

test('a token that moved administrations is seen by its current administration only', async (t) => {
  const from = await isolated();
  const to = await isolated();
  const series = await insertTokenSeries(app, from.adminId);
  const { evcoId } = await insertToken(app, from.adminId, { currentAdmin: to.adminId, series: series.id });
  const seen = await app.request('GET', `/main/v1/msp-token/${evcoId}`, { auth: to.auth });
  t.is(seen.status, 200, JSON.stringify(seen.body));
  t.like(seen.body, { initial_admin_id: from.adminId, current_admin_id: to.adminId, token_series_id: series.id });
  t.deepEqual((await app.request('GET', '/main/v1/msp-token', { auth: to.auth })).body.items.map((i: any) => i.evco_id), [evcoId]);
  t.is((await app.request('GET', `/main/v1/msp-token/${evcoId}`, { auth: from.auth })).status, 400);
});

test('validate an EVCO id', async (t) => {
  const valid = await app.request('POST', '/main/v1/msp-token-evco-id/validate', { body: { evco_id: 'nl*tnm*c00122045*k' } });
  t.is(valid.status, 200, JSON.stringify(valid.body));
  t.deepEqual(valid.body, {
    normalized: 'NLTNMC00122045K', formatted: 'NL-TNM-C00122045-K', country_code: 'NL', provider_id: 'TNM',
    instance: 'C00122045', check_digit: 'K', check_digit_present: true,
  });
  const without = await app.request('POST', '/main/v1/msp-token-evco-id/validate', { body: { evco_id: 'DE83DUIEN83QGZ' } });
  t.like(without.body, { normalized: 'DE83DUIEN83QGZ', formatted: 'DE-83D-UIEN83QGZ', check_digit: 'D', check_digit_present: false });

  for (const evcoId of ['NL-TNM-C00122045-X', 'NL-TNM-C0012204', 'NL-TNM*C00122045-K', 'NLTNMC00122045KK', '', 12, null]) {
    const refused = await app.request('POST', '/main/v1/msp-token-evco-id/validate', { body: { evco_id: evcoId } });
    t.is(refused.status, 400, String(evcoId));
    t.is(refused.body.param, '$.evco_id', String(evcoId));
  }
  const missing = await app.request('POST', '/main/v1/msp-token-evco-id/validate', { body: {} });
  t.is(missing.status, 400);
  t.is(missing.body.param, '$.evco_id');
});

test('brands, UID types and form factors are not paged', async (t) => {
  const brands = await app.request('GET', '/main/v1/msp-token-brand');
  t.is(brands.status, 200);
  t.deepEqual(Object.keys(brands.body), ['items']);
  t.like(brands.body.items.find((b: any) => b.code === 'ACME'), { name: 'Acme cards' });

  const renamed = await app.request('POST', '/main/v1/msp-token-brand/acme', { body: { name: 'ACME Mobility' } });
  t.deepEqual(renamed.body, { code: 'ACME', name: 'ACME Mobility' });
  await app.request('POST', '/main/v1/msp-token-brand/ACME', { body: { name: 'Acme cards' } });
  const bad = await app.request('POST', '/main/v1/msp-token-brand/a%20b', { body: { name: 'x' } });
  t.is(bad.status, 400);

  const scoped = await app.credential({ role: 'admin', adminIds: [adminId] });
  t.is((await app.request('POST', '/main/v1/msp-token-brand/SCOPED', { auth: scoped, body: { name: 'x' } })).status, 403);
  t.is((await app.request('GET', '/main/v1/msp-token-brand', { auth: scoped })).status, 200);

  const uidTypes = await app.request('GET', '/main/v1/msp-token-uid-type');
  t.deepEqual(Object.keys(uidTypes.body), ['items']);
  t.true(uidTypes.body.items.some((u: any) => u.id === 'rfid_7byte'));
  const formFactors = await app.request('GET', '/main/v1/msp-token-form-factor');
  t.deepEqual(Object.keys(formFactors.body), ['items']);
  t.deepEqual(formFactors.body.items.filter((f: any) => f.fulfilable).map((f: any) => f.id), ['card', 'keychain']);
});

test('two tokens updated to one uid at once: one gets it, the other is 400 duplicate at $.uid', async (t) => {
  for (let round = 0; round < 4; round++) {
    const tokens = [await insertToken(app, adminId), await insertToken(app, adminId)];
    const uid = `0A0B0C${10 + round}`;
    const answers = await Promise.all(tokens.map((token) =>
      app.request('POST', `/main/v1/msp-token/${token.evcoId}`, { body: { uid, token_uid_type_id: 'rfid_4byte' } })));
    t.deepEqual(answers.map((r) => r.status).sort(), [200, 400], `round ${round}: ${JSON.stringify(answers.map((r) => r.body))}`);
    t.like(answers.find((r) => r.status === 400)!.body, { code: 'duplicate', param: '$.uid' });
    const stored = await Promise.all(tokens.map(async (token) => (await app.request('GET', `/main/v1/msp-token/${token.evcoId}`)).body.uid));
    t.is(stored.filter((u) => u === uid).length, 1, `round ${round}: ${JSON.stringify(stored)}`);
  }
});

// Found by probing (2026-11-29): OCPI identifies a token by uid and type, and publishes an app token
// without uid under its evco_id; a plug-and-charge token's uid was set unchecked, and could be changed.
test('a published uid is one token\'s of its type: an app token\'s evco_id, a plug-and-charge token\'s eMAID', async (t) => {
  const sub = await createTokenSubscription(app, adminId, { valid_from: '2026-01-01T00:00:00Z' });
  const call = (path: string, body: Record<string, unknown>) => app.request('POST', `/main/v1${path}`, { body });
  t.is((await call('/msp-token-subscription/add-virtual-token', { subscription_id: sub.id, evco_id: 'NLVAQ000000001' })).status, 200);
  const appUid = await call('/msp-token-subscription/add-virtual-token', { subscription_id: sub.id, evco_id: 'NLVAQ000000002', uid: 'nlvaq000000001' });
  t.like(appUid.body, { code: 'duplicate', param: '$.uid' });
  t.is((await call('/msp-token-subscription/add-virtual-token', { subscription_id: sub.id, evco_id: 'NLVAQ000000003', uid: 'app-user-3' })).status, 200);

  const card = await insertToken(app, adminId);
  t.is((await call(`/msp-token/${card.evcoId}`, { uid: 'NLPCQ000000001' })).status, 200);
  const vehicle = await call(`/msp-token-subscription/${sub.id}/plug-and-charge-vehicle`, { vehicle_vin: '1HGCM82633A004352', evco_id: 'NLPCQ000000001' });
  t.like(vehicle.body, { code: 'duplicate', param: '$.evco_id' });
  const own = await call(`/msp-token-subscription/${sub.id}/plug-and-charge-vehicle`, { vehicle_vin: '1HGCM82633A004353', evco_id: 'NLPCQ000000002' });
  t.is(own.status, 200, JSON.stringify(own.body));
  t.like((await call('/msp-token/NLPCQ000000002', { uid: 'OTHER-UID' })).body, { code: 'invalid_input', param: '$.uid' });
});

// Found by probing (2026-11-29): an app token whose uid was cleared is published under its evco_id, which another
// customer's app token had taken as uid while the first had one; the clear was not checked (assertUidFree ran only for a
// uid set), so two app tokens were published as APP_USER with one uid. Clearing is checked as issuing without uid is.
test('clearing an app token\'s uid is 400 duplicate at $.uid when another app token has its evco_id as uid, by POST, PUT and GraphQL', async (t) => {
  const [one, two] = [await createTokenSubscription(app, adminId), await createTokenSubscription(app, adminId)];
  const call = (path: string, body: Record<string, unknown>) => app.request('POST', `/main/v1${path}`, { body });
  t.is((await call('/msp-token-subscription/add-virtual-token', { subscription_id: one.id, evco_id: 'NLVUC000000001', uid: 'app-user-c1' })).status, 200);
  t.is((await call('/msp-token-subscription/add-virtual-token', { subscription_id: two.id, evco_id: 'NLVUC000000002', uid: 'nlvuc000000001' })).status, 200);
  const before = (await app.request('GET', '/main/v1/msp-token/NLVUC000000001')).body;

  t.like((await call('/msp-token/NLVUC000000001', { uid: null })).body, { code: 'duplicate', param: '$.uid' });
  t.like((await app.request('PUT', '/main/v1/msp-token/NLVUC000000001', { body: { brand_code: null } })).body, { code: 'duplicate', param: '$.uid' });
  const viaGraphql = await graphqlFailure(app, 'mutation ($e: String!, $i: TokenInput!) { updateToken(evcoId: $e, input: $i) { uid } }', { e: 'NLVUC000000001', i: { uid: null } });
  t.like(viaGraphql, { code: 'duplicate', param: '$.input.uid', data: { updateToken: null } });
  t.deepEqual((await app.request('GET', '/main/v1/msp-token/NLVUC000000001')).body, before, 'nothing stored');

  // An app token whose evco_id no other has as uid is cleared.
  t.is((await call('/msp-token-subscription/add-virtual-token', { subscription_id: one.id, evco_id: 'NLVUC000000003', uid: 'app-user-c3' })).status, 200);
  t.like((await call('/msp-token/NLVUC000000003', { uid: null })).body, { evco_id: 'NLVUC000000003', uid: null });
});
