import test, { type ExecutionContext } from 'ava';
import { getIntrospectionQuery } from 'graphql';
import pg from 'pg';
import { startTestApp, type Auth, type TestApp } from '../helpers/app.ts';
import { createAdministration, createCustomer } from '../helpers/factories.ts';
import { countQueries } from '../helpers/sql-count.ts';
import { graphql, type GraphQLBody } from './graphql.ts';
import type { Response } from '../helpers/app.ts';

let app: TestApp;
let adminId: string;
let readonly: Auth;
test.before(async () => {
  app = await startTestApp();
  adminId = (await createAdministration(app)).id;
  for (let i = 0; i < 3; i++) await createCustomer(app, adminId);
  readonly = await app.credential({ role: 'readonly' });
});
test.after.always(async () => { await app?.close(); });

const NORMAL = '{ customers(first: 2) { edges { node { name } } } }';

/** customers → administration → customers → ... `levels` connections deep. */
function nested(levels: number, first: number, leaf = 'name'): string {
  let inner = leaf;
  for (let i = 0; i < levels; i++) inner = `customers(first: ${first}) { edges { node { ${i === 0 ? inner : `administration { ${inner} }`} } } }`;
  return `{ ${inner} }`;
}

function refused(t: ExecutionContext, response: Response<GraphQLBody>) {
  t.is(response.status, 400, JSON.stringify(response.body));
  t.is(response.body.errors?.[0].extensions?.code, 'QUERY_TOO_COMPLEX', JSON.stringify(response.body));
  t.falsy(response.body.data, 'nothing was executed');
}

async function normalQueryWorks(t: ExecutionContext, auth?: Auth) {
  const after = await graphql(app, NORMAL, {}, auth);
  t.is(after.status, 200);
  t.falsy(after.body.errors);
  t.is(after.body.data?.customers.edges.length, 2);
}

test.serial('the nested customers → administration → customers query of a readonly credential is refused before any database query', async (t) => {
  await normalQueryWorks(t, readonly); // authenticates the credential (cached afterwards)
  for (const hostile of [nested(3, 100), nested(8, 1000)]) {
    let response!: Response<GraphQLBody>;
    const queries = await countQueries(app.orm, async () => { response = await graphql(app, hostile, {}, readonly); });
    refused(t, response);
    t.deepEqual(queries.filter((sql) => !/credential/i.test(sql)), [], 'no database query ran');
    await normalQueryWorks(t, readonly);
  }
});

test('nothing of a refused mutation is executed', async (t) => {
  const name = `Refused ${Date.now()}`;
  const mutation = 'mutation ($input: CustomerInput!) { createCustomer(input: $input) { administration { customers(first: 101) { edges { node { id } } } } } }';
  refused(t, await graphql(app, mutation, { input: { adminId, name, country: 'NL' } }));
  const list = await app.request('GET', `/main/v1/customer?admin_id=${adminId}`);
  t.false(list.body.items.some((customer: { name: string }) => customer.name === name));
});

test('first and last are at most 100: more is refused, in the text or in a variable', async (t) => {
  t.falsy((await graphql(app, '{ customers(first: 100) { edges { node { id } } } }')).body.errors);
  t.falsy((await graphql(app, '{ customers(last: 100) { edges { node { id } } } }')).body.errors);
  const text = await graphql(app, '{ customers(first: 101) { edges { node { id } } } }');
  refused(t, text);
  t.regex(text.body.errors![0].message, /first of customers is 101; a page holds at most 100/);
  refused(t, await graphql(app, '{ customers(last: 1000) { edges { node { id } } } }'));
  refused(t, await graphql(app, 'query ($n: Int) { customers(first: $n) { edges { node { id } } } }', { n: 101 }));
  refused(t, await graphql(app, 'query ($n: Int = 500) { customers(first: $n) { edges { node { id } } } }'));
  const nestedPage = await graphql(app, `{ administrations { customers(first: 5000) { edges { node { id } } } } }`);
  refused(t, nestedPage);
});

test('the cost is the page sizes multiplied down the tree', async (t) => {
  // 100 + 100 administrations + 100 × 100 customers: well under the bound.
  const two = await graphql(app, nested(2, 100));
  t.is(two.status, 200);
  t.falsy(two.body.errors);
  // Three levels of 100 may load about a million records.
  refused(t, await graphql(app, nested(3, 100)));
  // Three levels of the default page size (50) are over the bound as well; smaller pages pass.
  refused(t, await graphql(app, nested(3, 50).replaceAll('(first: 50)', '')));
  t.falsy((await graphql(app, nested(3, 10))).body.errors);
  // Unpaged lists count as 100 each.
  refused(t, await graphql(app, '{ administrations { customers(first: 100) { edges { node { administration { customers(first: 10) { edges { node { id } } } } } } } } }'));
});

