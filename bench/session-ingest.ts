// Sessions per second from HTTP POST /charge-session to priced (all pricing results written),
// against the same session rows inserted with plain SQL in the same run. Also printed: the POSTs'
// p50 and p99 latency, and the worker pipeline alone (received sessions inserted with SQL in one
// transaction with the processing job, timed until the warm worker priced them). Measured after
// WARM_UP_SESSIONS POSTed and priced (not counted).
// BENCH_NO_WORKER=1 POSTs without the worker running (it starts afterwards for the pipeline figure).
import type { AddressInfo } from 'node:net';
import pg from 'pg';
import { createApp } from '../rest/app.ts';
import { registerRestEventRenderers } from '../rest/events/event-renderers.ts';
import { openOrm } from '../src/platform/orm.ts';
import { ormConfig } from '../mikro-orm.config.ts';
import { migrateJobQueue, startWorker } from '../src/worker/worker.ts';
import type { BenchmarkResult } from './run.ts';
import { percentile } from './post-sessions.ts';
import {
  authorizationOf, CONCURRENCY, INGEST_BENCH, pipelineRate, plainSqlInsertRate, runClient, seedSessionBench, sessionOf, sessionsLike, waitUntilPriced, WARM_UP_SESSIONS,
} from './session-bench.ts';

const COUNT = Number(process.env.BENCH_SESSIONS ?? 5000);
const NO_WORKER = !!process.env.BENCH_NO_WORKER;

export async function sessionIngestBenchmark(url: string): Promise<BenchmarkResult> {
  await migrateJobQueue(url);
  const orm = await openOrm(ormConfig(url, { poolMax: CONCURRENCY }));
  // The seed's writes record events, whose data the REST renderers give (createApp registers them too).
  registerRestEventRenderers();
  const evcoIds = await seedSessionBench(orm, INGEST_BENCH);
  let worker = NO_WORKER ? null : await startWorker(orm, url);
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
  const warmUp = Array.from({ length: WARM_UP_SESSIONS }, (_, i) => JSON.stringify(sessionOf(i, 'warm', evcoIds)));
  await runClient({ url: `${base}/charge-session`, authorization, count: warmUp.length, concurrency: CONCURRENCY, sessions: warmUp });
  if (worker) await waitUntilPriced(pool, 'warm');
  const started = performance.now();
  const latencies = await runClient({ url: `${base}/charge-session`, authorization, count: COUNT, concurrency: CONCURRENCY, sessions });
  const posted = performance.now();
  if (worker) await waitUntilPriced(pool, 'http');
  const done = performance.now();
  server.close();
  server.closeAllConnections();
  // The pipeline alone, on the worker warmed by the HTTP run (without it: started now, and left to price the POSTed sessions first).
  if (!worker) {
    worker = await startWorker(orm, url);
    await waitUntilPriced(pool, 'http');
  }
  const pipeline = await pipelineRate(orm, pool, COUNT, 'pipe', evcoIds);
  const { rows } = await pool.query(`select status, count(*)::int as n from msp_charge_session where session_id like $1 or session_id like $2 group by status`,
    [sessionsLike('http'), sessionsLike('pipe')]);
  if (rows.some((r) => r.status !== 'priced')) throw new Error(`not everything was priced: ${JSON.stringify(rows)}`);
  await worker.stop();
  await orm.close();

  const sqlRate = await plainSqlInsertRate(pool, COUNT, 'sql', evcoIds);
  await pool.end();
  const rate = COUNT / ((done - started) / 1000);
  console.log(`  (${COUNT} sessions after ${WARM_UP_SESSIONS} of warm-up: POSTs took ${((posted - started) / 1000).toFixed(2)} s, all priced after ${((done - started) / 1000).toFixed(2)} s${NO_WORKER ? ', without the worker' : ''})`);
  console.log(`  POST latency at ${CONCURRENCY} connections: p50 ${percentile(latencies, 0.5).toFixed(1)} ms, p99 ${percentile(latencies, 0.99).toFixed(1)} ms, max ${latencies[latencies.length - 1].toFixed(1)} ms`);
  console.log(`  pipeline alone: ${pipeline.toFixed(0)} sessions/s (${COUNT} received sessions priced by the worker; ratio to plain SQL ${(pipeline / sqlRate).toFixed(3)})`);
  return { name: 'session ingestion, HTTP POST to priced', unit: 'sessions/s', figure: rate, baseline: sqlRate, baselineLabel: 'plain SQL insert of the same rows' };
}
