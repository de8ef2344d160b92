// `npm run bench -- billing`: a period's boxes built from 1,000,000 priced sessions (10,000
// customers) by the billing core, against a plain SQL aggregation of the same rows into the
// same totals (per customer and VAT rate), in the same run. Prints time, peak memory of this
// process (sampled) and the ratio. SVC_BENCH_BILLING_SESSIONS changes the count (growth: 100,000).
// The administration is this run's own (bench/run-tag.ts): the database may hold other sessions.
import pg from 'pg';
import { registerRestEventRenderers } from '../rest/events/event-renderers.ts';
import { saveBillingSettings } from '../src/billing/billing-settings.service.ts';
import { createSeries } from '../src/billing/billing-series.service.ts';
import { billUnbilledSessions } from '../src/billing/sources/msp-session.source.ts';
import { createAdministration } from '../src/parties/create-administration.service.ts';
import { openOrm } from '../src/platform/orm.ts';
import { ormConfig } from '../mikro-orm.config.ts';
import { scopedEm } from '../src/access/admin-scope.ts';
import type { BenchmarkResult } from './run.ts';
import { RUN_TAG, runId } from './run-tag.ts';
import { SUBTOTALS_SQL } from './priced-subtotals.ts';

const SESSIONS = Number(process.env.SVC_BENCH_BILLING_SESSIONS ?? 1_000_000);
const CUSTOMERS = 10_000;
const CHUNK = 100_000;
const ADMIN = runId('bench-billing');


/**
 * A session's body as submitted (the stored sessions' shape, bench/seed-stored-sessions.ts), so that
 * its rows are the size of real ones: with an empty body they were a third of that, and in the growth
 * database, after a vacuum, they went one by one into the room left at the end of the stored
 * sessions' pages (50,000 sessions on 45,313 pages at 1,000,000 stored, on 7,817 at 100,000).
 */
const PAYLOAD = `jsonb_build_object('session_id', 'S' || s.n, 'cpo_id', 'NL*BEN', 'evco_id', s.evco_id,
  'start_date_time', to_char(s.start_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"'),
  'end_date_time', to_char((s.start_at + interval '1 hour') at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"'),
  'total_energy_kwh', s.kwh::text, 'total_idle_seconds', 0, 'time_zone', 'Europe/Amsterdam', 'evse_id', 'NL*BEN*E' || (s.n % 4001),
  'power_type', case when s.n % 3 = 0 then 'dc' else 'ac_3phase' end, 'connector_standard', case when s.n % 3 = 0 then 'IEC_62196_T2_COMBO' else 'IEC_62196_T2' end,
  'address', jsonb_build_object('street', 'Laan ' || (s.n % 300), 'city', 'Utrecht', 'postal_code', lpad((s.n % 9000 + 1000)::text, 4, '0'), 'country', 'NL'))`;

async function seed(pool: pg.Pool): Promise<void> {
  await pool.query(`insert into customer (id, admin_id, name, country, entity_type, reimbursement_vat, custom_fields, charge_auth_blocked, created_at, updated_at)
    select svc_uuidv7(), '${ADMIN}', 'Customer ' || n, 'NL', 'person', 'Unknown', '{}', false, now(), now() from generate_series(1, ${CUSTOMERS}) n`);
  await pool.query(`create temp table bench_customer as select id, row_number() over (order by id) as n from customer where admin_id = '${ADMIN}'`);
  for (let from = 0; from < SESSIONS; from += CHUNK) {
    const to = Math.min(SESSIONS, from + CHUNK);
    await pool.query(`with s as (
        select svc_uuidv7() as id, n, 'NL-BEN-C' || lpad((n % ${CUSTOMERS})::text, 8, '0') as evco_id, round((5 + (n % 40))::numeric + (n % 1000) / 1000.0, 3) as kwh,
          timestamptz '2026-10-01 08:00+02' + ((n % 30) || ' days')::interval + ((n % 600) || ' minutes')::interval as start_at
        from generate_series(${from + 1}, ${to}) n),
      ins as (insert into msp_charge_session (id, source, identity_key, session_id, cpo_id, evco_id, start_at, end_at, energy_kwh, idle_seconds,
          time_zone, country, evse_id, payload, received_at, status, admin_id, driver_admin_id, customer_id, bypass_checks, pricing_version, created_at, updated_at)
        select s.id, 'charge_session', 'bench:${RUN_TAG}:' || s.n, 'S' || s.n, 'NL*BEN', s.evco_id, s.start_at,
          s.start_at + interval '1 hour', s.kwh, 0, 'Europe/Amsterdam', 'NL', 'NL*BEN*E' || (s.n % 4001), ${PAYLOAD}, now(), 'priced', '${ADMIN}', '${ADMIN}', c.id, '[]', 1, now(), now()
        from s join bench_customer c on c.n = 1 + s.n % ${CUSTOMERS}
        returning id, customer_id, energy_kwh as kwh)
      insert into msp_pricing_result (id, session_id, version, admin_id, customer_id, subscription_id, token_evco_id, currency, rate_plan_id,
          rate_plan_version_id, rule, subtotals, total_excl_vat, total_vat, total_incl_vat, credit_used, annotations, explanation, created_at)
        select svc_uuidv7(), ins.id, 1, '${ADMIN}', ins.customer_id, ins.customer_id, 'NL-BEN', 'EUR', ins.customer_id, ins.customer_id,
          '{}', ${SUBTOTALS_SQL}, round(kwh * 0.45, 2) + 0.35, 0, 0, 0, '{}', '[]', now() from ins`);
  }
  // Settled, as a month's sessions are when their period is billed: the first statement to read a
  // row just written sets its hint bits (a write of every page), and it was the baseline's, measured
  // first (7 s against 5.4 s settled).
  await pool.query('vacuum (analyze) msp_charge_session, msp_pricing_result, customer');
  await pool.query('checkpoint');
}