test('fragments are counted at every spread, and measured without walking an exponential tree', async (t) => {
  // F40 stands for 2^40 copies of F0: the walk measures each fragment once.
  const fragments = ['fragment F0 on Customer { administration { customers(first: 2) { edges { node { id } } } } }'];
  for (let i = 1; i <= 40; i++) fragments.push(`fragment F${i} on Customer { ...F${i - 1} ...F${i - 1} }`);
  const one = await graphql(app, `{ customers(first: 2) { edges { node { ...F0 } } } } ${fragments[0]}`);
  t.falsy(one.body.errors);
  const response = await graphql(app, `{ customers(first: 2) { edges { node { ...F40 } } } } ${fragments.join(' ')}`);
  refused(t, response);
});

test('at most 100 aliases: 500 aliased connections are refused', async (t) => {
  const connections = Array.from({ length: 500 }, (_, i) => `c${i}: customers(first: 1) { edges { node { id } } }`).join(' ');
  refused(t, await graphql(app, `{ ${connections} }`)); // over the token limit as well
  const short = Array.from({ length: 500 }, (_, i) => `c${i}: customers { pageInfo { hasNextPage } }`).join(' ');
  const response = await graphql(app, `{ ${short} }`);
  refused(t, response);
  t.regex(response.body.errors![0].message, /500 aliases/);
  const hundred = Array.from({ length: 100 }, (_, i) => `a${i}: __typename`).join(' ');
  t.falsy((await graphql(app, `{ ${hundred} }`)).body.errors);
  refused(t, await graphql(app, `{ ${hundred} extra: __typename }`));
});

test('fields nest at most 12 deep; a connection\'s edges { node } is one level', async (t) => {
  const twelve = nested(4, 2); // customers edges administration customers ... edges name
  t.falsy((await graphql(app, twelve)).body.errors);
  const response = await graphql(app, nested(4, 2, 'administration { name }'));
  refused(t, response);
  t.regex(response.body.errors![0].message, /13 deep/);
  // 1,600 levels: under the token limit, refused without a stack overflow.
  const deep = `{ customers { edges { node { administration { ${'a { '.repeat(1600)}b${' }'.repeat(1600)} } } } } }`;
  refused(t, await graphql(app, deep));
  await normalQueryWorks(t);
});

test('one operation per request', async (t) => {
  const two = 'query A { __typename } query B { __typename }';
  const response = await app.request('POST', '/graphql', { body: { query: two, operationName: 'A' } });
  refused(t, response);
  t.falsy((await app.request('POST', '/graphql', { body: { query: 'query A { __typename }', operationName: 'A' } })).body.errors);
});

test('documents are at most 5,000 tokens', async (t) => {
  const response = await graphql(app, `{ ${'__typename '.repeat(5001)} }`);
  refused(t, response);
  t.regex(response.body.errors![0].message, /more than 5000 tokens/);
  refused(t, await graphql(app, `{ ${'a { '.repeat(100_000)}b${' }'.repeat(100_000)} }`));
  await normalQueryWorks(t);
});

// Found by probing (2026-11-29): a 5 KB list literal under the token limit overflowed the parser's recursion (500).
test('brackets, braces and parentheses nest at most 64 deep, and so do the variables of a GET: deeper is refused before parsing', async (t) => {
  const list = (depth: number) => `{ nodes(ids: ${'['.repeat(depth)}"x"${']'.repeat(depth)}) { id } }`;
  for (const depth of [2490, 2100, 63]) {
    const response = await graphql(app, list(depth));
    refused(t, response);
    t.regex(response.body.errors![0].message, /nest.*64/);
  }
  const customFields = (value: string) => `mutation { createCustomer(input: { adminId: "${adminId}", name: "Deep", country: "NL", customFields: { a: ${value} } }) { id } }`;
  for (const value of [`${'['.repeat(2400)}1${']'.repeat(2400)}`, `${'{ a: '.repeat(1200)}1${' }'.repeat(1200)}`]) {
    const response = await graphql(app, customFields(value));
    refused(t, response);
    t.notRegex(JSON.stringify(response.body), /call stack/);
  }
  // `{ nodes(` and 62 list levels are 64: measured as usual (the value is the field's to refuse)
  const atBound = await graphql(app, list(62));
  t.not(atBound.status, 500);
  t.not(atBound.body.errors?.[0].extensions?.code, 'QUERY_TOO_COMPLEX', JSON.stringify(atBound.body).slice(0, 300));

  const get = (variables: string) => app.request('GET', `/graphql?query=${encodeURIComponent('{ __typename }')}&variables=${variables}`);
  for (const depth of [7000, 65]) {
    const response = await get(`{"v":${'['.repeat(depth - 1)}${']'.repeat(depth - 1)}}`);
    refused(t, response);
  }
  const shallow = await get(`{"v":${'['.repeat(63)}${']'.repeat(63)}}`);
  t.is(shallow.status, 200, JSON.stringify(shallow.body).slice(0, 300));
  await normalQueryWorks(t);
});

