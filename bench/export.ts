// `npm run bench -- export`: an export through GET /main/v1/msp-charge-session-priced at
// page_size=1000 over 1,000,000 stored priced sessions (BENCH_EXPORT_SESSIONS), following the
// envelope's link_next to the end, as a credential limited to the administration (5% of the
// rows belong to another one). The baseline is a plain node:http + pg handler answering the same
// pages (same order, same JSON, same envelope) with one keyset query each, in the same run. The
// client is a process of its own (bench/export-client.ts) and walks both lists in lockstep, a
// page of each in turn, so that other work on the machine weighs on both alike. Prints rows/s of
// both and the median latency of the first and the last page of both.
import { runLoadClient } from './load-client.ts';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import pg from 'pg';
import { createApp } from '../rest/app.ts';
import { saveCredential } from '../src/credentials/save-credential.service.ts';
import { createAdministration } from '../src/parties/create-administration.service.ts';
import { Administration } from '../src/parties/administration.entity.ts';
import { openOrm } from '../src/platform/orm.ts';
import { ormConfig } from '../mikro-orm.config.ts';
import { scopedEm } from '../src/access/admin-scope.ts';
import type { WalkJob, WalkResult } from './export-client.ts';
import type { BenchmarkResult } from './run.ts';
import { SUBTOTALS_SQL } from './priced-subtotals.ts';

const SESSIONS = Number(process.env.BENCH_EXPORT_SESSIONS ?? 1_000_000);
const CHUNK = 100_000;
const PAGE_SIZE = 1000;
const LATENCY_FETCHES = 15;
const ADMIN = 'bench-export';
/** Every 20th session belongs to this one, which the benchmark's credential does not see. */
const OTHER_ADMIN = 'bench-export-other';
const PATH = '/main/v1/msp-charge-session-priced';
const AUTHORIZATION = `Basic ${Buffer.from('bench-export:bench-secret-1234').toString('base64')}`;


/**
 * Stored priced sessions, each with its pricing result (version 1), written set-based in chunks;
 * the bodies as POST /charge-session stores them (half name a cpo_session_id). Skipped when the
 * database already holds that many. (To be replaced by the shared bench/seed-stored-sessions.ts.)
 */
export async function seedExportSessions(pool: pg.Pool, count: number): Promise<void> {
  const { rows: [{ stored }] } = await pool.query<{ stored: number }>(
    'select count(*)::int as stored from msp_pricing_result where admin_id in ($1, $2)', [ADMIN, OTHER_ADMIN]);
  if (stored >= count) return;
  await pool.query('delete from msp_pricing_result where admin_id in ($1, $2)', [ADMIN, OTHER_ADMIN]);
  await pool.query('delete from msp_charge_session where admin_id in ($1, $2)', [ADMIN, OTHER_ADMIN]);
  for (let from = 0; from < count; from += CHUNK) {
    const to = Math.min(count, from + CHUNK);
    await pool.query(`with s as (
        select svc_uuidv7() as id, n, round((5 + (n % 40))::numeric + (n % 1000) / 1000.0, 3) as kwh,
          case when n % 20 = 0 then '${OTHER_ADMIN}' else '${ADMIN}' end as admin_id,
          'NL-BEX-C' || lpad((n % 10000)::text, 8, '0') as evco_id,
          md5('customer' || (n % 10000))::uuid as customer_id,
          timestamptz '2026-10-01 08:00+02' + ((n % 30) || ' days')::interval + ((n % 600) || ' minutes')::interval as start_at
        from generate_series(${from + 1}, ${to}) n),
      ins as (insert into msp_charge_session (id, source, identity_key, session_id, cpo_id, evco_id, start_at, end_at, energy_kwh, idle_seconds,
          time_zone, country, evse_id, payload, received_at, status, admin_id, driver_admin_id, customer_id, subscription_id, bypass_checks, pricing_version,
          created_at, updated_at)
        select s.id, 'charge_session', 'bench-export:' || s.n, 'S' || s.n, 'NL*ABC', s.evco_id, s.start_at, s.start_at + interval '1 hour', s.kwh, 0,
          'Europe/Amsterdam', 'NL', 'NL*ABC*E' || (s.n % 5000),
          jsonb_build_object('session_id', 'S' || s.n, 'cpo_id', 'NL*ABC', 'evco_id', s.evco_id,
            'start_date_time', to_char(s.start_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"'),
            'end_date_time', to_char((s.start_at + interval '1 hour') at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"'),
            'total_energy_kwh', s.kwh::text, 'time_zone', 'Europe/Amsterdam', 'evse_id', 'NL*ABC*E' || (s.n % 5000),
            'address', jsonb_build_object('street', 'Stationsplein ' || (s.n % 200), 'city', 'Utrecht', 'postal_code', '3511 ED', 'country', 'NL'),
            'remark', 'bench export session')
            || case when s.n % 2 = 0 then jsonb_build_object('cpo_session_id', 'CPO-' || s.n) else '{}'::jsonb end,
          now(), 'priced', s.admin_id, s.admin_id, s.customer_id, s.customer_id, '[]', 1, now(), now()
        from s
        returning id, admin_id, customer_id, evco_id, energy_kwh as kwh)
      insert into msp_pricing_result (id, session_id, version, admin_id, customer_id, subscription_id, subscription_external_reference,
          token_evco_id, currency, rate_plan_id, rate_plan_version_id, rule, subtotals, total_excl_vat, total_vat, total_incl_vat, credit_used,
          annotations, roaming_agreement, explanation, created_at)
        select svc_uuidv7(), ins.id, 1, ins.admin_id, ins.customer_id, ins.customer_id, 'SUB-' || left(ins.customer_id::text, 8), ins.evco_id,
          'EUR', ins.customer_id, ins.customer_id, '{"name": "Default", "index": 0}', ${SUBTOTALS_SQL},
          round(kwh * 0.45, 2) + 0.35, round((round(kwh * 0.45, 2) + 0.35) * 0.21, 2),
          round(kwh * 0.45, 2) + 0.35 + round((round(kwh * 0.45, 2) + 0.35) * 0.21, 2),
          case when ins.kwh > 40 then 1.5 else 0 end, case when ins.kwh > 44 then '{"tier": "high"}'::jsonb else '{}'::jsonb end, null,
          '["energy at 0.45 per kWh", "session fee 0.35"]', now()
        from ins`);
  }
  await pool.query('vacuum analyze msp_charge_session');
  await pool.query('vacuum analyze msp_pricing_result');
}

