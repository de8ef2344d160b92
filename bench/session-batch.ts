// Sessions per second from HTTP POST /charge-session-batch (batches of 1,000, a few requests at
// once) to priced (all pricing results written), against the same session rows inserted one by one
// with plain SQL in the same run (the baseline of `ingest`, whose figure is the single POST's).
// Measured after a batch of WARM_UP_SESSIONS POSTed and priced (not counted).
import type { AddressInfo } from 'node:net';
import pg from 'pg';
import { createApp } from '../rest/app.ts';
import { registerRestEventRenderers } from '../rest/events/event-renderers.ts';
import { openOrm } from '../src/platform/orm.ts';
import { ormConfig } from '../mikro-orm.config.ts';
import { migrateJobQueue, startWorker } from '../src/worker/worker.ts';
import type { BenchmarkResult } from './run.ts';
import { authorizationOf, CONCURRENCY, plainSqlInsertRate, runClient, seedSessionBench, sessionOf, sessionsLike, waitUntilPriced, WARM_UP_SESSIONS, type SessionBench } from './session-bench.ts';
import { runId } from './run-tag.ts';

const COUNT = Number(process.env.BENCH_SESSIONS ?? 5000);
const BATCH = 1000;
const REQUESTS_AT_ONCE = 3;
const BENCH: SessionBench = { adminId: runId('bench-batch'), provider: 'BAT', publicId: runId('bench-batch'), secret: 'bench-secret-1234' };

async function statuses(pool: pg.Pool): Promise<{ status: string; n: number }[]> {
  return (await pool.query(`select status, count(*)::int as n from msp_charge_session where session_id like $1 group by status`, [sessionsLike('batch')])).rows;
}

export async function sessionBatchBenchmark(url: string): Promise<BenchmarkResult> {
  await migrateJobQueue(url);
  const orm = await openOrm(ormConfig(url, { poolMax: CONCURRENCY }));
  // The seed's writes record events, whose data the REST renderers give (createApp registers them too).
  registerRestEventRenderers();
  const evcoIds = await seedSessionBench(orm, BENCH);
  const worker = await startWorker(orm, url);
  const server = createApp(orm).listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/main/v1`;
  const authorization = authorizationOf(BENCH);
  const pool = new pg.Pool({ connectionString: url, max: CONCURRENCY });
  pool.on('error', () => {});

  const batches = Array.from({ length: Math.ceil(COUNT / BATCH) }, (_, b) => JSON.stringify(
    Array.from({ length: Math.min(BATCH, COUNT - b * BATCH) }, (_, i) => sessionOf(b * BATCH + i, 'batch', evcoIds))));
  await fetch(`${base}/administration`, { headers: { authorization } }).then((response) => response.arrayBuffer());
  const warmUp = [JSON.stringify(Array.from({ length: WARM_UP_SESSIONS }, (_, i) => sessionOf(i, 'warm-batch', evcoIds)))];
  await runClient({ url: `${base}/charge-session-batch`, authorization, count: 1, concurrency: 1, sessions: warmUp });
  await waitUntilPriced(pool, 'warm-batch');
  const started = performance.now();
  await runClient({ url: `${base}/charge-session-batch`, authorization, count: batches.length, concurrency: REQUESTS_AT_ONCE, sessions: batches });
  const posted = performance.now();
  // Polled through the index of waiting sessions: counting the run's sessions by status every 20 ms took
  // 3.5 ms of PostgreSQL's CPU each time, a tenth of what the database did for the benchmark.
  await waitUntilPriced(pool, 'batch');
  const done = performance.now();
  const rows = await statuses(pool);
  if (rows.length !== 1 || rows[0].status !== 'priced' || rows[0].n !== COUNT) throw new Error(`not every session was priced: ${JSON.stringify(rows)}`);
  await worker.stop();
  server.close();
  server.closeAllConnections();
  await orm.close();

  const sqlRate = await plainSqlInsertRate(pool, COUNT, 'sql-batch', evcoIds);
  await pool.end();
  const rate = COUNT / ((done - started) / 1000);
  console.log(`  (${COUNT} sessions in ${batches.length} batches after a batch of ${WARM_UP_SESSIONS} of warm-up, ${REQUESTS_AT_ONCE} at once: POSTs took ${((posted - started) / 1000).toFixed(2)} s `
    + `(${(COUNT / ((posted - started) / 1000)).toFixed(0)} sessions/s stored), all priced after ${((done - started) / 1000).toFixed(2)} s; `
    + '`npm run bench -- ingest batch` shows the single POST beside it)');
  return { name: 'batched session ingestion, HTTP POST /charge-session-batch to priced', unit: 'sessions/s', figure: rate, baseline: sqlRate, baselineLabel: 'plain SQL single-row inserts of the same rows' };
}
