// Read throughput of every list: GET /main/v1/administration, /customer, /msp-token,
// /msp-charge-session and /billing-box (the first page, default page size 500) through the whole
// app (authentication, request context, queries module, serializer), against a plain node:http
// handler answering the same page with one SQL statement, its rows written into the same JSON
// (bench/plain-lists.ts, in a process of its own: bench/plain-server.ts), on the same database in the
// same run, the two taking turns. The two answers are compared once
// before timing (the first page, and the page where this run's own rows start). The load comes
// from a separate process (bench/auth-flood-client.ts, `legit` job). The figure: the lowest ratio
// of the app's rate to the plain handler's over the lists.
//
// Seeded in an administration of its own (bench/run-tag.ts): BENCH_READS_ROWS customers (600),
// each with a subscription and one or two tokens (some blocked, some never linked, some links
// ended), three sessions each in October 2026 (priced, a few dropped out or CPO sessions, reported
// fields of every kind), the priced ones billed into a box per customer (some with documents).
import { runLoadClient } from './load-client.ts';
import { spawn } from 'node:child_process';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { isDeepStrictEqual } from 'node:util';
import pg from 'pg';
import { createApp } from '../rest/app.ts';
import { saveBillingSettings } from '../src/billing/billing-settings.service.ts';
import { createSeries } from '../src/billing/billing-series.service.ts';
import { billUnbilledSessions } from '../src/billing/sources/msp-session.source.ts';
import { saveCredential } from '../src/credentials/save-credential.service.ts';
import { createAdministration } from '../src/parties/create-administration.service.ts';
import { openOrm } from '../src/platform/orm.ts';
import { ormConfig } from '../mikro-orm.config.ts';
import { scopedEm } from '../src/access/admin-scope.ts';
import type { LegitJob, LegitResult } from './auth-flood-client.ts';
import type { BenchmarkPart, BenchmarkResult } from './benchmarks.ts';
import { PLAIN_LISTS } from './plain-lists.ts';
import { SERVICE_NODE_FLAGS } from '../src/platform/heap-config.ts';
import { RUN_TAG, runId } from './run-tag.ts';

const SECONDS = Number(process.env.BENCH_READS_SECONDS ?? 5);
/** Windows per side (BENCH_READS_ROUNDS): the app and the plain handler take turns. */
const ROUNDS = Number(process.env.BENCH_READS_ROUNDS ?? 4);
const ROWS = Number(process.env.BENCH_READS_ROWS ?? 600);
const CONCURRENCY = 16;
/** BENCH_READS_LISTS: a comma-separated subset of the lists (`administration,customer`), e.g. to profile one. */
const ONLY = (process.env.BENCH_READS_LISTS ?? '').split(',').filter(Boolean);
const ADMIN = runId('bench-reads');
const SECRET = 'bench-secret-1234';
const AUTHORIZATION = `Basic ${Buffer.from(`${ADMIN}:${SECRET}`).toString('base64')}`;
const EVCO_PREFIX = `NLRDS${RUN_TAG.toUpperCase()}`;

function measure(url: string, durationMs: number): Promise<LegitResult> {
  const job: LegitJob = { kind: 'legit', url, authorization: AUTHORIZATION, concurrency: CONCURRENCY, durationMs };
  return runLoadClient<LegitResult>('auth-flood-client.ts', job);
}

/**
 * The app's and the plain handler's rates of one list, measured in turns (app, plain, plain, app,
 * ...: ROUNDS windows each, SECONDS in all per side) so that a change of the machine's load during
 * the measurement (other processes on a shared machine) weighs on both sides alike; a rate is the
 * requests of a side's windows over their seconds.
 */
async function rates(appUrl: string, plainUrl: string): Promise<[number, number]> {
  await measure(appUrl, 500);
  await measure(plainUrl, 500);
  const totals = [{ requests: 0, seconds: 0 }, { requests: 0, seconds: 0 }];
  for (let round = 0; round < ROUNDS; round++) {
    for (const side of round % 2 === 0 ? [0, 1] : [1, 0]) {
      const result = await measure(side === 0 ? appUrl : plainUrl, (SECONDS * 1000) / ROUNDS);
      totals[side].requests += result.requests;
      totals[side].seconds += result.seconds;
    }
  }
  return [totals[0].requests / totals[0].seconds, totals[1].requests / totals[1].seconds];
}

