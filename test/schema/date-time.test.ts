import test from 'ava';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { createAdministration, createCustomer } from '../helpers/factories.ts';
import { data, graphql } from './graphql.ts';

let app: TestApp;
let adminId: string;
test.before(async () => {
  app = await startTestApp();
  adminId = (await createAdministration(app)).id;
});
test.after.always(async () => { await app?.close(); });

const IMPOSSIBLE = ['0000-01-01T00:00:00Z', '+275760-09-13T00:00:00Z', '2026-02-30T10:00:00Z', '2026-04-31T00:00:00Z', '2026-02-29T00:00:00Z',
  '2026-03-02T10:00:00', '2026-03-02T24:00:00Z', '2026-12-31T23:59:60Z', '1899-12-31T23:59:59Z'];
const UPDATE = 'mutation ($id: ID!, $input: CustomerInput!) { updateCustomer(id: $id, input: $input) { externalUpdatedAt } }';

test('a variable holding an impossible DateTime is a user error naming the argument; nothing changes', async (t) => {
  const customer = await createCustomer(app, adminId);
  for (const value of IMPOSSIBLE) {
    const response = await graphql(app, UPDATE, { id: customer.id, input: { externalUpdatedAt: value, name: 'Changed' } });
    t.true(response.status < 500, value);
    t.falsy(response.body.data?.updateCustomer, value);
    t.regex(response.body.errors?.[0].message ?? '', /input\.externalUpdatedAt.*RFC 3339/, value);
  }
  const bare = await graphql(app, 'mutation ($id: ID!, $at: DateTime) { updateCustomer(id: $id, input: { externalUpdatedAt: $at }) { id } }',
    { id: customer.id, at: '2026-02-30T10:00:00Z' });
  t.regex(bare.body.errors?.[0].message ?? '', /\$at.*RFC 3339/);
  const stored = await app.request('GET', `/main/v1/customer/${customer.id}`);
  t.like(stored.body, { name: customer.name, external_updated_at: null });
});

test('a literal impossible DateTime names the argument in the message and in extensions.param', async (t) => {
  for (const value of IMPOSSIBLE) {
    const response = await graphql(app, `mutation { createVatRate(input: { country: "BE", vatKind: STANDARD, percentage: "21", validFrom: ${JSON.stringify(value)} }) { id } }`);
    t.true(response.status < 500, value);
    t.falsy(response.body.data?.createVatRate, value);
    t.like(response.body.errors?.[0], { extensions: { code: 'validation_failed', param: '$.input.validFrom' } }, value);
    t.regex(response.body.errors?.[0].message ?? '', /^input\.validFrom: DateTime must be an RFC 3339 timestamp/, value);
  }
  t.deepEqual((await data(app, '{ vatRates(country: "BE") { edges { node { id } } } }')).vatRates.edges, [], 'nothing was created');
});

test('the boundaries are accepted and any offset gives the same instant', async (t) => {
  const customer = await createCustomer(app, adminId);
  const first = await data(app, UPDATE, { id: customer.id, input: { externalUpdatedAt: '1900-01-01T00:00:00Z' } });
  t.is(first.updateCustomer.externalUpdatedAt, '1900-01-01T00:00:00.000Z');
  const leap = await data(app, `mutation ($id: ID!) { updateCustomer(id: $id, input: { externalUpdatedAt: "2024-02-29T10:00:00+14:00" }) { externalUpdatedAt } }`,
    { id: customer.id });
  t.is(leap.updateCustomer.externalUpdatedAt, '2024-02-28T20:00:00.000Z');
  const last = await data(app, UPDATE, { id: customer.id, input: { externalUpdatedAt: '9999-12-31T23:59:59.999Z' } });
  t.is(last.updateCustomer.externalUpdatedAt, '9999-12-31T23:59:59.999Z');
});
