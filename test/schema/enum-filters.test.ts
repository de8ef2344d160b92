// GraphQL's filter arguments that REST answers as enum query filters: a GraphQL enum, or a String
// checked with the same yup block (an unknown value is validation_failed at the argument, never an
// empty list).
import test from 'ava';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { data, graphql } from './graphql.ts';

let app: TestApp;
test.before(async () => {
  app = await startTestApp();
  await app.stopWorker();
});
test.after.always(async () => { await app?.close(); });

const errorOf = async (query: string, variables: Record<string, unknown> = {}) => (await graphql(app, query, variables)).body.errors?.[0]?.extensions;

test('dropoutCases(reason): an unknown reason is validation_failed at $.reason; a known one lists', async (t) => {
  const query = 'query ($reason: String) { dropoutCases(reason: $reason, first: 5) { edges { node { id } } } }';
  t.like(await errorOf(query, { reason: 'bogus' }), { code: 'validation_failed', param: '$.reason' });
  t.like(await errorOf(query, { reason: 'UNKNOWN_TOKEN' }), { code: 'validation_failed', param: '$.reason' }, 'reasons are codes, compared exactly');
  t.deepEqual((await data(app, query, { reason: 'unknown_token' })).dropoutCases.edges, []);
  const rest = await app.request('GET', '/main/v1/cpo-dropout-case?reason=bogus');
  t.is(rest.status, 400);
  t.is(rest.body.query_param, 'reason');
});

test('events(kind): an unknown kind is validation_failed at $.kind; every kind a webhook takes is a filter, the drop-out kinds too', async (t) => {
  const query = 'query ($kind: String) { events(kind: $kind, first: 5) { edges { node { eventId } } } }';
  t.like(await errorOf(query, { kind: 'bogus' }), { code: 'validation_failed', param: '$.kind' });
  for (const kind of ['customer', 'msp_dropout_case', 'cpo_dropout_case']) {
    t.truthy((await data(app, query, { kind })).events, kind);
    const rest = await app.request('GET', `/main/v1/event?kind=${kind}`);
    t.is(rest.status, 200, kind);
  }
  const subscribed = await app.request('POST', '/main/v1/webhook-subscription', {
    body: { url: 'http://127.0.0.1:9/hook', kinds: ['msp_dropout_case', 'cpo_dropout_case'], secret: 'a-secret-of-16-chars-or-more' },
  });
  t.is(subscribed.status, 200, JSON.stringify(subscribed.body));
});

test('the other enumerated filters are GraphQL enums: an unknown value is a GraphQL validation error', async (t) => {
  for (const query of [
    '{ dropoutCases(status: BOGUS) { edges { node { id } } } }',
    '{ chargeSessions(status: BOGUS) { edges { node { id } } } }',
    '{ billingBoxes(state: BOGUS) { edges { node { id } } } }',
  ]) {
    const response = await graphql(app, query);
    t.is(response.body.errors?.[0]?.extensions?.code, 'GRAPHQL_VALIDATION_FAILED', query);
    t.falsy(response.body.data, query);
  }
});
