// A poller of GET /msp-charge-session-priced (/msp-charge-session and its -progress, /cpo-charge-session-reimbursement)
// stores the last id it saw and asks for what comes after it (the spec's paging). Processing batches
// run side by side (two lanes a worker, two workers here) and ingestion statements in every process,
// and they commit out of id order: a page must never show a row while one of a smaller id can still
// commit, or the poller steps past that one for good.
import type { AddressInfo } from 'node:net';
import test from 'ava';
import pg from 'pg';
import { createApp } from '../../../rest/app.ts';
import { startTestApp, type TestApp } from '../../helpers/app.ts';
import { createAdministration, createCustomer } from '../../helpers/factories.ts';
import { cpoSessionBody, createLocatedEvse, createReimbursementPlan, reimburseEvse, settledCpoSession } from '../../helpers/cpo-factories.ts';
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

let holds = 0;

/**
 * Inserts into `table` of rows matching `when` wait (a trigger) until `release`: the writer holds
 * what it took before, its ids among them. untilHeld waits for such a row.
 */
async function holdInserts(t: import('ava').ExecutionContext, db: pg.Client, table: string, when: string): Promise<{ release(): Promise<void> }> {
  const name = `test_hold_${++holds}`;
  await db.query(`create table ${name}_gate (open boolean)`);
  await db.query(`insert into ${name}_gate values (false)`);
  await db.query(`create function ${name}() returns trigger language plpgsql as $$
    begin
      while not (select open from ${name}_gate) loop perform pg_sleep(0.02); end loop;
      return new;
    end $$`);
  await db.query(`create trigger ${name} before insert on ${table} for each row when (${when}) execute function ${name}()`);
  const release = async () => { await db.query(`update ${name}_gate set open = true`); };
  t.teardown(async () => {
    await release();
    await db.query(`drop trigger if exists ${name} on ${table}`);
  });
  return { release };
}

/** Until a statement waits in a hold (holdInserts). */
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
  // The batch of session A waits before writing its results, holding what it priced.
  const a = await submitSession(app, sessionBody(evcoId, { session_id: 'FEED-A' }));
  const hold = await holdInserts(t, db, 'msp_pricing_result', `new.session_id = '${a.id}'`);
  await untilHeld(db);
  // Another worker prices session B meanwhile (A's batch holds its worker's processing runner).
  await secondWorker(t);
  const b = await submitSession(app, sessionBody(evcoId, { session_id: 'FEED-B' }));
  t.is((await processed(app, b.id)).status, 'priced');
  const whileHeld = await poll(first.cursor);
  t.deepEqual(whileHeld.ids, [], 'B\'s result waits while A\'s batch, which took its ids first, can still commit');
  await hold.release();
  t.is((await processed(app, a.id)).status, 'priced');
  const after = await poll(whileHeld.cursor);
  const results = async (id: string) => (await app.request('GET', `/main/v1/msp-charge-session-priced?charge_session_id=${id}`)).body.items.map((r: { id: string }) => r.id);
  const expected = [...await results(a.id), ...await results(b.id)].sort();
  t.is(expected.length, 2);
  t.deepEqual([...whileHeld.ids, ...after.ids], expected, 'every result polled, in id order, once');
});

test.serial('an ingestion that commits after another process\'s later one: the poller of the sessions (and of their progress) gets every session, once', async (t) => {
  const db = new pg.Client({ connectionString: app.databaseUrl });
  await db.connect();
  t.teardown(() => db.end());
  await app.stopWorker();
  const first = await poll(null, 'msp-charge-session');
  const firstProgress = await poll(null, 'msp-charge-session-progress');
  // A second process's app (its own ingestion queue: its own connection string to the same database).
  const orm = await openOrm(ormConfig(`${app.databaseUrl}?application_name=second`, { poolMax: 4 }));
  const server = createApp(orm).listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  t.teardown(async () => { server.close(); server.closeAllConnections(); await orm.close(); });
  const second = `http://127.0.0.1:${(server.address() as AddressInfo).port}/main/v1/charge-session`;
  const authorization = `Basic ${Buffer.from(`${app.admin.publicId}:${app.admin.secret}`).toString('base64')}`;
  // A is being stored by this app (its statement holds its ids), B is stored by the second one.
  const hold = await holdInserts(t, db, 'msp_charge_session', `new.session_id = 'FEED-S-A'`);
  const a = submitSession(app, sessionBody(evcoId, { session_id: 'FEED-S-A' }));
  await untilHeld(db);
  const b = await fetch(second, { method: 'POST', headers: { authorization, 'content-type': 'application/json' }, body: JSON.stringify(sessionBody(evcoId, { session_id: 'FEED-S-B' })) });
  t.is(b.status, 200);
  const bId = (await b.json() as { id: string }).id;
  const whileHeld = await poll(first.cursor, 'msp-charge-session');
  t.deepEqual(whileHeld.ids, [], 'B waits while A\'s statement, which took its id first, can still commit');
  const progressWhileHeld = await poll(firstProgress.cursor, 'msp-charge-session-progress');
  t.deepEqual(progressWhileHeld.ids, [], 'the progress list holds the same sessions: B waits there too');
  await hold.release();
  const aId = (await a).id;
  const after = await poll(whileHeld.cursor, 'msp-charge-session');
  t.deepEqual([...whileHeld.ids, ...after.ids], [aId, bId].sort(), 'every session polled, in id order, once');
  const progressAfter = await poll(progressWhileHeld.cursor, 'msp-charge-session-progress');
  t.deepEqual([...progressWhileHeld.ids, ...progressAfter.ids], [aId, bId].sort(), 'every session\'s progress polled, in id order, once');
});

