import test from 'ava';
import { readFileSync } from 'node:fs';
import { buildSchema, getNamedType, isNonNullType } from 'graphql';
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

const PAGE = `query ($admin: ID, $first: Int, $after: String, $last: Int, $before: String) {
  customers(adminId: $admin, first: $first, after: $after, last: $last, before: $before) {
    edges { cursor node { databaseId } }
    pageInfo { hasNextPage hasPreviousPage startCursor endCursor }
  }
}`;

test('customers are paged by id with first/after and last/before', async (t) => {
  const admin = (await createAdministration(app)).id;
  const ids = await seedCustomers(app, admin, 5);
  const first = (await data(app, PAGE, { admin, first: 2 })).customers;
  t.deepEqual(first.edges.map((e: any) => e.node.databaseId), ids.slice(0, 2));
  t.true(first.pageInfo.hasNextPage);
  t.is(first.pageInfo.endCursor, first.edges[1].cursor);

  const second = (await data(app, PAGE, { admin, first: 2, after: first.pageInfo.endCursor })).customers;
  t.deepEqual(second.edges.map((e: any) => e.node.databaseId), ids.slice(2, 4));
  t.true(second.pageInfo.hasNextPage);
  const third = (await data(app, PAGE, { admin, first: 2, after: second.pageInfo.endCursor })).customers;
  t.deepEqual(third.edges.map((e: any) => e.node.databaseId), ids.slice(4));
  t.false(third.pageInfo.hasNextPage);

  const back = (await data(app, PAGE, { admin, last: 2, before: third.edges[0].cursor })).customers;
  t.deepEqual(back.edges.map((e: any) => e.node.databaseId), ids.slice(2, 4));
  t.true(back.pageInfo.hasPreviousPage);
  const tail = (await data(app, PAGE, { admin, last: 1 })).customers;
  t.deepEqual(tail.edges.map((e: any) => e.node.databaseId), ids.slice(4));

  await data(app, UPDATE, { id: ids[0], input: { customFields: { a: 1 }, externalUpdatedAt: '2026-03-01T12:00:00+02:00', billingRollupGroupBy: 'PRODUCT' } });
  const nested = await data(app, `query ($id: ID!) { administration(id: $id) {
    customers(first: 3) { edges { node { ${FIELDS} } } pageInfo { hasNextPage } } } }`, { id: admin });
  t.deepEqual(nested.administration.customers.edges.map((e: any) => e.node.databaseId), ids.slice(0, 3));
  t.true(nested.administration.customers.pageInfo.hasNextPage);
  const root = await data(app, `query ($id: ID!) { customers(adminId: $id, first: 3) { edges { node { ${FIELDS} } } } }`, { id: admin });
  t.deepEqual(nested.administration.customers.edges, root.customers.edges, 'the batched load maps rows like the ORM');
  t.like(root.customers.edges[0].node, { customFields: { a: 1 }, externalUpdatedAt: '2026-03-01T10:00:00.000Z', billingRollupGroupBy: 'PRODUCT' });
});

test('bad paging arguments are client errors naming the argument', async (t) => {
  const cursor = await graphql(app, PAGE, { first: 1, after: 'nonsense' });
  t.is(cursor.status, 200);
  t.like(cursor.body.errors?.[0].extensions, { code: 'not_found', param: '$.after' });
  const negative = await graphql(app, PAGE, { first: -1 });
  t.like(negative.body.errors?.[0].extensions, { code: 'invalid_input', param: '$.first' });
});

// Both directions at once were taken as `first` alone (Pothos drops `last`): a page the client did not ask for.
test('first and last together are refused on every list of the schema, naming last', async (t) => {
  const schema = buildSchema(readFileSync(new URL('../../schema/schema.graphql', import.meta.url), 'utf8'));
  const lists = Object.entries(schema.getQueryType()!.getFields())
    .filter(([, field]) => getNamedType(field.type).name.endsWith('Connection') && !field.args.some((arg) => isNonNullType(arg.type)))
    .map(([name]) => name);
  t.true(lists.length >= 20, lists.join(', '));
  for (const name of lists) {
    const answer = await graphql(app, `{ ${name}(first: 1, last: 1) { edges { cursor } } }`);
    t.like(answer.body.errors?.[0]?.extensions, { code: 'invalid_input', param: '$.last' }, name);
  }
  const nested = await graphql(app, `query ($id: ID!) { administration(id: $id) { customers(first: 1, last: 1) { edges { cursor } } } }`, { id: adminId });
  t.like(nested.body.errors?.[0]?.extensions, { code: 'invalid_input', param: '$.last' }, 'a nested list');
  const empty = (await createAdministration(app)).id;
  t.is((await data(app, PAGE, { admin: empty, first: 1, last: null })).customers.edges.length, 0, 'null is no argument (an administration without customers)');
});

