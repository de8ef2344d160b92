import test from 'ava';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { createAdministration, createCustomer } from '../helpers/factories.ts';
import { data, graphql } from './graphql.ts';
import { seedCustomers } from './parties.ts';

let app: TestApp;
let adminId: string;
test.before(async () => {
  app = await startTestApp();
  adminId = (await createAdministration(app)).id;
});
test.after.always(async () => { await app?.close(); });

const NODE = `query ($id: ID!) { node(id: $id) { __typename id ... on Customer { databaseId name administration { databaseId } } ... on Administration { databaseId } } }`;

test('node and nodes round trip global IDs', async (t) => {
  const rest = await createCustomer(app, adminId, { name: 'Round Trip' });
  const { customer } = await data(app, 'query ($id: ID!) { customer(id: $id) { id databaseId administration { id } } }', { id: rest.id });
  t.is(customer.databaseId, rest.id);
  t.not(customer.id, rest.id, 'the node id is a global ID');

  const { node } = await data(app, NODE, { id: customer.id });
  t.deepEqual(node, { __typename: 'Customer', id: customer.id, databaseId: rest.id, name: 'Round Trip', administration: { databaseId: adminId } });

  const { nodes } = await data(app, 'query ($ids: [ID!]!) { nodes(ids: $ids) { __typename id } }', {
    ids: [customer.administration.id, customer.id, 'not-a-global-id', customer.id],
  });
  t.deepEqual(nodes, [
    { __typename: 'Administration', id: customer.administration.id },
    { __typename: 'Customer', id: customer.id },
    null,
    { __typename: 'Customer', id: customer.id },
  ]);
});

test('customer(id) takes a global ID, a REST id or ext_ref.<ref>; administration(id) a slug or global ID', async (t) => {
  const rest = await createCustomer(app, adminId);
  const byRest = await data(app, 'query ($id: ID!) { customer(id: $id) { id } }', { id: rest.id });
  const byRef = await data(app, 'query ($id: ID!) { customer(id: $id) { id } }', { id: `ext_ref.${rest.external_reference.toUpperCase()}` });
  const byGlobal = await data(app, 'query ($id: ID!) { customer(id: $id) { databaseId } }', { id: byRest.customer.id });
  t.is(byRef.customer.id, byRest.customer.id);
  t.is(byGlobal.customer.databaseId, rest.id);
  const missing = await data(app, 'query ($id: ID!) { customer(id: $id) { id } }', { id: 'not-a-uuid' });
  t.is(missing.customer, null);

  const bySlug = await data(app, 'query ($id: ID!) { administration(id: $id) { id databaseId currency country localeId sellerName } }', { id: adminId.toUpperCase() });
  t.is(bySlug.administration.databaseId, adminId);
  t.is(bySlug.administration.currency, 'EUR');
  t.regex(bySlug.administration.sellerName, /^Seller /);
  const byId = await data(app, 'query ($id: ID!) { administration(id: $id) { databaseId } }', { id: bySlug.administration.id });
  t.is(byId.administration.databaseId, adminId);
});

test('a credential limited to another administration sees none of these customers', async (t) => {
  const rest = await createCustomer(app, adminId);
  const { customer } = await data(app, 'query ($id: ID!) { customer(id: $id) { id administration { id } } }', { id: rest.id });
  const other = await createAdministration(app);
  await createCustomer(app, other.id, { name: 'Visible' });
  await seedCustomers(app, other.id, 1, { addresses: 1, mandates: 1 });
  const scoped = await app.credential({ adminIds: [other.id] });

  const response = await graphql(app, `query ($id: ID!, $admin: ID!) {
    node(id: $id) { id }
    nodes(ids: [$id, $admin]) { id }
    customers(first: 100) { edges { node { name adminId billingAddresses { edges { node { city } } } } } }
    administrations { customers(first: 10) { edges { node { directDebitMandates(first: 10) { edges { node { bankAccountName } } } } } } }
    foreign: customers(adminId: $admin) { edges { node { id } } }
    administration(id: $admin) { id }
  }`, { id: customer.id, admin: customer.administration.id }, scoped);
  t.is(response.status, 200);
  t.falsy(response.body.errors);
  t.is(response.body.data?.node, null);
  t.deepEqual(response.body.data?.nodes, [null, null]);
  t.deepEqual(response.body.data?.customers.edges.map((e: any) => e.node), [
    { name: 'Visible', adminId: other.id, billingAddresses: { edges: [] } },
    { name: 'Seeded 0', adminId: other.id, billingAddresses: { edges: [{ node: { city: 'City 0.0' } }] } },
  ]);
  t.deepEqual(response.body.data?.administrations[0].customers.edges.map((e: any) => e.node.directDebitMandates.edges), [
    [], [{ node: { bankAccountName: 'Account 0.0' } }],
  ]);
  t.deepEqual(response.body.data?.foreign.edges, []);
  t.is(response.body.data?.administration, null);
});