test.serial('a batch that writes its reimbursement records after a later one: the poller of the records gets every record, once', async (t) => {
  const db = new pg.Client({ connectionString: app.databaseUrl });
  await db.connect();
  t.teardown(() => db.end());
  const adminId = (await createAdministration(app)).id;
  const evse = await createLocatedEvse(app, adminId);
  const owner = await createCustomer(app, adminId, { reimbursement_vat: 'Exempt' });
  const plan = await createReimbursementPlan(app, adminId, {}, { energy: '0.20' });
  await reimburseEvse(app, adminId, owner.id, plan.id, evse.evse_uid);
  await app.stopWorker();
  await secondWorker(t);
  const first = await poll(null, 'cpo-charge-session-reimbursement');
  const hold = await holdInserts(t, db, 'cpo_charge_session_reimbursement', `new.evse_uid = '${evse.evse_uid}' and new.start_at < '2026-03-02T12:00:00Z'`);
  const a = await submitSession(app, cpoSessionBody(evse.evse_uid), '/main/v1/cpo-charge-session');
  await untilHeld(db);
  await secondWorker(t);
  const b = await submitSession(app, cpoSessionBody(evse.evse_uid, { start_date_time: '2026-03-03T10:00:00+01:00', end_date_time: '2026-03-03T11:00:00+01:00' }),
    '/main/v1/cpo-charge-session');
  t.is((await settledCpoSession(app, b.id)).status, 'processed');
  const whileHeld = await poll(first.cursor, 'cpo-charge-session-reimbursement');
  t.deepEqual(whileHeld.ids, [], 'B\'s record waits while A\'s batch, which took its ids first, can still commit');
  await hold.release();
  t.is((await settledCpoSession(app, a.id)).status, 'processed');
  const after = await poll(whileHeld.cursor, 'cpo-charge-session-reimbursement');
  const records = async (id: string) => (await app.request('GET', `/main/v1/cpo-charge-session-reimbursement?charge_session_id=${id}`)).body.items.map((r: { id: string }) => r.id);
  const expected = [...await records(a.id), ...await records(b.id)].sort();
  t.is(expected.length, 2);
  t.deepEqual([...whileHeld.ids, ...after.ids], expected, 'every record polled, in id order, once');
});

test.serial('with no other writer at work, a session is on the list as soon as its POST is answered', async (t) => {
  // The horizon is the database clock when no writer holds a floor (to a fraction of a millisecond on
  // PostgreSQL 18): what committed before the page's request is on it, 50 times in a row (a horizon
  // rounded to the second failed here at once).
  for (let i = 0; i < 50; i++) {
    const stored = await submitSession(app, sessionBody(evcoId, { session_id: `FEED-NOW-${i}` }));
    const listed = await poll(null, 'msp-charge-session');
    t.true(listed.ids.includes(stored.id), `session ${i} listed at once`);
  }
});

// Found by probing: created_gt named the first result created after the moment among every committed
// one, a later batch's while an earlier batch was still writing; the poller went on after it and never
// saw the earlier batch's result. created_gt keeps below the feed's horizon as every page does.
test.serial('created_gt while an earlier batch is still writing: its cursor waits for that batch, and the poller gets every later result', async (t) => {
  const db = new pg.Client({ connectionString: app.databaseUrl });
  await db.connect();
  t.teardown(() => db.end());
  await secondWorker(t); // the app's own worker was stopped by an earlier test
  // The sessions earlier tests left received are priced first: the moment comes after their results.
  for (const until = Date.now() + 15_000; (await db.query(`select 1 from msp_charge_session where status = 'received' limit 1`)).rowCount;) {
    if (Date.now() > until) throw new Error('sessions left unprocessed');
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  const moment = (await db.query(`select to_char(clock_timestamp() at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as moment`)).rows[0].moment;
  await new Promise((resolve) => setTimeout(resolve, 5));
  const a = await submitSession(app, sessionBody(evcoId, { session_id: 'FEED-GT-A' }));
  const hold = await holdInserts(t, db, 'msp_pricing_result', `new.session_id = '${a.id}'`);
  await untilHeld(db);
  await secondWorker(t);
  const b = await submitSession(app, sessionBody(evcoId, { session_id: 'FEED-GT-B' }));
  t.is((await processed(app, b.id)).status, 'priced');
  const start = `/main/v1/msp-charge-session-priced?created_gt=${encodeURIComponent(moment)}`;
  const whileHeld = await app.request('GET', start);
  t.like(whileHeld, { status: 400, body: { code: 'not_found', query_param: 'created_gt' } }, 'B\'s result is beyond the horizon: nothing to start after yet');
  await hold.release();
  t.is((await processed(app, a.id)).status, 'priced');
  const results = async (id: string) => (await app.request('GET', `/main/v1/msp-charge-session-priced?charge_session_id=${id}`)).body.items.map((r: { id: string }) => r.id);
  const [ra] = await results(a.id);
  const [rb] = await results(b.id);
  t.true(ra < rb, 'A\'s batch took its ids first');
  const started = await app.request('GET', start);
  t.is(started.status, 200);
  const cursor = new URLSearchParams(started.body.link_next.split('?')[1]).get('after');
  t.is(cursor, ra, 'the first result created after the moment, A\'s, is the cursor (the spec excludes it)');
  t.deepEqual((await poll(cursor)).ids, [rb], 'B\'s result follows it');
});