test('billing addresses and mandates are connections of the customer', async (t) => {
  const [one, two] = await seedCustomers(app, adminId, 2, { addresses: 3, mandates: 1 });
  const query = `query ($ids: [ID!]!, $after: String) { nodes(ids: $ids) { ... on Customer {
    databaseId
    billingAddresses(first: 2, after: $after) { edges { cursor node { city customer { databaseId } administration { databaseId } } } pageInfo { hasNextPage } }
    directDebitMandates { edges { node { bankAccountName iban validFrom validUntil defunct } } }
  } } }`;
  const globalIds = (await data(app, 'query ($a: ID!, $b: ID!) { a: customer(id: $a) { id } b: customer(id: $b) { id } }', { a: one, b: two }));
  const { nodes } = await data(app, query, { ids: [globalIds.a.id, globalIds.b.id] });
  t.deepEqual(nodes[0].billingAddresses.edges.map((e: any) => e.node.city), ['City 0.0', 'City 0.1']);
  t.deepEqual(nodes[1].billingAddresses.edges.map((e: any) => e.node.city), ['City 1.0', 'City 1.1']);
  t.true(nodes[0].billingAddresses.pageInfo.hasNextPage);
  t.deepEqual(nodes[0].billingAddresses.edges[0].node.customer, { databaseId: one });
  t.deepEqual(nodes[0].billingAddresses.edges[0].node.administration, { databaseId: adminId });
  t.deepEqual(nodes[1].directDebitMandates.edges.map((e: any) => e.node), [
    { bankAccountName: 'Account 1.0', iban: 'NL91ABNA0417164300', validFrom: '2026-01-01T00:00:00.000Z', validUntil: null, defunct: false },
  ]);

  const rest = await data(app, query, { ids: [globalIds.a.id], after: nodes[0].billingAddresses.edges[1].cursor });
  t.deepEqual(rest.nodes[0].billingAddresses.edges.map((e: any) => e.node.city), ['City 0.2']);
  t.false(rest.nodes[0].billingAddresses.pageInfo.hasNextPage);
});

const FIELDS = 'id databaseId adminId name country entityType externalReference companyRegNum localeId billingEmail reimbursementVat billingRollupGroupBy customFields chargeAuthRequestsBlocked externalUpdatedAt createdAt updatedAt';
const CREATE = `mutation ($input: CustomerInput!) { createCustomer(input: $input) { ${FIELDS} administration { sellerName } } }`;
const UPDATE = `mutation ($id: ID!, $input: CustomerInput!) { updateCustomer(id: $id, input: $input) { ${FIELDS} } }`;

