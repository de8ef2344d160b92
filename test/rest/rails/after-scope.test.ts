// `after` names an item the caller sees (decisions.md, Pagination), and an item outside its
// administrations is answered exactly like a missing one. The lists whose entity has no
// administration filter (rate plans, webhook subscriptions, events: their scope is a condition of
// the list) accepted another administration's item as `after`: an oracle of its existence
// (SeekList `scope`, src/platform/seek-page.ts).
import test from 'ava';
import pg from 'pg';
import { startTestApp, type Auth, type TestApp } from '../../helpers/app.ts';
import { createAdministration } from '../../helpers/factories.ts';
import { createRatePlan, SIMPLE_RATES } from '../../helpers/session-factories.ts';

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
