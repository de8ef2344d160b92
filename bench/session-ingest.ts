// Sessions per second from HTTP POST /charge-session to priced (all pricing results written),
// against the same session rows inserted with plain SQL in the same run.
import { spawn } from 'node:child_process';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { createApp } from '../rest/app.ts';
import { registerRestEventRenderers } from '../rest/events/event-renderers.ts';
import { saveCredential } from '../src/credentials/save-credential.service.ts';
import { createSubscriptionPlan } from '../src/msp/save-subscription-plan.service.ts';
import { createTokenSubscription } from '../src/msp/create-token-subscription.service.ts';
import { Token } from '../src/msp/token.entity.ts';
import { TokenLink } from '../src/msp/token-link.entity.ts';
import { createAdministration } from '../src/parties/create-administration.service.ts';
import { createCustomer } from '../src/parties/save-customer.service.ts';
import { uuidv7 } from '../src/platform/ids.ts';
import { openOrm, type Orm } from '../src/platform/orm.ts';
import { ormConfig } from '../mikro-orm.config.ts';
import { scopedEm } from '../src/access/admin-scope.ts';
import { createRatePlan, createRatePlanVersion } from '../src/pricing/rate-plan.service.ts';
import { createVatRate } from '../src/pricing/vat-rate.service.ts';
import { identityKeyOf } from '../src/sessions/ingest-session.service.ts';
import { migrateJobQueue, startWorker } from '../src/worker/worker.ts';
import type { PostJob } from './post-sessions.ts';
import type { BenchmarkResult } from './run.ts';

const COUNT = Number(process.env.BENCH_SESSIONS ?? 5000);
const CONCURRENCY = 32;
const TOKENS = 200;

async function inParallel(count: number, work: (i: number) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(Array.from({ length: CONCURRENCY }, async () => {
    while (next < count) await work(next++);
  }));
}

async function seed(orm: Orm): Promise<string[]> {
  const em = scopedEm(orm);
  await em.transactional(async (tx) => {
    await createAdministration(tx, { id: 'bench-msp', name: 'Bench MSP', currency: 'EUR', country: 'NL' });
    await createVatRate(tx, { country: 'NL', vatKind: 'standard', percentage: '21', validFrom: new Date('2020-01-01T00:00:00Z') });
    const ratePlan = await createRatePlan(tx, { name: 'Bench rates', currency: 'EUR', adminIds: ['bench-msp'] });
    await createRatePlanVersion(tx, { id: ratePlan.id }, {
      validFrom: new Date('2020-01-01T00:00:00Z'),
      definition: {
        rates: { energy: { price: '0.45', step_size: '0.001' }, flat: { price: '0.35' } },
        rules: [
          { name: 'DC', match: { current_type: 'DC' }, rates: { energy: { price: '0.69' } } },
          { name: 'Night', match: { time_of_day: { from: '23:00', until: '07:00' } }, rates: { energy: { price: '0.35' } } },
        ],
      },
    });
    const plan = await createSubscriptionPlan(tx, { adminId: 'bench-msp', name: 'Bench plan', ratePlanId: ratePlan.id });
    const customer = await createCustomer(tx, { adminId: 'bench-msp', name: 'Bench customer', country: 'NL' });
    const subscription = await createTokenSubscription(tx, { customerId: customer.id, planId: plan.id, validFrom: new Date('2020-01-01T00:00:00Z') });
    for (let i = 0; i < TOKENS; i++) {
      const token = tx.create(Token, { evcoId: `NLBEN${String(i).padStart(9, '0')}`, initialAdmin: 'bench-msp', currentAdmin: 'bench-msp' } as never);
      tx.create(TokenLink, { admin: 'bench-msp', subscription, token } as never);
    }
    await tx.flush();
  });
  await saveCredential(em, { publicId: 'bench-ingest', secret: 'bench-secret-1234' });
  return Array.from({ length: TOKENS }, (_, i) => `NLBEN${String(i).padStart(9, '0')}`);
}

function sessionOf(i: number, prefix: string, evcoIds: string[]) {
  const start = new Date(Date.now() - 86_400_000 - i * 60_000);
  return {
    session_id: `${prefix}-${i}`, cpo_id: 'NL*BEN', evco_id: evcoIds[i % evcoIds.length],
    start_date_time: start.toISOString(), end_date_time: new Date(start.getTime() + 45 * 60_000).toISOString(),
    total_energy_kwh: `${(i % 40) + 1}.${String(i % 1000).padStart(3, '0')}`, time_zone: 'Europe/Amsterdam',
    address: { city: 'Utrecht', country: 'NL' }, evse_id: 'NL*BEN*E1', power_type: i % 3 === 0 ? 'dc' : 'ac_3phase',
  };
}

