// What the session benchmarks (`ingest`, `batch`) share: the seed (a priced subscription with its
// tokens and a credential), the sessions they send, the load generator's process, and their
// baseline: the same session rows inserted one by one with plain SQL. A benchmark's administration,
// credential, tokens and session ids are its run's own (bench/run-tag.ts): the database may hold
// other sessions (growth), and a benchmark may run twice on it.
import { runLoadClient } from './load-client.ts';
import type pg from 'pg';
import { saveCredential } from '../src/credentials/save-credential.service.ts';
import { createSubscriptionPlan } from '../src/msp/save-subscription-plan.service.ts';
import { createTokenSubscription } from '../src/msp/create-token-subscription.service.ts';
import { Token } from '../src/msp/token.entity.ts';
import { TokenLink } from '../src/msp/token-link.entity.ts';
import { createAdministration } from '../src/parties/create-administration.service.ts';
import { createCustomer } from '../src/parties/save-customer.service.ts';
import { DomainError } from '../src/platform/errors.ts';
import { boundQuery } from '../src/platform/bound-sql.ts';
import { uuidv7 } from '../src/platform/ids.ts';
import type { Orm } from '../src/platform/orm.ts';
import { scopedEm } from '../src/access/admin-scope.ts';
import { createRatePlan, createRatePlanVersion } from '../src/pricing/rate-plan.service.ts';
import { createVatRate } from '../src/pricing/vat-rate.service.ts';
import { identityKeyOf } from '../src/sessions/ingest-session.service.ts';
import { addProcessingJob } from '../src/sessions/processing-job.ts';
import type { PostJob } from './post-sessions.ts';
import { RUN_TAG, runId } from './run-tag.ts';

export const CONCURRENCY = 32;

/**
 * Sessions a benchmark submits and waits for before it measures (not counted): the figures are
 * the warm service's, as a running service is, not its first seconds of compiling code and
 * preparing queries (the first thousand POSTs' p99 was over 60 ms, the following ones' 30 to 45).
 */
export const WARM_UP_SESSIONS = 1000;
const TOKENS = 200;

/** One benchmark's data: its administration, token provider id (three characters) and credential. */
export interface SessionBench { adminId: string; provider: string; publicId: string; secret: string }

export const INGEST_BENCH: SessionBench = { adminId: runId('bench-msp'), provider: 'BEN', publicId: runId('bench-ingest'), secret: 'bench-secret-1234' };

async function inParallel(count: number, work: (i: number) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(Array.from({ length: CONCURRENCY }, async () => {
    while (next < count) await work(next++);
  }));
}

/** The benchmark's priced subscription with its tokens (their evco_ids) and its credential. */
export async function seedSessionBench(orm: Orm, bench: SessionBench): Promise<string[]> {
  const em = scopedEm(orm);
  // The eMA instance: the run's tag and a five-digit number.
  const evcoIds = Array.from({ length: TOKENS }, (_, i) => `NL${bench.provider}${RUN_TAG.toUpperCase()}${String(i).padStart(5, '0')}`);
  // Another benchmark of the run may have created it.
  await createVatRate(em, { country: 'NL', vatKind: 'standard', percentage: '21', validFrom: new Date('2020-01-01T00:00:00Z') })
    .catch((error) => { if (!(error instanceof DomainError && error.code === 'overlapping_vat_rate')) throw error; });
  await em.transactional(async (tx) => {
    await createAdministration(tx, { id: bench.adminId, name: `Bench ${bench.adminId}`, currency: 'EUR', country: 'NL' });
    const ratePlan = await createRatePlan(tx, { name: `Bench rates ${bench.adminId}`, currency: 'EUR', adminIds: [bench.adminId] });
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
    const plan = await createSubscriptionPlan(tx, { adminId: bench.adminId, name: 'Bench plan', ratePlanId: ratePlan.id });
    const customer = await createCustomer(tx, { adminId: bench.adminId, name: 'Bench customer', country: 'NL' });
    const subscription = await createTokenSubscription(tx, { customerId: customer.id, planId: plan.id, validFrom: new Date('2020-01-01T00:00:00Z') });
    for (const evcoId of evcoIds) {
      const token = tx.create(Token, { evcoId, initialAdmin: bench.adminId, currentAdmin: bench.adminId } as never);
      tx.create(TokenLink, { admin: bench.adminId, subscription, token } as never);
    }
    await tx.flush();
  });
  await saveCredential(em, { publicId: bench.publicId, secret: bench.secret });
  return evcoIds;
}

export const authorizationOf = (bench: SessionBench) => `Basic ${Buffer.from(`${bench.publicId}:${bench.secret}`).toString('base64')}`;

export function sessionOf(i: number, prefix: string, evcoIds: string[]) {
  const start = new Date(Date.now() - 86_400_000 - i * 60_000);
  return {
    session_id: `${RUN_TAG}-${prefix}-${i}`, cpo_id: 'NL*BEN', evco_id: evcoIds[i % evcoIds.length],
    start_date_time: start.toISOString(), end_date_time: new Date(start.getTime() + 45 * 60_000).toISOString(),
    total_energy_kwh: `${(i % 40) + 1}.${String(i % 1000).padStart(3, '0')}`, time_zone: 'Europe/Amsterdam',
    address: { city: 'Utrecht', country: 'NL' }, evse_id: 'NL*BEN*E1', power_type: i % 3 === 0 ? 'dc' : 'ac_3phase',
  };
}

/** POSTs from a child process, so the client does not share the service's event loop; the POSTs' latencies (ms, sorted). */
export function runClient(job: PostJob): Promise<number[]> {
  return runLoadClient<number[]>('post-sessions.ts', job);
}