test('introspection stays on: the queries GraphiQL sends pass, a recursive one does not', async (t) => {
  for (const options of [{}, { inputValueDeprecation: true, schemaDescription: true }, { inputValueDeprecation: true, specifiedByUrl: true, directiveIsRepeatable: true }]) {
    const response = await graphql(app, getIntrospectionQuery(options), {}, readonly);
    t.is(response.status, 200);
    t.falsy(response.body.errors);
    t.true(response.body.data?.__schema.types.some((type: { name: string }) => type.name === 'Customer'));
  }
  const type = await graphql(app, '{ __type(name: "Customer") { fields { name type { kind name ofType { kind name ofType { name } } } } } }');
  t.falsy(type.body.errors);
  const recursive = await graphql(app, '{ __schema { types { fields { type { fields { type { fields { name } } } } } } } }');
  refused(t, recursive);
  t.regex(recursive.body.errors![0].message, /introspection/);
  // Aliases of the schema (a 17 KB request answered 20 MB): one __schema, ten __type.
  const schemas = await graphql(app, `{ ${Array.from({ length: 2 }, (_, i) => `s${i}: __schema { types { name fields { name } } }`).join(' ')} }`);
  refused(t, schemas);
  t.regex(schemas.body.errors![0].message, /__schema is asked 2 times/);
  const types = (n: number) => `{ ${Array.from({ length: n }, (_, i) => `t${i}: __type(name: "Query") { fields { name } }`).join(' ')} }`;
  t.falsy((await graphql(app, types(10))).body.errors);
  refused(t, await graphql(app, types(11)));
});

test('a negative first of a plain list lowers no cost: the rest of the operation is measured as it is', async (t) => {
  const costly = nested(3, 100);
  refused(t, await graphql(app, costly));
  const hidden = costly.replace(/}$/, 'billingBoxes(first: 1) { edges { node { rollups { items(first: -100000000) { databaseId } } } } } }');
  const response = await graphql(app, hidden);
  refused(t, response);
  t.regex(response.body.errors![0].message, /may load about \d+ records/);
});

test.serial('a query is stopped after the time limit (SVC_GRAPHQL_TIME_LIMIT_MS) and the service keeps serving', async (t) => {
  // The customer table is locked, so the query waits in PostgreSQL; its answer can only come
  // while the lock is held if the time limit stopped it. Stopped while it waits for the database,
  // the database is what was slow: 503 SERVICE_UNAVAILABLE with Retry-After, as the request's own
  // database bound answers (decisions "Running the service"; before: 200 QUERY_TIMEOUT).
  const locker = new pg.Client({ connectionString: app.databaseUrl });
  await locker.connect();
  process.env.SVC_GRAPHQL_TIME_LIMIT_MS = '300';
  try {
    await locker.query('begin');
    await locker.query('lock table customer in access exclusive mode');
    const started = Date.now();
    const response = await graphql(app, NORMAL);
    t.true(Date.now() - started < 5000, 'the time limit answered, not the database bound');
    t.is(response.status, 503);
    t.is(response.headers.get('retry-after'), '5');
    t.is(response.body.errors?.[0].extensions?.code, 'SERVICE_UNAVAILABLE');
    t.falsy(response.body.data);
  } finally {
    delete process.env.SVC_GRAPHQL_TIME_LIMIT_MS;
    await locker.query('rollback').catch(() => {});
    await locker.end();
  }
  await normalQueryWorks(t);
});

// Found by probing (2026-11-29): the cost counts records, not their size; one customer with 50 KB of
// custom fields, asked 1,000 times (nodes of one id repeated, under aliases), was answered with 50 MB.
test('an answer is at most 16 MB: one large record repeated under aliases is refused, as it is asked once', async (t) => {
  const customFields = Object.fromEntries(Array.from({ length: 50 }, (_, i) => [`k${i}`, 'x'.repeat(1000)]));
  const customer = await createCustomer(app, adminId, { custom_fields: customFields });
  const id = (await graphql(app, 'query ($id: ID!) { customer(id: $id) { id } }', { id: customer.id })).body.data?.customer.id;
  const aliases = (n: number) => Array.from({ length: n }, (_, i) => `a${i}: nodes(ids: $ids) { ... on Customer { customFields } }`).join(' ');
  const ids = Array.from({ length: 100 }, () => id);
  const large = await graphql(app, `query ($ids: [ID!]!) { ${aliases(4)} }`, { ids }, readonly);
  // (Not refused(): its message would print the 20 MB answer.)
  t.deepEqual([large.status, large.body.errors?.[0].extensions?.code, large.body.data ? 'answered' : null], [400, 'QUERY_TOO_COMPLEX', null]);
  t.regex(large.body.errors?.[0].message ?? '', /more than 16777216 characters/);
  const small = await graphql(app, `query ($ids: [ID!]!) { ${aliases(1)} }`, { ids: [id] }, readonly);
  t.is(small.status, 200);
  t.is(Object.keys(small.body.data?.a0[0].customFields).length, 50);
  await normalQueryWorks(t, readonly);
});