/** A stored decimal as the API writes it: at least two decimals, no trailing zeros beyond. */
function decimal(text: string): string {
  const [int, fraction = ''] = text.split('.');
  return `${int}.${fraction.replace(/0+$/, '').padEnd(2, '0')}`;
}

// The best keyset read of a page: one statement, the scope as the credential's, the CPO's session
// id (session-reported.ts: the body's cpo_session_id when a non-empty string, else the session id)
// computed in SQL so the body never leaves the database.
const SELECT = `select r.id, r.session_id, r.version, r.admin_id, r.customer_id, r.currency, r.token_evco_id, r.subscription_id,
    r.subscription_external_reference, r.roaming_agreement,
    case when s.source = 'charge_session' and jsonb_typeof(s.payload -> 'cpo_session_id') = 'string' and s.payload ->> 'cpo_session_id' <> ''
      then s.payload ->> 'cpo_session_id' else s.session_id end as cpo_session_id,
    r.rate_plan_id, r.rate_plan_version_id, r.rule, r.subtotals, r.total_excl_vat, r.total_vat, r.total_incl_vat, r.credit_used,
    r.annotations, r.explanation, r.created_at
  from msp_pricing_result r join msp_charge_session s on s.id = r.session_id`;
// The scope is one administration: ordered by it first, the (admin_id, id) index reads each page in
// id order (ordered by id alone, the planner walks the id index through the other administrations' rows).
const FIRST = `${SELECT} where r.admin_id = any($1::citext[]) order by r.admin_id, r.id limit $2`;
const AFTER = `${SELECT} where r.admin_id = any($1::citext[]) and r.id > $3 order by r.admin_id, r.id limit $2`;

