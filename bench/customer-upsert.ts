import { runLoadClient } from './load-client.ts';
import type { AddressInfo } from 'node:net';
import pg from 'pg';
import { createApp } from '../rest/app.ts';
import { saveCredential } from '../src/credentials/save-credential.service.ts';
import { createAdministration } from '../src/parties/create-administration.service.ts';
import { uuidv7 } from '../src/platform/ids.ts';
import { openOrm } from '../src/platform/orm.ts';
import { ormConfig } from '../mikro-orm.config.ts';
import { scopedEm } from '../src/access/admin-scope.ts';
import type { UpsertJob, UpsertResult } from './customer-upsert-client.ts';
import type { BenchmarkResult } from './run.ts';
import { RUN_TAG, runId } from './run-tag.ts';

const COUNT = 3000;
/** Upserts first, not counted (as the ingest benchmark's warm-up). */
const WARM_UP = 500;
const CONCURRENCY = 16;
const ADMIN = runId('bench');

async function inParallel(count: number, work: (i: number) => Promise<void>): Promise<number> {
  let next = 0;
  const started = performance.now();
  await Promise.all(Array.from({ length: CONCURRENCY }, async () => {
    while (next < count) await work(next++);
  }));
  return count / ((performance.now() - started) / 1000);
}

const runClient = (job: UpsertJob) => runLoadClient<UpsertResult>('customer-upsert-client.ts', job);

/** Customers created over HTTP (ext_ref upsert; after WARM_UP not counted) against the same rows inserted with plain SQL. */
export async function customerUpsertBenchmark(url: string): Promise<BenchmarkResult> {
  const orm = await openOrm(ormConfig(url, { poolMax: CONCURRENCY }));
  await createAdministration(scopedEm(orm), { id: ADMIN, name: 'Bench', currency: 'EUR', country: 'NL' });
  await saveCredential(scopedEm(orm), { publicId: ADMIN, secret: 'bench-secret-1234' });
  const server = createApp(orm).listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/main/v1`;
  const authorization = `Basic ${Buffer.from(`${ADMIN}:bench-secret-1234`).toString('base64')}`;

  // The requests come from a process of their own (bench/customer-upsert-client.ts), as every benchmark's HTTP load.
  const job: UpsertJob = { base, authorization, adminId: ADMIN, tag: RUN_TAG, count: COUNT, warmUp: WARM_UP, concurrency: CONCURRENCY };
  const viaHttp = (await runClient(job)).perSecond;
  server.close();
  server.closeAllConnections();
  await orm.close();

  const pool = new pg.Pool({ connectionString: url, max: CONCURRENCY });
  pool.on('error', () => {});
  const viaSql = await inParallel(COUNT, async (i) => {
    await pool.query(
      `insert into customer (id, admin_id, name, country, external_reference, custom_fields, created_at, updated_at)
       values ($1, $2, $3, 'NL', $4, $5, now(), now())`,
      [uuidv7(), ADMIN, `Customer ${i}`, `${RUN_TAG}-sql-${i}`, JSON.stringify({ n: i })],
    );
  });
  await pool.end();
  return { name: 'customer upsert over HTTP', unit: 'customers/s', figure: viaHttp, baseline: viaSql, baselineLabel: 'plain SQL insert' };
}
