// Sessions per second from HTTP POST /charge-session to priced (all pricing results written),
// against the same session rows inserted with plain SQL in the same run.
import type { AddressInfo } from 'node:net';
import pg from 'pg';
import { createApp } from '../rest/app.ts';
import { registerRestEventRenderers } from '../rest/events/event-renderers.ts';
import { openOrm } from '../src/platform/orm.ts';
import { ormConfig } from '../mikro-orm.config.ts';
import { migrateJobQueue, startWorker } from '../src/worker/worker.ts';
import type { BenchmarkResult } from './run.ts';
import {
  anyReceived, authorizationOf, CONCURRENCY, INGEST_BENCH, plainSqlInsertRate, runClient, seedSessionBench, sessionOf, sessionsLike,
} from './session-bench.ts';

const COUNT = Number(process.env.BENCH_SESSIONS ?? 5000);

export async function sessionIngestBenchmark(url: string): Promise<BenchmarkResult> {
  await migrateJobQueue(url);
  const orm = await openOrm(ormConfig(url, { poolMax: CONCURRENCY }));
  // The seed's writes record events, whose data the REST renderers give (createApp registers them too).
  registerRestEventRenderers();
  const evcoIds = await seedSessionBench(orm, INGEST_BENCH);
  const worker = process.env.BENCH_NO_WORKER ? { stop: async () => {} } : await startWorker(orm, url);
  const server = createApp(orm).listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/main/v1`;
  const authorization = authorizationOf(INGEST_BENCH);
  const pool = new pg.Pool({ connectionString: url, max: CONCURRENCY });
  pool.on('error', () => {});

  const sessions = Array.from({ length: COUNT }, (_, i) => JSON.stringify(sessionOf(i, 'http', evcoIds)));
  // One request first, as a real client's: its secret is then remembered, and the first 32 requests
  // at once do not all queue for a scrypt check (past the gate they would be 429).
  await fetch(`${base}/administration`, { headers: { authorization } }).then((response) => response.arrayBuffer());
  const started = performance.now();
  await runClient({ url: `${base}/charge-session`, authorization, count: COUNT, concurrency: CONCURRENCY, sessions });
  const posted = performance.now();
  while (!process.env.BENCH_NO_WORKER && (await anyReceived(pool, 'http'))) await new Promise((resolve) => setTimeout(resolve, 20));
  const done = performance.now();
  const { rows } = await pool.query(`select status, count(*)::int as n from msp_charge_session where session_id like $1 group by status`,
    [sessionsLike('http')]);
  if (!process.env.BENCH_NO_WORKER && rows.some((r) => r.status !== "priced")) throw new Error(`not everything was priced: ${JSON.stringify(rows)}`);
  await worker.stop();
  server.close();
  server.closeAllConnections();
  await orm.close();

  const sqlRate = await plainSqlInsertRate(pool, COUNT, 'sql', evcoIds);
  await pool.end();
  const rate = COUNT / ((done - started) / 1000);
  console.log(`  (${COUNT} sessions: POSTs took ${((posted - started) / 1000).toFixed(2)} s, all priced after ${((done - started) / 1000).toFixed(2)} s)`);
  return { name: 'session ingestion, HTTP POST to priced', unit: 'sessions/s', figure: rate, baseline: sqlRate, baselineLabel: 'plain SQL insert of the same rows' };
}
