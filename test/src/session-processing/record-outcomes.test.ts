// Drop-outs recorded by batches that run at the same moment (two workers, in two processes or
// one): each batch finds the open case of its group or creates it, and counts its sessions in it.
// The test holds a lock the transactions need (exclusively the events' commit lock 736400117,
// which every transaction recording events takes shared at its commit; a session's row) until they
// got as far as they can: without the group-key lock and the case's row lock both batches created the
// case (the second failed on open_key), or counted from the same number (drop-outs lost), or a
// batch overwrote a resubmission's count.
import test from 'ava';
import pg from 'pg';
import { processSessionBatch } from '../../../src/session-processing/process-sessions.service.ts';
import { startTestApp, type TestApp } from '../../helpers/app.ts';
import { sessionBody, submitSession } from '../../helpers/session-factories.ts';
import { until } from '../../helpers/webhook-receiver.ts';

let app: TestApp;
let db: pg.Client;
test.before(async () => {
  app = await startTestApp();
  // The test runs the batches itself.
  await app.stopWorker();
  db = new pg.Client({ connectionString: app.databaseUrl });
  await db.connect();
});
test.after.always(async () => {
  await db?.end();
  await app?.close();
});

const UNKNOWN = 'NLUNK000000077';

async function openCase(): Promise<{ id: string; session_count: number } | undefined> {
  const { rows } = await db.query(`select id::text, session_count from msp_dropout_case where open_key is not null`);
  return rows[0];
}

/** Until `n` backends of this database (other than the test's own) wait for a lock. */
async function waiting(n: number): Promise<void> {
  await until(async () => {
    const { rows } = await db.query(`select count(*)::int as n from pg_stat_activity
      where datname = current_database() and wait_event_type = 'Lock' and pid <> pg_backend_pid()`);
    return rows[0].n >= n;
  }, `${n} transactions waiting`);
}

/** `work` started while the test holds a lock (`lockSql`); released once `blocked` transactions wait. */
async function holding<T>(lockSql: string, params: unknown[], blocked: number, work: () => Promise<T>[]): Promise<T[]> {
  const holder = new pg.Client({ connectionString: app.databaseUrl });
  await holder.connect();
  try {
    await holder.query('begin');
    await holder.query(lockSql, params);
    const running = work();
    await waiting(blocked);
    await holder.query('commit');
    return await Promise.all(running);
  } finally {
    await holder.end();
  }
}

/** `work` held at its commits (the events' commit lock). */
const atOnce = <T>(blocked: number, work: () => Promise<T>[]) => holding('select pg_advisory_xact_lock(736400117)', [], blocked, work);

test.serial('two batches dropping sessions of one group out at once: one case, every session counted', async (t) => {
  for (let i = 0; i < 4; i++) await submitSession(app, sessionBody(UNKNOWN));
  t.deepEqual(await atOnce(2, () => [processSessionBatch(app.orm, 2), processSessionBatch(app.orm, 2)]), [2, 2]);
  const found = await openCase();
  t.is(found?.session_count, 4);
  const { rows } = await db.query(`select count(*)::int as n from msp_charge_session where dropout_case_id = $1`, [found!.id]);
  t.is(rows[0].n, 4);

  // The case exists now: both count on from it.
  for (let i = 0; i < 4; i++) await submitSession(app, sessionBody(UNKNOWN));
  t.deepEqual(await atOnce(2, () => [processSessionBatch(app.orm, 2), processSessionBatch(app.orm, 2)]), [2, 2]);
  t.is((await openCase())?.session_count, 8);
});

test.serial('a batch counting into a case that a resubmission is leaving counts from the resubmission\'s number', async (t) => {
  // A case of two sessions or more (the resubmission leaves it open).
  for (let i = 0; i < 2; i++) await submitSession(app, sessionBody(UNKNOWN));
  t.is(await processSessionBatch(app.orm, 10), 2);
  const { rows: [member] } = await db.query(`select s.id::text, s.payload from msp_charge_session s join msp_dropout_case c on c.id = s.dropout_case_id
    where c.open_key is not null order by s.id limit 1`);
  const before = (await openCase())!.session_count;
  for (let i = 0; i < 2; i++) await submitSession(app, sessionBody(UNKNOWN));
  // The test holds the session's row: the resubmission takes the case, then waits for it ...
  const answers = await holding('select id from msp_charge_session where id = $1 for update', [member.id], 2, () => {
    const resubmitted = app.request('POST', '/main/v1/charge-session', { body: { ...member.payload, total_energy_kwh: '11.5' } });
    // ... and the batch comes for the case meanwhile.
    const batch = waiting(1).then(() => processSessionBatch(app.orm, 2));
    return [resubmitted.then((r) => r.status), batch];
  });
  t.deepEqual(answers, [200, 2]);
  t.is((await openCase())?.session_count, before - 1 + 2);
});
