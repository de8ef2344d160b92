// Where the service calls a peer: the credentials `url` a peer gives (POST or PUT credentials) is a
// public host unless SVC_OCPI_PRIVATE_TARGETS=allow (the test run allows it: its CPOs listen on
// 127.0.0.1); redirects are not followed; what the target answered is not told back to the peer.
import dns from 'node:dns';
import { syncBuiltinESMExports } from 'node:module';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import test from 'ava';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { createRoamingConnection } from '../helpers/roaming-factories.ts';
import { registerSecret, takeLeaks } from '../helpers/secret-scan.ts';
import { startCpoPeer, type CpoPeer } from './cpo-peer.ts';
import { registeredCpo } from './ocpi-app.ts';

let app: TestApp;
let cpo: CpoPeer;
let connectionId: string;
/** A server inside "our network": every request it receives is an SSRF. */
let trap: { server: Server; url: string; hits: string[]; answer: (path: string) => { status: number; headers?: Record<string, string>; body: string } };

test.before(async () => {
  app = await startTestApp();
  ({ cpo, connectionId } = await registeredCpo(app));
  const hits: string[] = [];
  const server = createServer((req, res) => {
    hits.push(`${req.method} ${req.url}`);
    const { status, headers, body } = trap.answer(req.url!);
    res.writeHead(status, { 'content-type': 'text/plain', ...headers });
    res.end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  trap = { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, hits, answer: () => ({ status: 404, body: 'secret internal page' }) };
});
test.after.always(async () => {
  process.env.SVC_OCPI_PRIVATE_TARGETS = 'allow';
  await cpo?.close();
  trap?.server.close();
  await app?.close();
});

const credentials = (url: string, token = 'new-token-b') => ({ token, url, roles: [{ role: 'CPO', business_details: { name: 'Test CPO' }, party_id: 'CPO', country_code: 'NL' }] });
const credentialsUrl = () => `${app.url}/ocpi/2.2.1/credentials`;
const privateTargets = (allowed: boolean) => { process.env.SVC_OCPI_PRIVATE_TARGETS = allowed ? 'allow' : ''; };

async function registration() {
  return (await app.request('GET', `/main/v1/roaming-connection/${connectionId}/ocpi`)).body;
}

test.serial('PUT credentials naming a private, loopback or link-local address is 2001 at url: nothing is fetched, the registration stays', async (t) => {
  privateTargets(false);
  const before = await registration();
  const port = new URL(trap.url).port;
  for (const url of [`${trap.url}/ocpi/versions`, `http://localhost:${port}/ocpi/versions`, `http://[::1]:${port}/ocpi/versions`, `http://[::ffff:127.0.0.1]:${port}/`,
    `http://0.0.0.0:${port}/`, `http://2130706433:${port}/`, 'http://169.254.169.254/latest/meta-data/', 'http://10.0.0.1/ocpi/versions', 'https://192.168.1.1/ocpi/versions']) {
    const r = await cpo.call('PUT', credentialsUrl(), { body: credentials(url) });
    t.is(r.status, 400, `${url}: ${JSON.stringify(r.body)}`);
    t.is(r.body.status_code, 2001, url);
    t.regex(r.body.status_message, /^url must name a public host: .* \(SVC_OCPI_PRIVATE_TARGETS\)$/, url);
  }
  t.deepEqual(trap.hits, []);
  // Nothing changed: the same versions URL, and the peer's token B still works.
  t.deepEqual(await registration(), before);
  t.is((await cpo.call('GET', credentialsUrl(), { dataSchema: 'credentials' })).status, 200);
});

test.serial('POST credentials (a peer registering with token A) naming a private address is 2001 at url; token A stays usable', async (t) => {
  privateTargets(false);
  const peer = await startCpoPeer();
  t.teardown(() => peer.close());
  const id = (await createRoamingConnection(app, { kind: 'provider_facilitated' })).id as string;
  const issued = await app.request('POST', `/main/v1/roaming-connection/${id}/ocpi/register`, { body: {} });
  const tokenA = issued.body.token_a as string;
  const r = await peer.call('POST', credentialsUrl(), { token: tokenA, body: credentials(`${trap.url}/ocpi/versions`) });
  t.is(r.status, 400, JSON.stringify(r.body));
  t.is(r.body.status_code, 2001);
  t.regex(r.body.status_message, /^url must name a public host/);
  t.deepEqual(trap.hits, []);
  t.is((await app.request('GET', `/main/v1/roaming-connection/${id}/ocpi`)).body.status, 'token_a_issued');
  // Allowed private targets (receivers in the operator's network), the same peer registers.
  privateTargets(true);
  await peer.registerWith(issued.body.our_versions_url, tokenA);
  t.is((await app.request('GET', `/main/v1/roaming-connection/${id}/ocpi`)).body.status, 'registered');
});

// Answered as any other peer that cannot be used (3001): which internal names exist is not told.
// The name resolves, in this process, to the trap's address (127.0.0.1): without the check the call
// would reach the trap.
test.serial('a host name resolving to a non-public address is refused when connecting (3001, HTTP 400), nothing is fetched', async (t) => {
  privateTargets(false);
  const name = 'internal-peer.example';
  const original = dns.lookup;
  dns.lookup = ((host: string, options: unknown, callback: (...args: unknown[]) => void) => {
    if (host !== name) return (original as (...args: unknown[]) => void)(host, options, callback);
    const all = typeof options === 'object' && options !== null && (options as { all?: boolean }).all;
    return all ? callback(null, [{ address: '127.0.0.1', family: 4 }]) : callback(null, '127.0.0.1', 4);
  }) as typeof dns.lookup;
  syncBuiltinESMExports();
  try {
    const r = await cpo.call('PUT', credentialsUrl(), { body: credentials(`http://${name}:${new URL(trap.url).port}/ocpi/versions`) });
    t.is(r.status, 400, JSON.stringify(r.body));
    t.is(r.body.status_code, 3001);
    t.regex(r.body.status_message, /^unable to use the versions endpoint at url/);
    t.notRegex(r.body.status_message, /127\.|resolves|public/);
    t.deepEqual(trap.hits, []);
  } finally {
    dns.lookup = original;
    syncBuiltinESMExports();
  }
});

test.serial('the admin registration refuses a private versions_url too (400), without calling it', async (t) => {
  privateTargets(false);
  const id = (await createRoamingConnection(app, { kind: 'provider_facilitated' })).id as string;
  const r = await app.request('POST', `/main/v1/roaming-connection/${id}/ocpi/register`, { body: { versions_url: `${trap.url}/ocpi/versions`, token: 'a' } });
  t.is(r.status, 400, JSON.stringify(r.body));
  t.regex(r.body.message, /127\.0\.0\.1 is not a public address \(SVC_OCPI_PRIVATE_TARGETS\)/);
  t.deepEqual(trap.hits, []);
});

test.serial('redirects are not followed, and the target\'s answer is not told back: 3001 with HTTP 400, never a 500', async (t) => {
  privateTargets(true);
  const before = await registration();
  const answers: [string, { status: number; headers?: Record<string, string>; body: string }][] = [
    ['a redirect', { status: 302, headers: { location: `${trap.url}/internal/admin` }, body: '' }],
    ['a permanent redirect', { status: 308, headers: { location: `${trap.url}/internal/admin` }, body: '' }],
    ['a 404 page', { status: 404, body: 'secret internal page' }],
    ['a 500', { status: 500, body: 'Internal Server Error at db01.internal' }],
    ['not OCPI', { status: 200, body: '{"hello":"internal service 8.1"}' }],
  ];
  for (const [name, answer] of answers) {
    trap.hits.length = 0;
    trap.answer = (path) => (path === '/internal/admin' ? { status: 200, body: 'admin console' } : answer);
    const r = await cpo.call('PUT', credentialsUrl(), { body: credentials(`${trap.url}/ocpi/versions`) });
    t.deepEqual(trap.hits, ['GET /ocpi/versions'], `${name}: one request, no redirect followed`);
    t.is(r.status, 400, `${name}: ${JSON.stringify(r.body)}`);
    t.is(r.body.status_code, 3001, name);
    t.notRegex(r.body.status_message, /HTTP|30\d|404|500|secret|internal|admin|hello|ECONN/i, `${name}: ${r.body.status_message}`);
  }
  // A port where nothing listens: the same answer (no port scanning by the difference).
  trap.hits.length = 0;
  const closed = createServer();
  await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
  const closedPort = (closed.address() as AddressInfo).port;
  await new Promise<void>((resolve) => closed.close(() => resolve()));
  const r = await cpo.call('PUT', credentialsUrl(), { body: credentials(`http://127.0.0.1:${closedPort}/ocpi/versions`) });
  t.is(r.status, 400, JSON.stringify(r.body));
  t.is(r.body.status_code, 3001);
  t.notRegex(r.body.status_message, /ECONN|refused|HTTP/i);
  t.deepEqual(await registration(), before);
});

test.serial('a peer\'s URL with a password in it, failing to be read, leaves the password in no log line or answer', async (t) => {
  privateTargets(true);
  const password = 'peer-url-password-5551234';
  registerSecret(password);
  trap.answer = () => ({ status: 404, body: 'no' });
  const r = await cpo.call('PUT', credentialsUrl(), { body: credentials(`http://peer:${password}@${new URL(trap.url).host}/ocpi/versions`) });
  t.is(r.status, 400, JSON.stringify(r.body));
  t.false(JSON.stringify(r.body).includes(password));
  // The app's output is scanned for registered secrets when it closes (test/helpers/secret-scan.ts); here at once.
  t.deepEqual(takeLeaks(), []);
});
