import test from 'ava';
import { startTestApp, type TestApp } from '../../helpers/app.ts';
import { createAdministration, createCustomer } from '../../helpers/factories.ts';

let app: TestApp;
let adminId: string;
test.before(async () => {
  app = await startTestApp();
  adminId = (await createAdministration(app)).id;
});
test.after.always(async () => { await app?.close(); });

test('missing or wrong credentials are 401 with a Basic challenge', async (t) => {
  const attempts: Parameters<TestApp['request']>[2][] = [
    { auth: null },
    { auth: { publicId: app.admin.publicId, secret: 'wrong-secret-wrong' } },
    { auth: { publicId: 'nobody-at-all', secret: 'secret-secret-secret' } },
    { auth: null, headers: { authorization: 'Bearer abc' } },
    { auth: null, headers: { authorization: 'Basic !!!' } },
    { auth: null, headers: { authorization: `Basic ${Buffer.from('no-colon').toString('base64')}` } },
  ];
  for (const options of attempts) {
    const response = await app.request('GET', '/main/v1/customer', options);
    t.is(response.status, 401, JSON.stringify(options));
    t.is(response.headers.get('www-authenticate'), 'Basic realm="main"');
    t.is(response.body.code, 'unauthorized');
  }
});

test('a readonly credential reads but gets 403 on writes', async (t) => {
  const customer = await createCustomer(app, adminId);
  const readonly = await app.credential({ role: 'readonly' });
  const read = await app.request('GET', `/main/v1/customer/${customer.id}`, { auth: readonly });
  t.is(read.status, 200);
  const write = await app.request('POST', `/main/v1/customer/${customer.id}`, { body: { name: 'No' }, auth: readonly });
  t.is(write.status, 403);
  t.is(write.body.code, 'forbidden');
  const after = await app.request('GET', `/main/v1/customer/${customer.id}`);
  t.is(after.body.name, customer.name);
});

test('an app credential gets 403 on the Admin API', async (t) => {
  const appCredential = await app.credential({ role: 'app' });
  const list = await app.request('GET', '/main/v1/customer', { auth: appCredential });
  t.is(list.status, 403);
  t.is(list.body.code, 'forbidden');
  const write = await app.request('POST', '/main/v1/customer/ext_ref.app-made', { body: { admin_id: adminId, name: 'x', country: 'NL' }, auth: appCredential });
  t.is(write.status, 403);
  const lookup = await app.request('GET', '/main/v1/customer/ext_ref.app-made');
  t.is(lookup.body.code, 'not_found');
});

test('404 for an unknown path, inside /main/v1 or outside, with or without credentials', async (t) => {
  for (const [path, auth] of [['/main/v1/no-such-thing', undefined], ['/main/v1/customer/x/y/z', undefined], ['/main/v2/customer', undefined], ['/', null], ['/main/v1/no-such-thing', null]] as const) {
    const response = await app.request('GET', path, { auth });
    t.is(response.status, 404, path);
    t.is(response.body.code, 'route_not_found', path);
  }
});

test('405 with Allow for a known path and a wrong method', async (t) => {
  const customer = await createCustomer(app, adminId);
  const response = await app.request('DELETE', `/main/v1/customer/${customer.id}`);
  t.is(response.status, 405);
  t.is(response.body.code, 'method_not_allowed');
  t.deepEqual(response.headers.get('allow')!.split(', ').sort(), ['GET', 'POST', 'PUT']);
  const list = await app.request('PUT', '/main/v1/customer', { body: {} });
  t.is(list.status, 405);
  t.deepEqual(list.headers.get('allow')!.split(', ').sort(), ['GET', 'POST']);
});

test('a fixed path answers 405 for a wrong method even where a parameter path would match it', async (t) => {
  const response = await app.request('GET', '/main/v1/msp-token-subscription/add-virtual-token');
  t.is(response.status, 405);
  t.is(response.headers.get('allow'), 'POST');
  const byId = await app.request('GET', '/main/v1/msp-token-subscription/0190a0b0-0000-7000-8000-000000000000');
  t.is(byId.status, 400, 'the parameter path still answers for other values');
  t.is(byId.body.code, 'not_found');
});

test('the removed DELETE block-charge-auth-requests answers 404 although POST lives on that path', async (t) => {
  const customer = await createCustomer(app, adminId);
  const response = await app.request('DELETE', `/main/v1/customer/${customer.id}/block-charge-auth-requests`);
  t.is(response.status, 404);
  t.is(response.body.code, 'route_not_found');
  const unchanged = await app.request('GET', `/main/v1/customer/${customer.id}`);
  t.false(unchanged.body.charge_auth_requests_blocked);
});

test('a credential over its request rate gets 429 with Retry-After', async (t) => {
  const limited = await app.credential({ rateLimitPerMinute: 3 });
  const now = Date.now();
  // Stay inside one fixed minute window: wait for the next one when too close to its end.
  if (now % 60_000 > 55_000) await new Promise((resolve) => setTimeout(resolve, 60_000 - (now % 60_000) + 50));
  const statuses: number[] = [];
  let last;
  for (let i = 0; i < 5; i++) {
    last = await app.request('GET', '/main/v1/customer?page_size=1', { auth: limited });
    statuses.push(last.status);
  }
  t.deepEqual(statuses, [200, 200, 200, 429, 429]);
  t.is(last!.body.code, 'rate_limited');
  const retryAfter = Number(last!.headers.get('retry-after'));
  t.true(Number.isInteger(retryAfter) && retryAfter >= 1 && retryAfter <= 60, String(retryAfter));
  t.is(last!.headers.get('x-svc-version'), '4.9.0');
  const other = await app.request('GET', '/main/v1/customer?page_size=1');
  t.is(other.status, 200, 'other credentials are not affected');
});