/** This run's rows, set-based: customers, subscriptions, tokens and links, sessions with their pricing results. */
async function seedRows(client: pg.ClientBase): Promise<void> {
  await client.query('begin');
  await client.query(`insert into msp_subscription_plan (id, admin_id, name, recurring_costs, credit_excluded_components, created_at, updated_at)
    values (svc_uuidv7(), $1, 'Reads plan', '[]', '[]', now(), now())`, [ADMIN]);
  await client.query(`insert into customer (id, admin_id, name, country, entity_type, external_reference, company_reg_num, locale_id,
      billing_email, billing_phone, reimbursement_vat, billing_rollup_group_by, custom_fields, charge_auth_blocked, external_updated_at,
      created_at, updated_at)
    select svc_uuidv7(), $1, case when n % 4 = 0 then 'Fleet ' || n || ' B.V.' else 'Reader ' || n end, case when n % 6 = 0 then 'BE' else 'NL' end,
      case when n % 4 = 0 then 'organisation' else 'person' end, 'reads-' || $2 || '-' || n, case when n % 4 = 0 then 'KVK' || (10000000 + n) end,
      case when n % 3 = 0 then 'nl-NL' end, 'reader' || n || '@example.com', case when n % 2 = 0 then '+31 30 ' || lpad(n::text, 7, '0') end,
      (array['Applies', 'Exempt', 'Unknown'])[1 + n % 3], (array[null, 'product', 'subscription', 'token'])[1 + n % 4],
      jsonb_build_object('tier', n % 3, 'vip', n % 10 = 0, 'region', 'R' || (n % 5)), n % 50 = 0,
      case when n % 5 = 0 then timestamptz '2026-09-01 12:00Z' + (n || ' minutes')::interval end, now(), now()
    from generate_series(1, ${ROWS}) n`, [ADMIN, RUN_TAG]);
  await client.query(`insert into msp_token_subscription (id, admin_id, customer_id, plan_id, valid_from, valid_until, defunct, custom_fields,
      external_reference, created_at, updated_at)
    select svc_uuidv7(), $1, c.id, p.id, timestamptz '2025-01-01 00:00Z', case when n % 10 = 0 then timestamptz '2025-06-01 00:00Z' end,
      n % 13 = 0, '{}', 'reads-sub-' || $2 || '-' || n, now(), now()
    from (select id, (regexp_match(external_reference, '(\\d+)$'))[1]::int as n from customer where admin_id = $1) c
    cross join (select id from msp_subscription_plan where admin_id = $1) p`, [ADMIN, RUN_TAG]);
  // One token per customer and a second for every other one; every 7th is never linked.
  await client.query(`with t as (insert into msp_token (id, evco_id, uid, uid_type, form_factor, initial_admin_id, current_admin_id,
        charge_auth_blocked, fulfilment, activated_at, vehicle_vin, first_linked_at, external_updated_at, created_at, updated_at)
      select svc_uuidv7(), $2 || lpad(n::text, 5, '0'), case when n % 3 = 0 then upper(lpad(to_hex(n * 7919), 14, '0')) end,
        case when n % 3 = 0 then 'rfid_7byte' end, (array['card', 'keychain', 'sticker', 'virtual'])[1 + n % 4], $1, $1, n % 11 = 0,
        case when n % 8 = 0 then 'activated' else 'none' end, case when n % 8 = 0 then timestamptz '2025-03-01 09:00Z' end,
        case when n % 9 = 0 then 'WVWZZZ1JZ' || lpad(n::text, 8, '0') end, case when n % 7 <> 0 then timestamptz '2025-01-02 00:00Z' end,
        case when n % 5 = 0 then timestamptz '2026-01-01 00:00Z' end, now(), now()
      from generate_series(1, ${Math.floor(ROWS * 1.5)}) n
      returning id, right(evco_id, 5)::int as n)
    insert into msp_token_link (id, admin_id, subscription_id, token_id, valid_from, valid_until, defunct, created_at, updated_at)
      select svc_uuidv7(), $1, s.id, t.id, case when t.n % 2 = 0 then timestamptz '2025-02-01 00:00Z' end,
        case when t.n % 9 = 0 then timestamptz '2025-12-01 00:00Z' end, false, now(), now()
      from t join (select id, (regexp_match(external_reference, '(\\d+)$'))[1]::int as n from msp_token_subscription where admin_id = $1) s
        on s.n = 1 + (t.n - 1) % ${ROWS}
      where t.n % 7 <> 0`, [ADMIN, EVCO_PREFIX]);
  // Three sessions per customer in October 2026: mostly priced; every 20th dropped out, every 25th a CPO session.
  await client.query(`with c as (select c.id as customer_id, s.id as subscription_id, t.evco_id, t.id as token_id,
        (regexp_match(c.external_reference, '(\\d+)$'))[1]::int as n
      from customer c join msp_token_subscription s on s.customer_id = c.id
      join lateral (select t.* from msp_token t join msp_token_link l on l.token_id = t.id where l.subscription_id = s.id order by t.evco_id limit 1) t on true
      where c.admin_id = $1),
    s as (select svc_uuidv7() as id, c.*, k, c.n * 3 + k as m, round((5 + (c.n * 3 + k) % 40)::numeric + ((c.n * 3 + k) % 1000) / 1000.0, 3) as kwh,
        timestamptz '2026-10-01 06:00Z' + (((c.n * 3 + k) * 577 % 43000) || ' minutes')::interval as start_at,
        case when (c.n * 3 + k) % 25 = 0 then 'cpo_charge_session' else 'charge_session' end as source,
        case when (c.n * 3 + k) % 25 = 0 then 'processed' when (c.n * 3 + k) % 20 = 0 then 'dropout' else 'priced' end as status
      from c cross join generate_series(0, 2) k),
    ins as (insert into msp_charge_session (id, source, identity_key, session_id, cpo_id, evco_id, start_at, end_at, energy_kwh, idle_seconds,
        time_zone, country, evse_id, evse_uid, payload, received_at, status, admin_id, driver_admin_id, token_id, subscription_id, customer_id, bypass_checks,
        dropout_reason, dropout_message, pricing_version, roaming_cost_excl_vat, roaming_cost_incl_vat, created_at, updated_at)
      select s.id, s.source, s.source || ':NLRDS:' || $2 || '-' || s.m, $2 || '-' || s.m, 'NL*RDS', s.evco_id, s.start_at,
        s.start_at + ((25 + s.m % 200) || ' minutes')::interval, s.kwh, (s.m % 4) * 120, 'Europe/Amsterdam', 'NL', 'NL*RDS*E' || (s.m % 40),
        case when s.source = 'cpo_charge_session' then 'UID-' || (s.m % 40) end,
        jsonb_strip_nulls(jsonb_build_object('session_id', $2 || '-' || s.m, 'cpo_id', 'NL*RDS', 'evco_id', s.evco_id,
          'start_date_time', to_char(s.start_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"'), 'total_energy_kwh', s.kwh::text,
          'time_zone', 'Europe/Amsterdam', 'evse_id', 'NL*RDS*E' || (s.m % 40), 'power_type', case when s.m % 3 = 0 then 'dc' else 'ac_3phase' end,
          'connector_standard', case when s.m % 3 = 0 then 'IEC_62196_T2_COMBO' else 'IEC_62196_T2' end,
          'connector_format', case when s.m % 2 = 0 then 'CABLE' else 'Socket' end,
          'address', case when s.m % 17 = 0 then jsonb_build_object('city', 'Zeist', 'country', 'nl')
            else jsonb_build_object('street', 'Oudegracht ' || (s.m % 300), 'city', 'Utrecht', 'postal_code', '3511 AB', 'country', 'NL') end,
          'remark', case when s.m % 6 = 0 then 'remark ' || s.m end,
          'cpo_session_id', case when s.m % 5 = 0 then 'CPO-' || s.m when s.m % 7 = 0 then '' end,
          'cpo_cdr_id', case when s.m % 4 = 0 then 'CDR-' || s.m end,
          'total_roaming_amount_excl_vat', case when s.m % 3 = 0 then round(s.kwh * 0.3, 2)::text || '00' end,
          'total_cost_incl_vat', case when s.m % 3 = 0 then round(s.kwh * 0.363, 4)::text end,
          'total_roaming_energy_amount_excl_vat', case when s.m % 6 = 0 then (s.kwh * 0.3)::text end,
          'total_sales_amount_excl_vat', case when s.source = 'cpo_charge_session' then '7.5' end)),
        s.start_at + interval '3 hours', s.status, case when s.status = 'dropout' then null else $1 end, case when s.status = 'dropout' then null else $1 end, s.token_id, s.subscription_id,
        s.customer_id, '[]', case when s.status = 'dropout' then 'token_unknown' end,
        case when s.status = 'dropout' then 'the token of the session is not known' end, case when s.status = 'priced' then 1 else 0 end,
        case when s.m % 3 = 0 then round(s.kwh * 0.31, 2) end, case when s.m % 3 = 0 then round(s.kwh * 0.31 * 1.21, 2) end,
        s.start_at + interval '3 hours', s.start_at + interval '3 hours'
      from s returning id, energy_kwh as kwh, customer_id, subscription_id, evco_id, status)
    insert into msp_pricing_result (id, session_id, version, admin_id, customer_id, subscription_id, token_evco_id, currency, rate_plan_id,
        rate_plan_version_id, rule, subtotals, total_excl_vat, total_vat, total_incl_vat, credit_used, annotations, explanation, created_at)
      select svc_uuidv7(), ins.id, 1, $1, ins.customer_id, ins.subscription_id, ins.evco_id, 'EUR', ins.subscription_id, ins.subscription_id, '{}',
        jsonb_build_array(jsonb_build_object('kind', 'energy', 'volume', kwh::text, 'billed_volume', kwh::text, 'rate', '0.45', 'rate_unit', 'kWh',
          'rate_label', 'Energy', 'amount_excl_vat', round(kwh * 0.45, 2)::text, 'amount_excl_vat_unrounded', (kwh * 0.45)::text,
          'vat_kind', 'standard', 'vat_percent', '21', 'vat_country', 'NL', 'vat_amount_unrounded', round(round(kwh * 0.45, 2) * 0.21, 6)::text),
          jsonb_build_object('kind', 'flat', 'volume', '1', 'billed_volume', '1', 'rate', '0.35', 'rate_unit', 'session', 'rate_label', 'Session fee',
          'amount_excl_vat', '0.35', 'amount_excl_vat_unrounded', '0.35', 'vat_kind', 'standard', 'vat_percent', '21', 'vat_country', 'NL',
          'vat_amount_unrounded', '0.0735')),
        round(kwh * 0.45, 2) + 0.35, round((round(kwh * 0.45, 2) + 0.35) * 0.21, 2), round((round(kwh * 0.45, 2) + 0.35) * 1.21, 2), 0, '{}', '[]', now()
      from ins where ins.status = 'priced'`, [ADMIN, `RD${RUN_TAG}`]);
  await client.query('commit');
}