/** The sessions of this run that sessionOf(i, prefix) made, for `session_id like`. */
export const sessionsLike = (prefix: string) => `${RUN_TAG}-${prefix}-%`;

/** Whether this run's sessions of `prefix` still wait for processing (the index on status reads the waiting ones only). */
/**
 * Waits until no session of the prefix is received. Past two seconds of waiting it samples what the
 * database's other connections run, and prints the most seen: a stall (a job holding the worker,
 * a lock, a checkpoint) shows itself in the figures' run instead of a guess afterwards.
 */
export async function waitUntilPriced(pool: pg.Pool, prefix: string): Promise<void> {
  const started = performance.now();
  const seen = new Map<string, number>();
  let lastSample = started;
  while (await anyReceived(pool, prefix)) {
    await new Promise((resolve) => setTimeout(resolve, 20));
    const now = performance.now();
    if (now - started < 2000 || now - lastSample < 250) continue;
    lastSample = now;
    const { rows } = await pool.query(`select coalesce(wait_event_type || ':' || wait_event, 'cpu') as waiting, left(regexp_replace(query, '\\s+', ' ', 'g'), 90) as query
      from pg_stat_activity where state = 'active' and pid <> pg_backend_pid() and datname = current_database()`);
    for (const row of rows) seen.set(`${row.waiting}  ${row.query}`, (seen.get(`${row.waiting}  ${row.query}`) ?? 0) + 1);
  }
  if (!seen.size) return;
  console.log(`  (waited ${((performance.now() - started) / 1000).toFixed(1)} s for pricing; the database's other work meanwhile, by samples every 250 ms:)`);
  for (const [what, count] of [...seen].sort((a, b) => b[1] - a[1]).slice(0, 6)) console.log(`    ${String(count).padStart(4)}  ${what}`);
}

async function anyReceived(pool: pg.Pool, prefix: string): Promise<boolean> {
  const { rows } = await pool.query(`select exists (select 1 from msp_charge_session where status = 'received' and session_id like $1) as waiting`,
    [sessionsLike(prefix)]);
  return rows[0].waiting;
}

const SQL_COLUMNS = `id, source, identity_key, session_id, cpo_id, evco_id, start_at, end_at, energy_kwh, idle_seconds,
  time_zone, country, evse_id, evse_uid, payload, received_at, status, bypass_checks, pricing_version, created_at, updated_at`;

/** A session's values as the plain-SQL baseline inserts them. */
function sqlValues(s: ReturnType<typeof sessionOf>, now: Date) {
  return [uuidv7(), identityKeyOf({ source: 'charge_session', sender: s.cpo_id, sessionId: s.session_id }), s.session_id, s.cpo_id, s.evco_id,
    s.start_date_time, s.end_date_time, s.total_energy_kwh, s.time_zone, s.evse_id, JSON.stringify(s), now] as const;
}

/**
 * The baseline: `count` session rows inserted one per statement, 32 at a time, with plain SQL; rows
 * per second. The rows are deleted afterwards, so that no later benchmark of the run processes them.
 */
export async function plainSqlInsertRate(pool: pg.Pool, count: number, prefix: string, evcoIds: string[]): Promise<number> {
  const started = performance.now();
  await inParallel(count, async (i) => {
    await pool.query(
      `insert into msp_charge_session (${SQL_COLUMNS})
       values ($1, 'charge_session', $2, $3, $4, $5, $6, $7, $8, 0, $9, 'NL', $10, null, $11, $12, 'received', '[]', 0, $12, $12)`,
      [...sqlValues(sessionOf(i, prefix, evcoIds), new Date())],
    );
  });
  const rate = count / ((performance.now() - started) / 1000);
  await pool.query('delete from msp_charge_session where session_id like $1', [sessionsLike(prefix)]);
  return rate;
}

/**
 * The worker pipeline alone: `count` received sessions (the baseline's rows) and the processing job
 * committed in one transaction, timed until the running (idle) worker has priced them all; sessions
 * per second.
 */
export async function pipelineRate(orm: Orm, pool: pg.Pool, count: number, prefix: string, evcoIds: string[]): Promise<number> {
  const now = new Date();
  const rows = Array.from({ length: count }, (_, i) => {
    const [id, identity_key, session_id, cpo_id, evco_id, start_at, end_at, energy_kwh, time_zone, evse_id, payload, received_at] = sqlValues(sessionOf(i, prefix, evcoIds), now);
    return { id, identity_key, session_id, cpo_id, evco_id, start_at, end_at, energy_kwh, time_zone, evse_id, payload: JSON.parse(payload), received_at };
  });
  let started = 0;
  await orm.em.fork().transactional(async (tx) => {
    // Bound, not formatted into the statement's text: escaping a document of thousands of sessions into SQL took
    // a hundred megabytes of this process's heap, which is not the service's.
    await boundQuery(tx, `insert into msp_charge_session (${SQL_COLUMNS})
      select x.id, 'charge_session', x.identity_key, x.session_id, x.cpo_id, x.evco_id, x.start_at, x.end_at, x.energy_kwh, 0, x.time_zone, 'NL',
        x.evse_id, null, x.payload, x.received_at, 'received', '[]', 0, x.received_at, x.received_at
      from json_to_recordset($1::json) as x(id uuid, identity_key text, session_id text, cpo_id text, evco_id text, start_at timestamptz,
        end_at timestamptz, energy_kwh numeric, time_zone text, evse_id text, payload jsonb, received_at timestamptz)`, [JSON.stringify(rows)]);
    await addProcessingJob(tx);
    started = performance.now();
  });
  await waitUntilPriced(pool, prefix);
  return count / ((performance.now() - started) / 1000);
}