/** The same totals with one plain aggregation: per customer, VAT kind and rate, the sum of the rounded lines. */
const AGGREGATE = `select r.customer_id, sub->>'vat_kind' as vat_kind, sub->>'vat_percent' as vat_percent,
    count(distinct s.id) as sessions, sum((sub->>'amount_excl_vat')::numeric) as net
  from msp_charge_session s join msp_pricing_result r on r.session_id = s.id and r.version = s.pricing_version
  cross join lateral jsonb_array_elements(r.subtotals) sub
  where s.admin_id = '${ADMIN}' and s.status = 'priced'
  group by 1, 2, 3`;

export async function billingBenchmark(url: string): Promise<BenchmarkResult> {
  // Boxes record events, whose data the REST renderers give (in a process of its own no app registered them).
  registerRestEventRenderers();
  const orm = await openOrm(ormConfig(url, { poolMax: 4 }));
  const em = scopedEm(orm);
  await createAdministration(em, { id: ADMIN, name: 'Bench billing', currency: 'EUR', country: 'NL' });
  await saveBillingSettings(em, ADMIN, { timeZone: 'Europe/Amsterdam' });
  const pool = new pg.Pool({ connectionString: url, max: 2 });
  pool.on('error', () => {});
  const seeded = performance.now();
  await seed(pool);
  console.log(`  seeded ${SESSIONS} priced sessions of ${CUSTOMERS} customers in ${((performance.now() - seeded) / 1000).toFixed(1)} s`);

  let started = performance.now();
  const aggregate = await pool.query(AGGREGATE);
  const sqlMs = performance.now() - started;

  await createSeries(em, { adminId: ADMIN, code: 'BENCH', externalReference: runId('bench-series'), itemSources: ['custom'] });
  await createSeries(em, { adminId: ADMIN, code: 'SESS', externalReference: runId('bench-sessions'), itemSources: ['msp_session'] });
  let peak = process.memoryUsage().rss;
  const sampler = setInterval(() => { peak = Math.max(peak, process.memoryUsage().rss); }, 20);
  started = performance.now();
  const billed = await billUnbilledSessions(scopedEm(orm), ADMIN);
  const billingMs = performance.now() - started;
  clearInterval(sampler);
  peak = Math.max(peak, process.memoryUsage().rss);

  const check = await pool.query(`select count(*)::int as boxes, (select count(*)::int from billing_item i where i.admin_id = $1) as items,
      (select sum(amount_excl_vat)::text from billing_item i where i.admin_id = $1) as billed,
      (select sum((sub->>'amount_excl_vat')::numeric)::text from msp_pricing_result r cross join lateral jsonb_array_elements(r.subtotals) sub
        where r.admin_id = $1) as priced
    from billing_box where admin_id = $1`, [ADMIN]);
  const c = check.rows[0];
  console.log(`  billed ${billed} sessions into ${c.boxes} boxes (${c.items} items, ${aggregate.rowCount} customer totals by SQL); `
    + `billed ${c.billed} = priced ${c.priced}: ${c.billed === c.priced ? 'equal' : 'DIFFERENT'}`);
  console.log(`  peak memory of the billing process: ${(peak / 1024 / 1024).toFixed(0)} MB (target under 512 MB)`);
  await pool.end();
  await orm.close();
  return { name: 'billing a period of priced sessions', unit: 'ms', figure: billingMs, baseline: sqlMs, baselineLabel: 'plain SQL aggregation of the same rows' };
}
