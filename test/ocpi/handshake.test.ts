// The OCPI credentials handshake with a real CPO server, both directions: tokens A → B → C, the
// peer's endpoints kept per connection, old tokens refused afterwards.
import { randomUUID } from 'node:crypto';
import test from 'ava';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { createRoamingConnection } from '../helpers/roaming-factories.ts';
import { startCpoPeer } from './cpo-peer.ts';

const newConnection = async () => (await createRoamingConnection(app, { kind: 'provider_facilitated' })).id as string;

let app: TestApp;
test.before(async () => { app = await startTestApp(); });
test.after.always(async () => { await app?.close(); });

test('we register with the CPO using its token A', async (t) => {
  const cpo = await startCpoPeer();
  const tokenA = cpo.tokenForService;
  const id = await newConnection();
  const r = await app.request('POST', `/main/v1/roaming-connection/${id}/ocpi/register`, { body: { versions_url: cpo.versionsUrl, token: tokenA } });
  t.is(r.status, 200, JSON.stringify(r.body));
  t.is(r.body.status, 'registered');
  t.is(r.body.version, '2.2.1');
  t.deepEqual(r.body.parties, [{ role: 'CPO', country_code: 'NL', party_id: 'CPO', name: 'Test CPO' }]);
  t.true(r.body.endpoints.some((e: { identifier: string }) => e.identifier === 'commands'));
  // The CPO read our versions with token B while answering; we then hold its token C.
  t.not(cpo.tokenForService, tokenA);
  const paths = cpo.received.map((x) => `${x.method} ${x.path}`);
  t.deepEqual(paths, ['GET /ocpi/versions', 'GET /ocpi/2.2.1', 'POST /ocpi/2.2.1/credentials']);
  // Token B stays the one the CPO calls us with.
  const credentials = await cpo.call('GET', `${app.url}/ocpi/2.2.1/credentials`, { dataSchema: 'credentials' });
  t.is(credentials.status, 200);
  t.is(credentials.body.data.roles[0].role, 'EMSP');
  const shown = await app.request('GET', `/main/v1/roaming-connection/${id}/ocpi`);
  t.is(shown.body.status, 'registered');
  await cpo.close();
});

test('the CPO registers with the token A we issued and gets token C', async (t) => {
  const cpo = await startCpoPeer();
  const id = await newConnection();
  const issued = await app.request('POST', `/main/v1/roaming-connection/${id}/ocpi/register`, { body: {} });
  t.is(issued.status, 200);
  t.is(issued.body.status, 'token_a_issued');
  const tokenA = issued.body.token_a as string;
  await cpo.registerWith(issued.body.our_versions_url, tokenA);
  t.not(cpo.tokenToService, tokenA);
  // We read the CPO's versions with its token B.
  t.deepEqual(cpo.received.map((x) => x.token), [cpo.tokenForService, cpo.tokenForService]);
  const shown = await app.request('GET', `/main/v1/roaming-connection/${id}/ocpi`);
  t.is(shown.body.status, 'registered');
  t.is(shown.body.token_a, undefined);
  // Token A is spent; token C works; a second POST is 405.
  const withA = await cpo.call('GET', `${app.url}/ocpi/2.2.1/credentials`, { token: tokenA });
  t.is(withA.status, 401);
  t.is(withA.body.status_code, 2000);
  const again = await cpo.call('POST', `${app.url}/ocpi/2.2.1/credentials`, {
    body: { token: 'x', url: cpo.versionsUrl, roles: [{ role: 'CPO', business_details: { name: 'Test CPO' }, party_id: 'CPO', country_code: 'NL' }] },
  });
  t.is(again.status, 405);
  await cpo.close();
});

test('an invalid credentials object is OCPI 2001 with HTTP 400', async (t) => {
  const cpo = await startCpoPeer();
  const issued = await app.request('POST', `/main/v1/roaming-connection/${await newConnection()}/ocpi/register`, { body: {} });
  const r = await cpo.call('POST', `${app.url}/ocpi/2.2.1/credentials`, { token: issued.body.token_a, body: { token: 'x', url: cpo.versionsUrl, roles: [] } });
  t.is(r.status, 400);
  t.is(r.body.status_code, 2001);
  t.regex(r.body.status_message, /roles/);
  const unknown = await cpo.call('GET', `${app.url}/ocpi/2.2.1/nothing`, { token: issued.body.token_a });
  t.is(unknown.status, 404);
  await cpo.close();
});