test('createCustomer and updateCustomer call the customer services with merge semantics', async (t) => {
  const { createCustomer: created } = await data(app, CREATE, {
    input: {
      adminId, name: 'Grace', country: 'nl', entityType: 'ORGANISATION', reimbursementVat: 'EXEMPT', companyRegNum: 'KVK-1',
      customFields: { tier: 'gold', score: 3 }, externalUpdatedAt: '2026-01-02T10:00:00+01:00',
    },
  });
  t.like(created, {
    adminId, name: 'Grace', country: 'NL', entityType: 'ORGANISATION', reimbursementVat: 'EXEMPT', billingRollupGroupBy: null,
    customFields: { tier: 'gold', score: 3 }, chargeAuthRequestsBlocked: false, externalUpdatedAt: '2026-01-02T09:00:00.000Z',
  });
  t.regex(created.createdAt, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
  t.regex(created.administration.sellerName, /^Seller /, 'the administration the service loaded gets its seller too');
  const stored = await app.orm.em.fork().execute<{ data: unknown }[]>(
    `select e.data from svc_event e join customer c on c.id::text = e.resource_id where e.kind = 'customer' and c.id = ?`, [created.databaseId]);
  t.deepEqual(stored.map((e) => e.data), [(await app.request('GET', `/main/v1/customer/${created.databaseId}`)).body], 'one row, one create event with its data');

  const { updateCustomer: updated } = await data(app, UPDATE, {
    id: created.id, input: { name: 'Grace H.', companyRegNum: null, customFields: { score: null, level: 2 }, billingRollupGroupBy: 'TOKEN' },
  });
  t.like(updated, { id: created.id, name: 'Grace H.', country: 'NL', entityType: 'ORGANISATION', companyRegNum: null, billingRollupGroupBy: 'TOKEN' });
  t.deepEqual(updated.customFields, { tier: 'gold', level: 2 });

  const rest = await app.request('GET', `/main/v1/customer/${created.databaseId}`);
  t.is(rest.body.name, 'Grace H.');
  t.is(rest.body.billing_rollup_group_by, 'token');
});

test('updateCustomer on ext_ref.<ref> creates a missing customer; on an unknown id it creates nothing', async (t) => {
  const { updateCustomer: created } = await data(app, UPDATE, { id: 'ext_ref.GQL-UPSERT-1', input: { adminId, name: 'Upserted', country: 'BE' } });
  t.is(created.externalReference, 'GQL-UPSERT-1');
  const { updateCustomer: again } = await data(app, UPDATE, { id: 'ext_ref.gql-upsert-1', input: { name: 'Upserted again' } });
  t.is(again.id, created.id);

  const missing = await graphql(app, UPDATE, { id: '0190f5d2-0000-7000-8000-000000000000', input: { name: 'x' } });
  t.is(missing.status, 200);
  t.is(missing.body.data?.updateCustomer, null);
  t.is(missing.body.errors?.[0].extensions?.code, 'not_found');
  t.deepEqual(missing.body.errors?.[0].path, ['updateCustomer']);
});

test('validation errors carry the code and the param of the input', async (t) => {
  const badCountry = await graphql(app, CREATE, { input: { adminId, name: 'Bad', country: 'Netherlands' } });
  t.is(badCountry.status, 200);
  t.is(badCountry.body.data?.createCustomer, null);
  t.like(badCountry.body.errors?.[0].extensions, { code: 'validation_failed', param: '$.input.country' });

  const noName = await graphql(app, CREATE, { input: { adminId, country: 'NL' } });
  t.like(noName.body.errors?.[0].extensions, { code: 'validation_failed', param: '$.input.name' });

  const customer = await createCustomer(app, adminId);
  const cleared = await graphql(app, UPDATE, { id: customer.id, input: { name: null } });
  t.like(cleared.body.errors?.[0].extensions, { code: 'invalid_input', param: '$.input.name' });

  const taken = await graphql(app, CREATE, { input: { adminId, name: 'Dup', country: 'NL', externalReference: customer.external_reference } });
  t.like(taken.body.errors?.[0].extensions, { code: 'duplicate', param: '$.input.externalReference' });

  const badDate = await graphql(app, UPDATE, { id: customer.id, input: { externalUpdatedAt: 'yesterday' } });
  t.true(badDate.status < 500);
  t.regex(badDate.body.errors?.[0].message ?? '', /externalUpdatedAt.*ISO 8601/);

  const scoped = await app.credential({ adminIds: [(await createAdministration(app)).id] });
  const foreignAdmin = await graphql(app, CREATE, { input: { adminId, name: 'Elsewhere', country: 'NL' } }, scoped);
  t.like(foreignAdmin.body.errors?.[0].extensions, { code: 'not_found', param: '$.input.adminId' });
  const foreignCustomer = await graphql(app, UPDATE, { id: customer.id, input: { name: 'Hijacked' } }, scoped);
  t.is(foreignCustomer.body.errors?.[0].extensions?.code, 'not_found');
  const after = await app.request('GET', `/main/v1/customer/${customer.id}`);
  t.is(after.body.name, customer.name);
});

// Found by probing (2026-11-29): REST stored "", after which every other "" was a unique violation (500).
test('an empty external reference is refused at its member by both transports, and nothing is stored', async (t) => {
  const customer = await createCustomer(app, adminId);
  const restUpdate = await app.request('POST', `/main/v1/customer/${customer.id}`, { body: { external_reference: '' } });
  t.like(restUpdate, { status: 400, body: { code: 'validation_failed', param: '$.external_reference' } });
  const restCreate = await app.request('POST', '/main/v1/customer', { body: { admin_id: adminId, name: 'Empty', country: 'NL', external_reference: '' } });
  t.like(restCreate, { status: 400, body: { code: 'validation_failed', param: '$.external_reference' } });
  const created = await graphql(app, CREATE, { input: { adminId, name: 'Empty', country: 'NL', externalReference: '' } });
  t.like(created.body.errors?.[0].extensions, { code: 'validation_failed', param: '$.input.externalReference' });
  const updated = await graphql(app, UPDATE, { id: customer.id, input: { externalReference: '' } });
  t.like(updated.body.errors?.[0].extensions, { code: 'validation_failed', param: '$.input.externalReference' });
  const [{ n }] = await app.orm.em.fork().execute<{ n: number }[]>(`select count(*)::int as n from customer where external_reference = ''`);
  t.is(n, 0);
  t.is((await app.request('GET', `/main/v1/customer/${customer.id}`)).body.external_reference, customer.external_reference);
  const cleared = await data(app, UPDATE, { id: customer.id, input: { externalReference: null } });
  t.is(cleared.updateCustomer.externalReference, null, 'null removes it');
});

test('charge authorization requests can be blocked and unblocked', async (t) => {
  const customer = await createCustomer(app, adminId);
  const blocked = await data(app, 'mutation ($id: ID!) { blockCustomerChargeAuthRequests(id: $id) { chargeAuthRequestsBlocked } }', { id: customer.id });
  t.true(blocked.blockCustomerChargeAuthRequests.chargeAuthRequestsBlocked);
  t.true((await app.request('GET', `/main/v1/customer/${customer.id}`)).body.charge_auth_requests_blocked);
  const unblocked = await data(app, 'mutation ($id: ID!) { unblockCustomerChargeAuthRequests(id: $id) { chargeAuthRequestsBlocked } }', {
    id: `ext_ref.${customer.external_reference}`,
  });
  t.false(unblocked.unblockCustomerChargeAuthRequests.chargeAuthRequestsBlocked);
});
