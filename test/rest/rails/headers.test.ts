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

test('GET /main/version answers without credentials', async (t) => {
  const response = await app.request('GET', '/main/version', { auth: null });
  t.is(response.status, 200);
  t.deepEqual(response.body, { version: '4.9.0', api_versions: ['v1'] });
  t.is(response.headers.get('x-svc-version'), '4.9.0');
});

test('X-SVC-Version is on every response, errors included', async (t) => {
  const customer = await createCustomer(app, adminId);
  const readonly = await app.credential({ role: 'readonly' });
  const cases: [string, string, Parameters<TestApp['request']>[2], number][] = [
    ['GET', `/main/v1/customer/${customer.id}`, {}, 200],
    ['GET', '/main/v1/openapi.json', { auth: null }, 200],
    ['POST', `/main/v1/customer/${customer.id}`, { raw: '{' }, 400],
    ['GET', '/main/v1/customer', { auth: null }, 401],
    ['POST', `/main/v1/customer/${customer.id}`, { body: {}, auth: readonly }, 403],
    ['GET', '/main/v1/no-such-thing', {}, 404],
    ['GET', '/elsewhere', { auth: null }, 404],
    ['DELETE', `/main/v1/customer/${customer.id}`, {}, 405],
  ];
  for (const [method, path, options, status] of cases) {
    const response = await app.request(method, path, options);
    t.is(response.status, status, `${method} ${path}`);
    t.is(response.headers.get('x-svc-version'), '4.9.0', `${method} ${path}`);
  }
});

test('unknown body members are ignored and listed in X-SVC-Unknown-Fields', async (t) => {
  const customer = await createCustomer(app, adminId);
  const response = await app.request('POST', `/main/v1/customer/${customer.id}`, {
    body: { name: 'Known', nickname: 'x', custom_fields: { free: 1 }, legacy: { deep: true } },
  });
  t.is(response.status, 200);
  t.is(response.body.name, 'Known');
  t.is(response.headers.get('x-svc-unknown-fields'), '$.nickname,$.legacy');
  t.false('nickname' in response.body);
  const clean = await app.request('POST', `/main/v1/customer/${customer.id}`, { body: { name: 'Known' } });
  t.is(clean.headers.get('x-svc-unknown-fields'), null);
});

test('a body on an operation without one is ignored, its members listed as unknown', async (t) => {
  const customer = await createCustomer(app, adminId);
  const response = await app.request('POST', `/main/v1/customer/${customer.id}/block-charge-auth-requests`, { body: { reason: 'x' } });
  t.is(response.status, 200);
  t.is(response.headers.get('x-svc-unknown-fields'), '$.reason');
});