/** Documents on every fifth box (a draft PDF, and a final PDF with its UBL on every tenth). */
async function seedDocuments(client: pg.ClientBase): Promise<void> {
  await client.query(`insert into billing_document_file (id, admin_id, box_id, filename, content_type, size, bytes, "primary", draft, created_at)
    select svc_uuidv7(), b.admin_id, b.id, d.filename, d.content_type, 1234 + k, '\\x255044462d', d.primary, d.draft, now()
    from (select id, admin_id, row_number() over (order by id) as k from billing_box where admin_id = $1) b
    cross join lateral (values ('draft.pdf', 'application/pdf', true, true), ('invoice.pdf', 'application/pdf', true, false),
      ('invoice.xml', 'application/xml', false, false)) d(filename, content_type, "primary", draft)
    where b.k % 5 = 0 and (d.filename = 'draft.pdf' or b.k % 10 = 0)`, [ADMIN]);
}

/** The first path where two JSON values differ, with both values; null when they are equal. */
function difference(app: unknown, plain: unknown, path = '$'): string | null {
  if (isDeepStrictEqual(app, plain)) return null;
  if (typeof app === 'object' && typeof plain === 'object' && app !== null && plain !== null && Array.isArray(app) === Array.isArray(plain)) {
    const a = app as Record<string, unknown>;
    const p = plain as Record<string, unknown>;
    for (const key of new Set([...Object.keys(a), ...Object.keys(p)])) {
      if (!(key in a) || !(key in p)) return `${path}.${key}: app ${key in a ? JSON.stringify(a[key]) : 'absent'}, plain ${key in p ? JSON.stringify(p[key]) : 'absent'}`;
      const found = difference(a[key], p[key], Array.isArray(app) ? `${path}[${key}]` : `${path}.${key}`);
      if (found) return found;
    }
  }
  return `${path}: app ${JSON.stringify(app)?.slice(0, 300)}, plain ${JSON.stringify(plain)?.slice(0, 300)}`;
}