/** POSTs from a child process, so the client does not share the service's event loop. */
async function runClient(job: PostJob): Promise<void> {
  const child = spawn(process.execPath, [fileURLToPath(new URL('./post-sessions.ts', import.meta.url)), '--child'], { stdio: ['pipe', 'inherit', 'inherit'] });
  child.stdin.end(JSON.stringify(job));
  const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
  if (code !== 0) throw new Error(`the load generator failed (${code})`);
}

/** Whether sessions still wait for processing (the index on status answers it without counting the table). */
async function anyReceived(pool: pg.Pool): Promise<boolean> {
  const { rows } = await pool.query(`select exists (select 1 from msp_charge_session where status = 'received') as waiting`);
  return rows[0].waiting;
}

export async function sessionIngestBenchmark(url: string): Promise<BenchmarkResult> {
  await migrateJobQueue(url);
  const orm = await openOrm(ormConfig(url, { poolMax: CONCURRENCY }));
  // The seed's writes record events, whose data the REST renderers give (createApp registers them too).
  registerRestEventRenderers();
  const evcoIds = await seed(orm);
  const worker = process.env.BENCH_NO_WORKER ? { stop: async () => {} } : await startWorker(orm, url);
  const server = createApp(orm).listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/main/v1`;
  const authorization = `Basic ${Buffer.from('bench-ingest:bench-secret-1234').toString('base64')}`;
  const pool = new pg.Pool({ connectionString: url, max: CONCURRENCY });
  pool.on('error', () => {});

  const sessions = Array.from({ length: COUNT }, (_, i) => JSON.stringify(sessionOf(i, 'http', evcoIds)));
  // One request first, as a real client's: its secret is then remembered, and the first 32 requests
  // at once do not all queue for a scrypt check (past the gate they would be 429).
  await fetch(`${base}/administration`, { headers: { authorization } }).then((response) => response.arrayBuffer());
  const started = performance.now();
  await runClient({ url: `${base}/charge-session`, authorization, count: COUNT, concurrency: CONCURRENCY, sessions });
  const posted = performance.now();
  while (!process.env.BENCH_NO_WORKER && (await anyReceived(pool))) await new Promise((resolve) => setTimeout(resolve, 20));
  const done = performance.now();
  const { rows } = await pool.query(`select status, count(*)::int as n from msp_charge_session group by status`);
  if (!process.env.BENCH_NO_WORKER && rows.some((r) => r.status !== "priced")) throw new Error(`not everything was priced: ${JSON.stringify(rows)}`);
  await worker.stop();
  server.close();
  server.closeAllConnections();
  await orm.close();

  const sqlStarted = performance.now();
  await inParallel(COUNT, async (i) => {
    const s = sessionOf(i, 'sql', evcoIds);
    const now = new Date();
    await pool.query(
      `insert into msp_charge_session (id, source, identity_key, session_id, cpo_id, evco_id, start_at, end_at, energy_kwh, idle_seconds,
         time_zone, country, evse_id, evse_uid, payload, received_at, status, bypass_checks, pricing_version, created_at, updated_at)
       values ($1, 'charge_session', $2, $3, $4, $5, $6, $7, $8, 0, $9, 'NL', $10, null, $11, $12, 'received', '[]', 0, $12, $12)`,
      [uuidv7(), identityKeyOf({ source: 'charge_session', sender: s.cpo_id, sessionId: s.session_id }), s.session_id, s.cpo_id, s.evco_id,
        s.start_date_time, s.end_date_time, s.total_energy_kwh, s.time_zone, s.evse_id, JSON.stringify(s), now],
    );
  });
  const sqlRate = COUNT / ((performance.now() - sqlStarted) / 1000);
  await pool.end();
  const rate = COUNT / ((done - started) / 1000);
  console.log(`  (${COUNT} sessions: POSTs took ${((posted - started) / 1000).toFixed(2)} s, all priced after ${((done - started) / 1000).toFixed(2)} s)`);
  return { name: 'session ingestion, HTTP POST to priced', unit: 'sessions/s', figure: rate, baseline: sqlRate, baselineLabel: 'plain SQL insert of the same rows' };
}
