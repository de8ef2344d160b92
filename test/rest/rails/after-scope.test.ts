// `after` names an item the caller sees (decisions.md, Pagination), and an item outside its
// administrations is answered exactly like a missing one. The lists whose entity has no
// administration filter (rate plans, webhook subscriptions, events: their scope is a condition of
// the list) accepted another administration's item as `after`: an oracle of its existence
// (SeekList `scope`, src/platform/seek-page.ts). GraphQL's root connections check `after` and
// `before` with the same SeekList `has` (schema/connection.ts; found by probing, 2026-11-29: a
// cursor of another administration's item, or of none, answered a page).
import test from 'ava';
import pg from 'pg';
import { startTestApp, type Auth, type TestApp } from '../../helpers/app.ts';
import { createAdministration, createCustomer } from '../../helpers/factories.ts';
import { createRatePlan, SIMPLE_RATES } from '../../helpers/session-factories.ts';
import { data, graphql } from '../../schema/graphql.ts';

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

/** The limited credential's answer for `after` = another administration's item, and for an id of no item. */
async function afterAnswers(list: string, theirsKey: string, missingKey: string) {
  const answer = async (key: string) => {
    const r = await app.request('GET', `/main/v1/${list}?after=${key}`, { auth: limited });
    return { status: r.status, code: r.body.code, param: r.body.query_param };
  };
  return { theirs: await answer(theirsKey), missing: await answer(missingKey) };
}

const missingUuid = (id: string) => `${id.slice(0, -6)}abcdef`;

test('rate plans, webhook subscriptions and events: another administration\'s item as `after` is not_found, like a missing one', async (t) => {
  const plan = await createRatePlan(app, [{ valid_from: '2025-01-01T00:00:00Z', definition: SIMPLE_RATES }], [theirs]);
  await createRatePlan(app, [{ valid_from: '2025-01-01T00:00:00Z', definition: SIMPLE_RATES }], [mine]);
  const hook = await app.request('POST', '/main/v1/webhook-subscription', {
    body: { url: 'http://127.0.0.1:9/hook', kinds: ['customer'], secret: 'whsec-after-scope-0123456789', admin_ids: [theirs] },
  });
  const customer = await app.request('POST', '/main/v1/customer', { body: { admin_id: theirs, name: 'Their customer', country: 'NL' } });
  const db = new pg.Client({ connectionString: app.databaseUrl });
  await db.connect();
  const event = (await db.query('select id::text from svc_event where resource_id = $1 order by id limit 1', [customer.body.id]).finally(() => db.end())).rows[0].id as string;
  const notFound = { status: 400, code: 'not_found', param: 'after' };
  for (const [list, key, missing] of [['rate-plan', plan, missingUuid(plan)], ['webhook-subscription', hook.body.id, missingUuid(hook.body.id)], ['event', event, '999999999']]) {
    t.deepEqual(await afterAnswers(list, key, missing), { theirs: notFound, missing: notFound }, list);
  }
  // Its own items page on: the administrator sees them all.
  for (const [list, key] of [['rate-plan', plan], ['webhook-subscription', hook.body.id], ['event', event]]) {
    t.is((await app.request('GET', `/main/v1/${list}?after=${key}`)).status, 200, list);
  }
});

async function cursorAnswer(list: string, argument: 'after' | 'before', cursor: string) {
  const size = argument === 'after' ? 'first' : 'last';
  const r = await graphql(app, `query ($c: String) { ${list}(${size}: 5, ${argument}: $c) { edges { node { databaseId } } } }`, { c: cursor }, limited);
  return { status: r.status, code: r.body.errors?.[0]?.extensions?.code, param: r.body.errors?.[0]?.extensions?.param, data: r.body.data?.[list] ?? null };
}

test('GraphQL: after and before of another administration\'s item, or of none, are not_found at the argument, as REST answers', async (t) => {
  const hidden = await createCustomer(app, theirs);
  const visible = await createCustomer(app, mine);
  await createCustomer(app, mine);
  const rest = await app.request('GET', `/main/v1/customer?after=${hidden.id}`, { auth: limited });
  t.like(rest, { status: 400, body: { code: 'not_found', query_param: 'after' } });

  const theirPlan = await createRatePlan(app, [{ valid_from: '2025-01-01T00:00:00Z', definition: SIMPLE_RATES }], [theirs]);
  // Rate plans have no administration filter: their scope is a condition of the list.
  for (const [list, cursors] of [['customers', [hidden.id, missingUuid(hidden.id)]], ['ratePlans', [theirPlan, missingUuid(theirPlan)]]] as const) {
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