async function getJson(url: string): Promise<unknown> {
  const response = await fetch(url, { headers: { authorization: AUTHORIZATION } });
  if (response.status !== 200) throw new Error(`GET ${url}: HTTP ${response.status} ${await response.text()}`);
  return response.json();
}

/** The key just before this run's first row of a list (its own page starts there), or null when its rows come first. */
async function ownPageAfter(pool: pg.Pool, path: string): Promise<string | null> {
  const before = (table: string, key: string, own: string) => `select ${key}::text as key from ${table}
    where ${key} < (select ${key} from ${table} where ${own} order by ${key} limit 1) order by ${key} desc limit 1`;
  const query: Record<string, string> = {
    '/main/v1/customer': before('customer', 'id', 'admin_id = $1'),
    '/main/v1/msp-token': before('msp_token', 'evco_id', 'current_admin_id = $1'),
    '/main/v1/msp-charge-session': before('msp_charge_session', 'id', `session_id like $1 || '-%'`),
    '/main/v1/billing-box': before('billing_box', 'id', 'admin_id = $1'),
  };
  if (!query[path]) return null;
  const { rows } = await pool.query(query[path], [path === '/main/v1/msp-charge-session' ? `RD${RUN_TAG}` : ADMIN]);
  return rows[0]?.key ?? null;
}

