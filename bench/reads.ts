// Read throughput: GET /main/v1/administration and /main/v1/customer through the whole app
// (authentication, request context, queries module, serializer) against a plain node:http +
// node-postgres handler answering the same query on the same database, measured in the same
// run. The load comes from a separate process (bench/auth-flood-client.ts, `legit` job).
import { spawn } from 'node:child_process';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { createApp } from '../rest/app.ts';
import { saveCredential } from '../src/credentials/save-credential.service.ts';
import { createAdministration } from '../src/parties/create-administration.service.ts';
import { uuidv7 } from '../src/platform/ids.ts';
import { openOrm } from '../src/platform/orm.ts';
import { ormConfig } from '../mikro-orm.config.ts';
import { scopedEm } from '../src/access/admin-scope.ts';
import type { LegitJob, LegitResult } from './auth-flood-client.ts';
import type { BenchmarkResult } from './run.ts';

const SECONDS = Number(process.env.BENCH_READS_SECONDS ?? 5);
const CONCURRENCY = 16;
const CUSTOMERS = 20;
const AUTHORIZATION = `Basic ${Buffer.from('bench-reads:bench-secret-1234').toString('base64')}`;

function measure(url: string, durationMs: number): Promise<LegitResult> {
  const job: LegitJob = { kind: 'legit', url, authorization: AUTHORIZATION, concurrency: CONCURRENCY, durationMs };
  const child = spawn(process.execPath, [fileURLToPath(new URL('./auth-flood-client.ts', import.meta.url)), '--child'], { stdio: ['pipe', 'pipe', 'inherit'] });
  let output = '';
  child.stdout.on('data', (chunk) => { output += chunk; });
  child.stdin.end(`${JSON.stringify(job)}\n`);
  return new Promise((resolve, reject) => child.on('exit', (code) => (code === 0
    ? resolve(JSON.parse(output.trim().split('\n').at(-1)!) as LegitResult)
    : reject(new Error(`the load client failed (${code})`)))));
}

async function rate(url: string): Promise<number> {
  await measure(url, 500);
  const result = await measure(url, SECONDS * 1000);
  return result.requests / result.seconds;
}

/** The same queries as the queries modules, answered with no framework at all. */
function plainServer(pool: pg.Pool): http.Server {
  const iso = (d: Date | null) => (d ? d.toISOString() : null);
  return http.createServer(async (request, response) => {
    let items: unknown[];
    if (request.url === '/main/v1/administration') {
      const { rows } = await pool.query(`select a.*, s.name as seller_name, s.country as seller_country from administration a
        left join seller s on s.id = a.seller_id order by a.id`);
      items = rows.map((a) => ({
        id: a.id, name: a.name, currency: a.currency, country: a.country, locale_id: a.locale_id, seller_id: a.seller_id,
        seller_name: a.seller_name, seller_county: a.seller_country, created_at: iso(a.created_at), updated_at: iso(a.updated_at),
      }));
    } else {
      const { rows } = await pool.query('select * from customer order by id limit 501');
      items = rows.slice(0, 500).map((c) => ({
        id: c.id, admin_id: c.admin_id, name: c.name, country: c.country, entity_type: c.entity_type, external_reference: c.external_reference,
        company_reg_num: c.company_reg_num, locale_id: c.locale_id, billing_email: c.billing_email, billing_phone: c.billing_phone,
        reimbursement_vat: c.reimbursement_vat, billing_rollup_group_by: c.billing_rollup_group_by, billing_rollup_method: c.billing_rollup_group_by,
        custom_fields: c.custom_fields ?? {}, charge_auth_requests_blocked: c.charge_auth_blocked, external_updated_at: iso(c.external_updated_at),
        created_at: iso(c.created_at), updated_at: iso(c.updated_at),
      }));
    }
    response.writeHead(200, { 'content-type': 'application/json' });
    response.end(JSON.stringify({ items }));
  });
}

async function listen(server: http.Server): Promise<string> {
  server.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

async function close(server: http.Server): Promise<void> {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
}

export async function readsBenchmark(databaseUrl: string): Promise<BenchmarkResult> {
  const orm = await openOrm(ormConfig(databaseUrl, { poolMax: CONCURRENCY }));
  await createAdministration(scopedEm(orm), { id: 'bench-reads', name: 'Bench reads', currency: 'EUR', country: 'NL' });
  await saveCredential(scopedEm(orm), { publicId: 'bench-reads', secret: 'bench-secret-1234' });
  const pool = new pg.Pool({ connectionString: databaseUrl, max: CONCURRENCY });
  // Idle clients see the embedded PostgreSQL stop after the run (57P01); that is no failure.
  pool.on('error', () => {});
  for (let i = 0; i < CUSTOMERS; i++) {
    await pool.query(`insert into customer (id, admin_id, name, country, custom_fields, created_at, updated_at)
      values ($1, 'bench-reads', $2, 'NL', '{}', now(), now())`, [uuidv7(), `Reader ${i}`]);
  }
  const app = createApp(orm).listen(0, '127.0.0.1');
  await new Promise((resolve) => app.once('listening', resolve));
  const appUrl = `http://127.0.0.1:${(app.address() as AddressInfo).port}`;
  const plain = plainServer(pool);
  const plainUrl = await listen(plain);

  const figures: Record<string, { app: number; plain: number }> = {};
  for (const path of ['/main/v1/administration', '/main/v1/customer']) {
    figures[path] = { app: await rate(appUrl + path), plain: await rate(plainUrl + path) };
    console.log(`  GET ${path}: app ${figures[path].app.toFixed(0)}/s, plain handler ${figures[path].plain.toFixed(0)}/s,`
      + ` ratio ${(figures[path].app / figures[path].plain).toFixed(3)}`);
  }
  await close(app);
  await close(plain);
  await pool.end();
  await orm.close();
  const { app: figure, plain: baseline } = figures['/main/v1/administration'];
  return { name: 'GET /main/v1/administration over HTTP', unit: 'requests/s', figure, baseline, baselineLabel: 'plain node:http + pg handler' };
}