test('an OCPI peer belongs to an existing roaming connection', async (t) => {
  const r = await app.request('POST', `/main/v1/roaming-connection/${randomUUID()}/ocpi/register`, { body: {} });
  t.is(r.status, 400);
  t.is(r.body.code, 'not_found');
  const bad = await app.request('GET', '/main/v1/ocpi-invalid-cdr?roaming_connection_id=nope');
  t.is(bad.status, 400);
  t.is(bad.body.query_param, 'roaming_connection_id');
});

for (const kind of ['oversized_declared', 'oversized_streamed'] as const) {
  test(`a peer answering more than 1 MiB (${kind}) fails the registration as a malformed answer does; nothing is stored`, async (t) => {
    const cpo = await startCpoPeer();
    t.teardown(() => cpo.close());
    const attempt = async (broken: 'malformed' | typeof kind | null) => {
      cpo.broken = broken && { path: '/ocpi/versions', kind: broken };
      const id = await newConnection();
      const r = await app.request('POST', `/main/v1/roaming-connection/${id}/ocpi/register`, { body: { versions_url: cpo.versionsUrl, token: cpo.tokenForService } });
      return { r, shown: await app.request('GET', `/main/v1/roaming-connection/${id}/ocpi`) };
    };
    const malformed = await attempt('malformed');
    t.is(malformed.r.status, 400);
    t.regex(malformed.r.body.message, /^OCPI registration failed: GET \S+\/ocpi\/versions: HTTP 200, not an OCPI answer$/);
    const oversized = await attempt(kind);
    t.is(oversized.r.status, 400, JSON.stringify(oversized.r.body));
    t.is(oversized.r.body.code, malformed.r.body.code);
    t.regex(oversized.r.body.message, /^OCPI registration failed: GET \S+\/ocpi\/versions: HTTP 200, the answer exceeds 1048576 bytes$/);
    for (const { shown } of [malformed, oversized]) t.is(shown.body.code, 'not_found');
    // The same peer answering within the limit registers.
    const fine = await attempt(null);
    t.is(fine.r.status, 200, JSON.stringify(fine.r.body));
    t.is(fine.shown.body.status, 'registered');
  });
}

// Found by probing: two registrations with the same token A at once both succeeded (each checked
// the token before the other stored its token C), and the token C answered first no longer worked.
test('registrations with the same token A at once: one registers, the others are refused as a registration with a spent token A is', async (t) => {
  const cpo = await startCpoPeer();
  t.teardown(() => cpo.close());
  const credentials = {
    token: cpo.tokenForService, url: cpo.versionsUrl, roles: [{ role: 'CPO', business_details: { name: 'Test CPO' }, party_id: 'CPO', country_code: 'NL' }],
  };
  for (let round = 0; round < 4; round++) {
    const id = await newConnection();
    const tokenA = (await app.request('POST', `/main/v1/roaming-connection/${id}/ocpi/register`, { body: {} })).body.token_a as string;
    const register = () => cpo.call('POST', `${app.url}/ocpi/2.2.1/credentials`, { token: tokenA, body: credentials, bodySchema: 'credentials' });
    const answers = await Promise.all([register(), register(), register()]);
    const won = answers.filter((a) => a.status === 200);
    t.is(won.length, 1, JSON.stringify(answers.map((a) => [a.status, a.body.status_message])));
    const late = await register();
    t.is(late.status, 401);
    for (const lost of answers.filter((a) => a.status !== 200)) {
      t.deepEqual([lost.status, lost.body.status_code, lost.body.status_message], [late.status, late.body.status_code, late.body.status_message]);
    }
    // The token C the winner was answered is the one accepted.
    t.is((await cpo.call('GET', `${app.url}/ocpi/2.2.1/credentials`, { token: won[0].body.data.token })).status, 200);
    t.is((await app.request('GET', `/main/v1/roaming-connection/${id}/ocpi`)).body.status, 'registered');
  }
});
