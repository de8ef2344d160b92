// The public guide: endpoints have no trailing slash; `/main/v1/customer/` is an unknown path, and so
// is `/main/v1/Customer`: paths match exactly.
import test from 'ava';
import { startTestApp, type TestApp } from '../../helpers/app.ts';
import { createAdministration, createCustomer } from '../../helpers/factories.ts';

let app: TestApp;
let customer: { id: string; external_reference: string };
test.before(async () => {
  app = await startTestApp();
  customer = await createCustomer(app, (await createAdministration(app)).id) as typeof customer;
});
test.after.always(async () => { await app?.close(); });

test('a path with a trailing slash is 404, the same path without it is served', async (t) => {
  const paths = [
    '/main/v1/customer',
    `/main/v1/customer/${customer.id}`,
    `/main/v1/customer/ext_ref.${customer.external_reference}`,
    `/main/v1/customer/${customer.id}/billing-address`,
    '/main/v1/administration',
    '/main/v1/msp-token',
    '/main/v1/openapi.json',
    '/main/version',
  ];
  for (const path of paths) {
    const served = await app.request('GET', path);
    t.is(served.status, 200, path);
    const slashed = await app.request('GET', `${path}/`);
    t.is(slashed.status, 404, `${path}/`);
    t.is(slashed.body.code, 'route_not_found', `${path}/`);
    t.truthy(slashed.headers.get('x-svc-version'));
  }
});

test('a trailing slash is 404 for writes too, and nothing is written', async (t) => {
  const create = await app.request('POST', '/main/v1/customer/ext_ref.slashed/', { body: { admin_id: 'x', name: 'x', country: 'NL' } });
  t.is(create.status, 404);
  const update = await app.request('POST', `/main/v1/customer/${customer.id}/`, { body: { name: 'Renamed' } });
  t.is(update.status, 404);
  t.is((await app.request('GET', `/main/v1/customer/${customer.id}`)).body.name, (customer as any).name);
  t.is((await app.request('GET', '/main/v1/customer/ext_ref.slashed')).body.code, 'not_found');
  t.is((await app.request('GET', '/main/v1/customer//')).status, 404);
});

test('404 comes before authentication, as for every unknown path', async (t) => {
  const response = await app.request('GET', '/main/v1/customer/', { auth: null });
  t.is(response.status, 404);
});

test('a path in another casing is 404, before authentication; the path as documented is served', async (t) => {
  for (const path of ['/main/v1/CUSTOMER', '/main/v1/Customer', '/main/v1/cpo-charge-SESSION-reimbursement', `/main/v1/Customer/${customer.id}`, '/main/v1/OpenAPI.json']) {
    for (const auth of [undefined, null]) {
      const response = await app.request('GET', path, { auth });
      t.is(response.status, 404, path);
      t.is(response.body.code, 'route_not_found', path);
    }
  }
  t.is((await app.request('GET', '/main/v1/cpo-charge-session-reimbursement')).status, 200);
  // Parameters keep their own rules: an external reference matches in any casing.
  t.is((await app.request('GET', `/main/v1/customer/ext_ref.${customer.external_reference.toUpperCase()}`)).status, 200);
});
