// A connection's `after` and `before` name an item of the list the caller sees, as REST's `after`
// does (decisions.md "Pagination"; one check, SeekList `has` of src/platform/seek-page.ts). Found by
// probing (2026-11-29): a cursor of another administration's item, or of none, answered a page.
import test from 'ava';
import { startTestApp, type Auth, type TestApp } from '../helpers/app.ts';
import { createAdministration, createCustomer } from '../helpers/factories.ts';
import { createRatePlan, SIMPLE_RATES } from '../helpers/session-factories.ts';
import { data, graphql } from './graphql.ts';

let app: TestApp;
let limited: Auth;
let theirs: string;
let mine: string;
test.before(async () => {
  app = await startTestApp();
  theirs = (await createAdministration(app)).id;
  mine = (await createAdministration(app)).id;
  limited = await app.credential({ role: 'admin', adminIds: [mine] });
});
test.after.always(async () => { await app?.close(); });

const missing = (id: string) => `${id.slice(0, -6)}abcdef`;

async function cursorAnswer(list: string, argument: 'after' | 'before', cursor: string) {
  const size = argument === 'after' ? 'first' : 'last';
  const r = await graphql(app, `query ($c: String) { ${list}(${size}: 5, ${argument}: $c) { edges { node { databaseId } } } }`, { c: cursor }, limited);
  return { status: r.status, code: r.body.errors?.[0]?.extensions?.code, param: r.body.errors?.[0]?.extensions?.param, data: r.body.data?.[list] ?? null };
}

test('after and before of another administration\'s item, or of none, are not_found at the argument, as REST answers', async (t) => {
  const hidden = await createCustomer(app, theirs);
  const visible = await createCustomer(app, mine);
  await createCustomer(app, mine);
  const rest = await app.request('GET', `/main/v1/customer?after=${hidden.id}`, { auth: limited });
  t.like(rest, { status: 400, body: { code: 'not_found', query_param: 'after' } });

  const theirPlan = await createRatePlan(app, [{ valid_from: '2025-01-01T00:00:00Z', definition: SIMPLE_RATES }], [theirs]);
  // Rate plans have no administration filter: their scope is a condition of the list.
  for (const [list, cursors] of [['customers', [hidden.id, missing(hidden.id)]], ['ratePlans', [theirPlan, missing(theirPlan)]]] as const) {
    for (const argument of ['after', 'before'] as const) {
      for (const cursor of cursors) {
        t.deepEqual(await cursorAnswer(list, argument, cursor), { status: 200, code: 'not_found', param: `$.${argument}`, data: null }, `${list} ${argument} ${cursor}`);
      }
    }
  }

  const page = await data(app, 'query ($c: String) { customers(first: 5, after: $c) { edges { node { databaseId } } } }', { c: visible.id }, limited);
  t.is(page.customers.edges.length, 1, 'a visible item pages on');
  const back = await data(app, 'query ($c: String) { customers(last: 5, before: $c) { edges { node { databaseId } } } }', { c: visible.id }, limited);
  t.deepEqual(back.customers.edges, []);
});
