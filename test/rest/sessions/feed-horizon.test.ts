// A poller of GET /msp-charge-session-priced (or /msp-charge-session) stores the last id it saw and
// asks for what comes after it (the spec's paging). Processing batches run side by side (two lanes a
// worker, two workers here) and ingestion statements in every process, and they commit out of id
// order: a page must never show a row while one of a smaller id can still commit, or the poller
// steps past that one for good.
import type { AddressInfo } from 'node:net';
import test from 'ava';
import pg from 'pg';
import { createApp } from '../../../rest/app.ts';
import { startTestApp, type TestApp } from '../../helpers/app.ts';
import { createAdministration } from '../../helpers/factories.ts';
import { pricedSubscription, processed, sessionBody, submitSession } from '../../helpers/session-factories.ts';
import { openOrm } from '../../../src/platform/orm.ts';
import { ormConfig } from '../../../mikro-orm.config.ts';
import { runWorker } from '../../../src/worker/worker.ts';

let app: TestApp;
let evcoId: string;

test.before(async () => {
  app = await startTestApp();
  ({ evcoId } = await pricedSubscription(app, (await createAdministration(app)).id));
});
test.after.always(() => app?.close());

/** Until a statement waits in test_hold (the test's trigger, sleeping until test_gate opens). */
async function untilHeld(db: pg.Client): Promise<void> {
  const held = async () => (await db.query(`select count(*)::int as n from pg_stat_activity where datname = current_database() and wait_event = 'PgSleep'`)).rows[0].n > 0;
  for (const until = Date.now() + 10_000; !await held(); await new Promise((resolve) => setTimeout(resolve, 20))) {
    if (Date.now() > until) throw new Error('nothing was held');
  }
}

async function secondWorker(t: import('ava').ExecutionContext) {
  const orm = await openOrm(ormConfig(app.databaseUrl, { poolMax: 4 }));
  const worker = await runWorker(orm, app.databaseUrl, { clockJobs: false });
  t.teardown(async () => { await worker.stop(); await orm.close(); });
}

/** Polls a list from `cursor` to its end: the ids it shows, and the cursor a poller stores. */
async function poll(cursor: string | null, list = 'msp-charge-session-priced'): Promise<{ ids: string[]; cursor: string | null }> {
  const ids: string[] = [];
  let path: string | undefined = `/main/v1/${list}${cursor ? `?after=${cursor}` : ''}`;
  while (path) {
    const r: { status: number; body: { items: { id: string }[]; link_next?: string } } = await app.request('GET', path);
    if (r.status !== 200) throw new Error(JSON.stringify(r.body));
    ids.push(...r.body.items.map((item) => item.id));
    path = r.body.link_next ? `/main/v1${r.body.link_next.replace(/^\/main\/v1/, '')}` : undefined;
  }
  return { ids, cursor: ids.at(-1) ?? cursor };
}

test.serial('a batch that commits after a later one: the poller that stores the last id still gets every result, once', async (t) => {
  const db = new pg.Client({ connectionString: app.databaseUrl });
  await db.connect();
  t.teardown(() => db.end());
  const first = await poll(null);
  // The batch of session A waits before writing its results (a trigger), holding what it priced.
  await db.query('create table test_gate (open boolean)');
  await db.query('insert into test_gate values (false)');
  const a = await submitSession(app, sessionBody(evcoId, { session_id: 'FEED-A' }));
  await db.query(`create function test_hold() returns trigger language plpgsql as $$
    begin
      while not (select open from test_gate) loop perform pg_sleep(0.02); end loop;
      return new;
    end $$`);
  await db.query(`create trigger test_hold before insert on msp_pricing_result for each row when (new.session_id = '${a.id}') execute function test_hold()`);
  t.teardown(async () => {
    await db.query('update test_gate set open = true');
    await db.query('drop trigger if exists test_hold on msp_pricing_result');
  });
  await untilHeld(db);
  // Another worker prices session B meanwhile (A's batch holds its worker's processing runner).
  await secondWorker(t);
  const b = await submitSession(app, sessionBody(evcoId, { session_id: 'FEED-B' }));
  t.is((await processed(app, b.id)).status, 'priced');
  const whileHeld = await poll(first.cursor);
  t.deepEqual(whileHeld.ids, [], 'B\'s result waits while A\'s batch, which took its ids first, can still commit');
  await db.query('update test_gate set open = true');
  t.is((await processed(app, a.id)).status, 'priced');
  const after = await poll(whileHeld.cursor);
  const results = async (id: string) => (await app.request('GET', `/main/v1/msp-charge-session-priced?charge_session_id=${id}`)).body.items.map((r: { id: string }) => r.id);
  const expected = [...await results(a.id), ...await results(b.id)].sort();
  t.is(expected.length, 2);
  t.deepEqual([...whileHeld.ids, ...after.ids], expected, 'every result polled, in id order, once');
});

test.serial('an ingestion that commits after another process\'s later one: the poller of the sessions gets every session, once', async (t) => {
  const db = new pg.Client({ connectionString: app.databaseUrl });
  await db.connect();
  t.teardown(() => db.end());
  await app.stopWorker();
  const first = await poll(null, 'msp-charge-session');
  // A second process's app (its own ingestion queue: its own connection string to the same database).
  const orm = await openOrm(ormConfig(`${app.databaseUrl}?application_name=second`, { poolMax: 4 }));
  const server = createApp(orm).listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  t.teardown(async () => { server.close(); server.closeAllConnections(); await orm.close(); });
  const second = `http://127.0.0.1:${(server.address() as AddressInfo).port}/main/v1/charge-session`;
  const authorization = `Basic ${Buffer.from(`${app.admin.publicId}:${app.admin.secret}`).toString('base64')}`;
  await db.query('create table test_gate_sessions (open boolean)');
  await db.query('insert into test_gate_sessions values (false)');
  await db.query(`create function test_hold_session() returns trigger language plpgsql as $$
    begin
      while not (select open from test_gate_sessions) loop perform pg_sleep(0.02); end loop;
      return new;
    end $$`);
  await db.query(`create trigger test_hold_session before insert on msp_charge_session for each row when (new.session_id = 'FEED-S-A') execute function test_hold_session()`);
  t.teardown(async () => {
    await db.query('update test_gate_sessions set open = true');
    await db.query('drop trigger if exists test_hold_session on msp_charge_session');
  });
  // A is being stored by this app (its statement holds its ids), B is stored by the second one.
  const a = submitSession(app, sessionBody(evcoId, { session_id: 'FEED-S-A' }));
  await untilHeld(db);
  const b = await fetch(second, { method: 'POST', headers: { authorization, 'content-type': 'application/json' }, body: JSON.stringify(sessionBody(evcoId, { session_id: 'FEED-S-B' })) });
  t.is(b.status, 200);
  const bId = (await b.json() as { id: string }).id;
  const whileHeld = await poll(first.cursor, 'msp-charge-session');
  t.deepEqual(whileHeld.ids, [], 'B waits while A\'s statement, which took its id first, can still commit');
  await db.query('update test_gate_sessions set open = true');
  const aId = (await a).id;
  const after = await poll(whileHeld.cursor, 'msp-charge-session');
  t.deepEqual([...whileHeld.ids, ...after.ids], [aId, bId].sort(), 'every session polled, in id order, once');
});
