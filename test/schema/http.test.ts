import test from 'ava';
import { request as httpRequest } from 'node:http';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { createAdministration, createCustomer } from '../helpers/factories.ts';
import { graphql } from './graphql.ts';

let app: TestApp;
let adminId: string;
test.before(async () => {
  app = await startTestApp();
  adminId = (await createAdministration(app)).id;
});
test.after.always(async () => { await app?.close(); });

const CREATE = 'mutation ($input: CustomerInput!) { createCustomer(input: $input) { id } }';

test('missing or wrong credentials: 401 with the Basic challenge', async (t) => {
  for (const auth of [null, { publicId: app.admin.publicId, secret: 'wrong' }]) {
    const response = await graphql(app, '{ administrations { id } }', {}, auth);
    t.is(response.status, 401);
    t.is(response.headers.get('www-authenticate'), 'Basic realm="main"');
    t.is(response.body.errors?.[0].extensions?.code, 'UNAUTHENTICATED');
    t.is(response.headers.get('x-svc-version') !== null, true);
  }
});

test('GraphiQL is served to a browser without credentials', async (t) => {
  const response = await app.request('GET', '/graphql', { auth: null, headers: { accept: 'text/html,application/xhtml+xml' } });
  t.is(response.status, 200);
  t.regex(response.headers.get('content-type') ?? '', /text\/html/);
  t.regex(String(response.body), /graphiql/i);
  const query = await app.request('GET', `/graphql?query=${encodeURIComponent('{ administrations { id } }')}`, { auth: null });
  t.is(query.status, 401, 'a GET query is not a GraphiQL page');
});

test('queries also work over GET; mutations do not', async (t) => {
  const response = await app.request('GET', `/graphql?query=${encodeURIComponent('{ administrations { databaseId } }')}`);
  t.is(response.status, 200);
  t.true(response.body.data.administrations.some((a: { databaseId: string }) => a.databaseId === adminId));
  const mutation = await app.request('GET', `/graphql?query=${encodeURIComponent('mutation { blockCustomerChargeAuthRequests(id: "x") { id } }')}`);
  t.is(mutation.status, 405);
});

test('GET parameters variables and extensions are JSON: anything else is 400 at the parameter, never a 500', async (t) => {
  const query = `/graphql?query=${encodeURIComponent('{ __typename }')}`;
  for (const [name, value] of [['variables', '{broken'], ['extensions', '{broken'], ['variables', '{"n":1}&variables={}']] as const) {
    const r = await app.request('GET', `${query}&${name}=${value.includes('&') ? value.replace(/[{}":,]/g, encodeURIComponent) : encodeURIComponent(value)}`);
    t.is(r.status, 400, `${name}=${value}: ${JSON.stringify(r.body)}`);
    t.like(r.body.errors?.[0]?.extensions, { code: 'invalid_query', query_param: name }, `${name}=${value}`);
  }
  const fine = await app.request('GET', `${query}&variables=${encodeURIComponent('{"n":1}')}`);
  t.is(fine.status, 200);
  t.deepEqual(fine.body.data, { __typename: 'Query' });
});

test('methods other than GET and POST are 405 with Allow, also TRACE, which fetch refuses (it was a 500)', async (t) => {
  const { hostname, port } = new URL(app.url);
  const authorization = `Basic ${Buffer.from(`${app.admin.publicId}:${app.admin.secret}`).toString('base64')}`;
  for (const method of ['TRACE', 'PUT', 'DELETE', 'PATCH', 'OPTIONS']) {
    // node:http, as fetch refuses to send TRACE.
    const answer = await new Promise<{ status: number; allow?: string }>((resolve, reject) => {
      httpRequest({ hostname, port, path: '/graphql', method, headers: { authorization } }, (response) => {
        response.resume();
        response.on('end', () => resolve({ status: response.statusCode ?? 0, allow: response.headers.allow }));
      }).on('error', reject).end();
    });
    t.deepEqual(answer, { status: 405, allow: 'GET, POST' }, method);
  }
});

test('a readonly credential may query but not mutate', async (t) => {
  const readonly = await app.credential({ role: 'readonly' });
  const query = await graphql(app, '{ administrations { databaseId } }', {}, readonly);
  t.is(query.status, 200);
  t.falsy(query.body.errors);
  const mutation = await graphql(app, CREATE, { input: { adminId, name: 'Nope', country: 'NL' } }, readonly);
  t.is(mutation.status, 403);
  t.is(mutation.body.errors?.[0].extensions?.code, 'FORBIDDEN');
  t.falsy(mutation.body.data?.createCustomer);
  const list = await app.request('GET', `/main/v1/customer?admin_id=${adminId}`);
  t.false(list.body.items.some((c: { name: string }) => c.name === 'Nope'), 'nothing was created');
});

test('an App API credential cannot use GraphQL beyond the viewer root', async (t) => {
  const appCredential = await app.credential({ role: 'app' });
  const response = await graphql(app, '{ administrations { id } }', {}, appCredential);
  t.is(response.status, 403);
  t.is(response.body.errors?.[0].extensions?.code, 'FORBIDDEN');
});

test('the rate limit of a credential applies', async (t) => {
  const limited = await app.credential({ rateLimitPerMinute: 2 });
  const statuses: number[] = [];
  for (let i = 0; i < 3; i++) statuses.push((await graphql(app, '{ administrations { id } }', {}, limited)).status);
  t.deepEqual(statuses.slice(0, 2), [200, 200]);
  // The third may fall into a new minute window; then it passes.
  if (statuses[2] !== 200) t.is(statuses[2], 429);
});

test('bodies are checked like REST bodies: JSON only, strict, bounded', async (t) => {
  const form = await app.request('POST', '/graphql', { raw: 'query={administrations{id}}', headers: { 'content-type': 'application/x-www-form-urlencoded' } });
  t.is(form.status, 400);
  t.is(form.body.errors[0].extensions.code, 'unsupported_content_type');
  // A JSON type of its own (`+json`) is read as JSON, as on /main/v1 (it was an empty 415).
  const suffixed = await app.request('POST', '/graphql', { raw: '{"query": "{ administrations { id } }"}', headers: { 'content-type': 'application/foo+json' } });
  t.is(suffixed.status, 200, JSON.stringify(suffixed.body));
  t.truthy(suffixed.body.data?.administrations);
  const duplicate = await app.request('POST', '/graphql', { raw: '{"query": "{ administrations { id } }", "query": "x"}' });
  t.is(duplicate.status, 400);
  t.is(duplicate.body.errors[0].extensions.code, 'invalid_json');
  t.is(duplicate.body.errors[0].extensions.param, '$.query');
  const syntax = await graphql(app, '{ administrations { id }');
  t.true(syntax.status < 500);
  t.is(syntax.body.errors?.[0].extensions?.code, 'GRAPHQL_PARSE_FAILED');
});

test('every request has its own scoped unit of work', async (t) => {
  const other = await createAdministration(app);
  const foreign = await createCustomer(app, other.id);
  const scoped = await app.credential({ adminIds: [adminId] });
  const response = await graphql(app, 'query ($id: ID!) { customer(id: $id) { name } administrations { databaseId } }', { id: foreign.id }, scoped);
  t.is(response.status, 200);
  t.is(response.body.data?.customer, null);
  t.deepEqual(response.body.data?.administrations, [{ databaseId: adminId }]);
});