/** The same pages, same JSON, from a plain node:http + pg handler. */
function plainServer(pool: pg.Pool, scope: string[]): http.Server {
  return http.createServer(async (request, response) => {
    const url = new URL(request.url!, 'http://plain');
    const pageSize = Number(url.searchParams.get('page_size') ?? 500);
    const after = url.searchParams.get('after');
    const { rows } = after ? await pool.query(AFTER, [scope, pageSize + 1, after]) : await pool.query(FIRST, [scope, pageSize + 1]);
    const items = rows.slice(0, pageSize).map((r) => ({
      id: r.id,
      charge_session_id: r.session_id,
      version: r.version,
      admin_id: r.admin_id,
      customer_id: r.customer_id,
      currency_code: r.currency,
      token_evco_id: r.token_evco_id,
      subscription_id: r.subscription_id,
      subscription_external_reference: r.subscription_external_reference,
      roaming_agreement: r.roaming_agreement,
      cpo_session_id: r.cpo_session_id,
      rate_plan_id: r.rate_plan_id,
      rate_plan_version_id: r.rate_plan_version_id,
      rule: r.rule,
      subtotals: r.subtotals,
      total_excl_vat: decimal(r.total_excl_vat),
      total_vat: decimal(r.total_vat),
      total_incl_vat: decimal(r.total_incl_vat),
      monetary_credit_used: decimal(r.credit_used),
      annotations: r.annotations,
      explanation: r.explanation,
      created_at: (r.created_at as Date).toISOString(),
    }));
    const page: { items: unknown[]; page_size: number; link_next?: string } = { items, page_size: pageSize };
    if (rows.length > pageSize) page.link_next = `${PATH}?${new URLSearchParams({ after: items[items.length - 1].id, page_size: String(pageSize) })}`;
    const headers: Record<string, string> = { 'content-type': 'application/json; charset=utf-8' };
    if (page.link_next) headers.link = `<${page.link_next}>; rel="next"`;
    response.writeHead(200, headers);
    response.end(JSON.stringify(page));
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

function walk(urls: string[]): Promise<WalkResult[]> {
  const job: WalkJob = { urls, authorization: AUTHORIZATION, latencyFetches: LATENCY_FETCHES };
  return runLoadClient<WalkResult[]>('export-client.ts', job);
}

async function body(url: string): Promise<string> {
  const response = await fetch(url, { headers: { authorization: AUTHORIZATION } });
  const text = await response.text();
  if (response.status !== 200) throw new Error(`GET ${url}: HTTP ${response.status} ${text.slice(0, 300)}`);
  return text;
}

/** The app and the plain handler answer the same bytes (first and last page). */
async function sameJson(appUrl: string, plainUrl: string, pathAndQuery: string): Promise<void> {
  const [app, plain] = [await body(appUrl + pathAndQuery), await body(plainUrl + pathAndQuery)];
  if (app === plain) return;
  let at = 0;
  while (app[at] === plain[at]) at++;
  throw new Error(`the plain handler's JSON differs from the app's at ${at} of ${pathAndQuery}:\n  app:   ${app.slice(Math.max(0, at - 80), at + 80)}\n`
    + `  plain: ${plain.slice(Math.max(0, at - 80), at + 80)}`);
}

export async function exportBenchmark(url: string): Promise<BenchmarkResult> {
  const orm = await openOrm(ormConfig(url, { poolMax: 4 }));
  const em = scopedEm(orm);
  for (const id of [ADMIN, OTHER_ADMIN]) {
    if (!(await em.findOne(Administration, { id }))) await createAdministration(scopedEm(orm), { id, name: id, currency: 'EUR', country: 'NL' });
  }
  await saveCredential(scopedEm(orm), { publicId: 'bench-export', secret: 'bench-secret-1234', adminIds: [ADMIN] });
  const pool = new pg.Pool({ connectionString: url, max: 2 });
  // Idle clients see the embedded PostgreSQL stop after the run (57P01); that is no failure.
  pool.on('error', () => {});
  const seeding = performance.now();
  await seedExportSessions(pool, SESSIONS);
  console.log(`  ${SESSIONS} stored priced sessions (seeded or found in ${((performance.now() - seeding) / 1000).toFixed(1)} s)`);

  const app = createApp(orm).listen(0, '127.0.0.1');
  await new Promise((resolve) => app.once('listening', resolve));
  const appUrl = `http://127.0.0.1:${(app.address() as AddressInfo).port}`;
  const plain = plainServer(pool, [ADMIN]);
  const plainUrl = await listen(plain);
  const first = `${PATH}?page_size=${PAGE_SIZE}`;

  const [appWalk, plainWalk] = await walk([appUrl + first, plainUrl + first]);
  await sameJson(appUrl, plainUrl, first);
  await sameJson(appUrl, plainUrl, appWalk.lastUrl.slice(appUrl.length));
  if (appWalk.rows !== plainWalk.rows) throw new Error(`the app paged ${appWalk.rows} rows, the plain handler ${plainWalk.rows}`);
  for (const [name, walked] of [['app', appWalk], ['plain', plainWalk]] as const) {
    console.log(`  ${name}: ${walked.rows} rows in ${walked.pages} pages, ${walked.seconds.toFixed(1)} s, ${(walked.rows / walked.seconds).toFixed(0)} rows/s;`
      + ` first page ${walked.firstPageMs.toFixed(1)} ms, last page ${walked.lastPageMs.toFixed(1)} ms (last/first ${(walked.lastPageMs / walked.firstPageMs).toFixed(2)})`);
  }
  await close(app);
  await close(plain);
  await pool.end();
  await orm.close();
  return {
    name: `GET ${PATH} paged to the end (page_size=${PAGE_SIZE})`, unit: 'rows/s',
    figure: appWalk.rows / appWalk.seconds, baseline: plainWalk.rows / plainWalk.seconds, baselineLabel: 'plain node:http + pg keyset handler, same JSON',
  };
}