/** The app's and the plain handler's answers compared: the first page, and the page where this run's rows start. */
async function compare(pool: pg.Pool, appUrl: string, plainUrl: string, path: string): Promise<number> {
  const after = await ownPageAfter(pool, path);
  let mismatches = 0;
  for (const query of ['', ...(after ? [`?after=${encodeURIComponent(after)}`] : [])]) {
    const [app, plain] = [await getJson(appUrl + path + query), await getJson(plainUrl + path + query)];
    const found = difference(app, plain);
    if (process.env.BENCH_READS_VERBOSE) console.log(`  compared GET ${path}${query}: ${found ? 'different' : 'equal'}`);
    if (found) {
      mismatches++;
      console.log(`  !!! MISMATCH: GET ${path}${query}: the app and the plain handler answer differently: ${found}`);
    }
  }
  return mismatches;
}

export async function readsBenchmark(databaseUrl: string): Promise<BenchmarkResult> {
  const orm = await openOrm(ormConfig(databaseUrl, { poolMax: CONCURRENCY }));
  const app = createApp(orm).listen(0, '127.0.0.1');
  const em = scopedEm(orm);
  await createAdministration(em, { id: ADMIN, name: 'Bench reads', currency: 'EUR', country: 'NL', localeId: 'nl-NL' });
  await saveCredential(em, { publicId: ADMIN, secret: SECRET });
  await saveBillingSettings(em, ADMIN, { timeZone: 'Europe/Amsterdam' });
  await createSeries(em, { adminId: ADMIN, code: 'RD', externalReference: ADMIN, itemSources: ['msp_session'] });
  const pool = new pg.Pool({ connectionString: databaseUrl, max: CONCURRENCY });
  // Idle clients see the embedded PostgreSQL stop after the run (57P01); that is no failure.
  pool.on('error', () => {});
  const seeded = performance.now();
  const client = await pool.connect();
  try {
    await seedRows(client);
    await billUnbilledSessions(scopedEm(orm), ADMIN);
    await seedDocuments(client);
    await client.query('analyze');
  } finally {
    client.release();
  }
  const { rows: [counts] } = await pool.query(`select (select count(*) from customer)::int as customers, (select count(*) from msp_token)::int as tokens,
    (select count(*) from msp_charge_session)::int as sessions, (select count(*) from billing_box)::int as boxes`);
  console.log(`  seeded in ${((performance.now() - seeded) / 1000).toFixed(1)} s; the database holds ${counts.customers} customers, ${counts.tokens} tokens, `
    + `${counts.sessions} sessions, ${counts.boxes} billing boxes (an administrator's credential: every row is listed); `
    + `peak RSS so far ${(process.resourceUsage().maxRSS / 1024).toFixed(0)} MB`);

  await new Promise((resolve) => (app.listening ? resolve(null) : app.once('listening', resolve)));
  const appUrl = `http://127.0.0.1:${(app.address() as AddressInfo).port}`;
  // The plain handler runs in a process of its own (bench/plain-server.ts, the service's node flags):
  // this process's peak RSS is the app's.
  const plain = spawn(process.execPath, [...SERVICE_NODE_FLAGS, fileURLToPath(new URL('./plain-server.ts', import.meta.url)), databaseUrl, String(CONCURRENCY)],
    { stdio: ['pipe', 'pipe', 'inherit'] });
  const plainPort = await new Promise<string>((resolve, reject) => {
    let output = '';
    plain.stdout.on('data', (chunk) => {
      output += chunk;
      if (output.includes('\n')) resolve(output.trim());
    });
    plain.once('exit', (code) => reject(new Error(`the plain handler stopped (${code})`)));
  });
  const plainUrl = `http://127.0.0.1:${plainPort}`;

  let mismatches = 0;
  const parts: BenchmarkPart[] = [];
  for (const path of Object.keys(PLAIN_LISTS).filter((p) => ONLY.length === 0 || ONLY.includes(p.split('/').at(-1)!))) {
    mismatches += await compare(pool, appUrl, plainUrl, path);
    const [appRate, plainRate] = await rates(appUrl + path, plainUrl + path);
    parts.push({ name: `GET ${path}`, unit: 'requests/s', figure: appRate, baseline: plainRate });
    console.log(`  GET ${path}: app ${appRate.toFixed(0)}/s, plain handler ${plainRate.toFixed(0)}/s, ratio ${(appRate / plainRate).toFixed(3)}`
      + ` (peak RSS so far ${(process.resourceUsage().maxRSS / 1024).toFixed(0)} MB)`);
  }
  app.closeAllConnections();
  const plainStopped = new Promise((resolve) => plain.once('exit', resolve));
  plain.stdin.end();
  await Promise.all([new Promise((resolve) => app.close(resolve)), plainStopped]);
  await pool.end();
  await orm.close();

  const worst = parts.reduce((a, b) => (a.figure / a.baseline! <= b.figure / b.baseline! ? a : b));
  console.log(`  lowest ratio: ${worst.name}${mismatches ? `; ${mismatches} ANSWER(S) DIFFERED FROM THE APP'S (see above)` : '; every plain answer equal to the app\'s'}`);
  return {
    name: `GET lists over HTTP, the lowest ratio of the app's rate to a plain handler's${mismatches ? ' (PLAIN ANSWERS DIFFERED)' : ''}`,
    unit: 'app/plain', figure: worst.figure / worst.baseline!, baseline: 1, baselineLabel: 'the plain node:http + SQL handler of the same list', parts,
  };
}
