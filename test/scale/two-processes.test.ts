// Past one machine: two service processes (`node src/main.ts`, each with its own worker thread) on
// one PostgreSQL, under ingest load, with two webhook subscriptions. The processes share nothing
// but the database: every posted session is stored once (also when the same session reaches both
// at the same moment), priced once, billed once, its events recorded once and delivered to each
// subscription once, in commit order. Then one process is killed (SIGKILL) while sessions arrive
// and a delivery of it is in flight: nothing is lost, nothing priced twice, and the delivery it
// could not record comes again with the same event id and body. And what is per process (the
// remembered secrets, the rate limits) is per process, as the README's "Scaling out" says.
//
// Linux only: which process sent a webhook request is found from /proc (its socket).
import { readdirSync, readFileSync, readlinkSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import test from 'ava';
import pg from 'pg';
import { ormConfig } from '../../mikro-orm.config.ts';
import { registerRestEventRenderers } from '../../rest/events/event-renderers.ts';
import { scopedEm } from '../../src/access/admin-scope.ts';
import { saveCredential } from '../../src/credentials/save-credential.service.ts';
import { createTokenSubscription } from '../../src/msp/create-token-subscription.service.ts';
import { createSubscriptionPlan } from '../../src/msp/save-subscription-plan.service.ts';
import { TokenLink } from '../../src/msp/token-link.entity.ts';
import { Token } from '../../src/msp/token.entity.ts';
import { createAdministration } from '../../src/parties/create-administration.service.ts';
import { createCustomer } from '../../src/parties/save-customer.service.ts';
import { openOrm } from '../../src/platform/orm.ts';
import { createRatePlan, createRatePlanVersion } from '../../src/pricing/rate-plan.service.ts';
import { createVatRate } from '../../src/pricing/vat-rate.service.ts';
import { SELLER } from '../helpers/billing-factories.ts';
import { parsePrometheus } from '../helpers/prometheus.ts';
import { freshDatabaseUrl } from '../helpers/db.ts';
import { exited, startServiceProcess, type ServiceProcess } from '../helpers/process.ts';
import { registerSecret } from '../helpers/secret-scan.ts';
import { until } from '../helpers/webhook-receiver.ts';

const ADMIN = 'scale-msp';
const SUBSCRIPTIONS = 4;
const TOKENS_PER_SUBSCRIPTION = 5;
const UNKNOWN_TOKEN = 'NLUNK000000001';
const SESSION_KINDS = ['msp_charge_session', 'msp_charge_session_priced'];
const BOOTSTRAP = { publicId: 'scale', secret: 'scale-secret-secret-secret' };
const LIMITED = { publicId: 'scale-limited', secret: 'limited-secret-secret-secret', perMinute: 3 };
const REVOKED = { publicId: 'scale-revoked', secret: 'revoked-secret-secret-secret' };

let databaseUrl: string;
let env: Record<string, string>;
let db: pg.Pool;
let processes: ServiceProcess[] = [];
let receiver: Receiver;
let evcoIds: string[] = [];
const hooks: { id: string; path: string }[] = [];
/** Every answer of POST /charge-session, by session_id. */
const answers = new Map<string, { id: string; duplicate: boolean }[]>();
/** The sessions whose two copies went to both processes at the same moment. */
const atOnce = new Set<string>();
/** Each subscription's cursor when a phase started: its events are those after it. */
let cursors: Map<string, { position: string; eventId: string }>;

const basic = (auth: { publicId: string; secret: string }) => `Basic ${Buffer.from(`${auth.publicId}:${auth.secret}`).toString('base64')}`;

// ---------------------------------------------------------------------------------------------
// A webhook receiver that records each request when it arrives (before answering), with the
// client's port, and can hold its answers back (a delivery in flight).

interface Arrival { path: string; id: string; raw: string; remotePort: number }
interface Receiver {
  url: string;
  arrivals: Arrival[];
  hold(): void;
  release(): void;
  close(): Promise<void>;
}

async function startReceiver(): Promise<Receiver> {
  const arrivals: Arrival[] = [];
  let holding = false;
  let held: (() => void)[] = [];
  const server: Server = createServer((request, response) => {
    let raw = '';
    request.on('data', (chunk) => { raw += chunk; });
    request.on('end', () => {
      arrivals.push({ path: request.url ?? '/', id: String(JSON.parse(raw).id), raw, remotePort: request.socket.remotePort! });
      const answer = () => { if (!response.destroyed) response.writeHead(204).end(); };
      if (holding) held.push(answer); else answer();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    arrivals,
    hold: () => { holding = true; },
    release: () => { holding = false; const waiting = held; held = []; waiting.forEach((answer) => answer()); },
    close: () => new Promise((resolve) => { server.closeAllConnections(); server.close(() => resolve()); }),
  };
}

/** The process (of `pids`) whose TCP socket has local port `port`: /proc/net/tcp gives the socket's inode, /proc/<pid>/fd its owner. */
function processOfLocalPort(port: number, pids: number[]): number | undefined {
  const hexPort = `:${port.toString(16).toUpperCase().padStart(4, '0')}`;
  const inodes = new Set(['/proc/net/tcp', '/proc/net/tcp6'].flatMap((file) => {
    try { return readFileSync(file, 'utf8').split('\n').slice(1); } catch { return []; }
  }).map((line) => line.trim().split(/\s+/)).filter((fields) => fields[1]?.endsWith(hexPort)).map((fields) => fields[9]));
  return pids.find((pid) => {
    try {
      return readdirSync(`/proc/${pid}/fd`).some((fd) => {
        try { return inodes.has(/^socket:\[(\d+)\]$/.exec(readlinkSync(`/proc/${pid}/fd/${fd}`))?.[1] ?? ''); } catch { return false; }
      });
    } catch {
      return false;
    }
  });
}

// ---------------------------------------------------------------------------------------------
// Data: one administration with billing, four subscriptions of five tokens each.

async function seed(): Promise<void> {
  // The seed's writes record events, whose data the REST renderers give (as in the service).
  registerRestEventRenderers();
  const orm = await openOrm(ormConfig(databaseUrl, { poolMax: 2 }));
  try {
    await scopedEm(orm).transactional(async (tx) => {
      await createAdministration(tx, { id: ADMIN, name: 'Scale MSP', currency: 'EUR', country: 'NL' });
      await createVatRate(tx, { country: 'NL', vatKind: 'standard', percentage: '21', validFrom: new Date('2020-01-01T00:00:00Z') });
      const ratePlan = await createRatePlan(tx, { name: 'Scale rates', currency: 'EUR', adminIds: [ADMIN] });
      await createRatePlanVersion(tx, { id: ratePlan.id }, {
        validFrom: new Date('2020-01-01T00:00:00Z'),
        definition: { rates: { energy: { price: '0.45', step_size: '0.001' }, flat: { price: '0.35' } }, rules: [] },
      });
      const plan = await createSubscriptionPlan(tx, { adminId: ADMIN, name: 'Scale plan', ratePlanId: ratePlan.id });
      for (let s = 0; s < SUBSCRIPTIONS; s++) {
        const customer = await createCustomer(tx, { adminId: ADMIN, name: `Scale customer ${s}`, country: 'NL' });
        const subscription = await createTokenSubscription(tx, { customerId: customer.id, planId: plan.id, validFrom: new Date('2020-01-01T00:00:00Z') });
        for (let i = 0; i < TOKENS_PER_SUBSCRIPTION; i++) {
          const evcoId = `NLSCL${String(s * 100 + i).padStart(9, '0')}`;
          const token = tx.create(Token, { evcoId, initialAdmin: ADMIN, currentAdmin: ADMIN } as never);
          tx.create(TokenLink, { admin: ADMIN, subscription: subscription.id, token } as never);
          evcoIds.push(evcoId);
        }
      }
      await tx.flush();
    });
    for (const auth of [LIMITED, REVOKED]) registerSecret(auth.secret);
    await saveCredential(scopedEm(orm), { publicId: LIMITED.publicId, secret: LIMITED.secret, role: 'readonly', rateLimitPerMinute: LIMITED.perMinute });
    await saveCredential(scopedEm(orm), { publicId: REVOKED.publicId, secret: REVOKED.secret, role: 'readonly' });
  } finally {
    await orm.close();
  }
}

async function call(service: ServiceProcess, method: string, path: string, body?: unknown, auth = BOOTSTRAP): Promise<{ status: number; body: any }> {
  const response = await fetch(`${service.url}${path}`, {
    method, headers: { authorization: basic(auth), 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : null };
}

async function must(service: ServiceProcess, method: string, path: string, body?: unknown): Promise<any> {
  const answer = await call(service, method, path, body);
  if (answer.status !== 200) throw new Error(`${method} ${path}: ${answer.status} ${JSON.stringify(answer.body)}`);
  return answer.body;
}

async function metrics(service: ServiceProcess) {
  const response = await fetch(`${service.url}/main/metrics`, { headers: { authorization: basic(BOOTSTRAP) } });
  return parsePrometheus(await response.text()).samples;
}

/** The database connections of the processes (all but the test's own), sampled until `stop()`. */
function sampleConnections(): { stop(): Promise<number> } {
  let most = 0;
  let stopped = false;
  const sampling = (async () => {
    while (!stopped) {
      const [row] = await rows(`select count(*)::int as n from pg_stat_activity where datname = current_database()
        and application_name <> 'scale-test'`);
      most = Math.max(most, row.n);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  })();
  return { async stop() { stopped = true; await sampling; return most; } };
}

// ---------------------------------------------------------------------------------------------
// Load: sessions posted to the processes, some to both at once, some again later.

function sessionBody(tag: string, i: number) {
  const start = new Date(Date.now() - 2 * 86_400_000 - i * 60_000);
  return {
    session_id: `${tag}-${i}`, cpo_id: 'NL*SCL', evco_id: i % 10 === 9 ? UNKNOWN_TOKEN : evcoIds[i % evcoIds.length],
    start_date_time: start.toISOString(), end_date_time: new Date(start.getTime() + 40 * 60_000).toISOString(),
    total_energy_kwh: `${(i % 30) + 1}.${String(i % 1000).padStart(3, '0')}`, time_zone: 'Europe/Amsterdam',
    address: { city: 'Utrecht', country: 'NL' }, evse_id: 'NL*SCL*E1',
  };
}

/**
 * POSTs the session to `service`; a process that went away (killed) is left for another one of
 * `live()`, as a client behind a load balancer would: the session is idempotent.
 */
async function submit(body: ReturnType<typeof sessionBody>, service: ServiceProcess, live: () => ServiceProcess[]): Promise<void> {
  let target = service;
  for (let attempt = 0; ; attempt++) {
    try {
      const answer = await call(target, 'POST', '/main/v1/charge-session', body);
      // A database too busy to answer within the request's bound: again, as a client would.
      if (answer.status === 503 && attempt < 20) { await new Promise((resolve) => setTimeout(resolve, 200)); continue; }
      if (answer.status !== 200) throw new Error(`POST /charge-session ${body.session_id}: ${answer.status} ${JSON.stringify(answer.body)}`);
      answers.set(body.session_id, [...(answers.get(body.session_id) ?? []), { id: answer.body.id, duplicate: answer.body.duplicate }]);
      return;
    } catch (error) {
      if (attempt >= 20 || !(error instanceof TypeError)) throw error; // fetch failed: the connection went away
      const others = live().filter((p) => p !== target);
      target = others[attempt % Math.max(1, others.length)] ?? target;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
}

/**
 * `count` sessions tagged `tag`, 12 at a time: every tenth for an unknown token (a drop-out),
 * every fourth to both processes at the same moment, the rest to one or the other; then every
 * seventh again, to the other process.
 */
async function load(tag: string, count: number, live: () => ServiceProcess[], onProgress?: (done: number) => void): Promise<string[]> {
  const bodies = Array.from({ length: count }, (_, i) => sessionBody(tag, i));
  let next = 0;
  let done = 0;
  const pick = (i: number) => { const now = live(); return now[i % now.length]!; };
  await Promise.all(Array.from({ length: 12 }, async () => {
    while (next < count) {
      const i = next++;
      const now = live();
      if (i % 4 === 1 && now.length > 1) {
        atOnce.add(bodies[i]!.session_id);
        await Promise.all(now.slice(0, 2).map((service) => submit(bodies[i]!, service, live)));
      } else {
        await submit(bodies[i]!, pick(i), live);
      }
      onProgress?.(++done);
    }
  }));
  for (let i = 0; i < count; i += 7) await submit(bodies[i]!, pick(i + 1), live);
  return bodies.map((b) => b.session_id);
}

// ---------------------------------------------------------------------------------------------
// What the database says.

async function rows<T = any>(sql: string, params: unknown[] = []): Promise<T[]> {
  return (await db.query(sql, params)).rows as T[];
}

async function allProcessed(expected: number): Promise<boolean> {
  const [row] = await rows(`select count(*)::int as stored, count(*) filter (where status = 'received')::int as waiting from msp_charge_session`);
  return row.stored === expected && row.waiting === 0;
}

async function readCursors(): Promise<Map<string, { position: string; eventId: string }>> {
  const found = await rows(`select id::text, last_position::text as position, last_event_id::text as event_id from webhook_subscription`);
  return new Map(found.map((r) => [r.id, { position: r.position, eventId: r.event_id }]));
}

/** The ids of a subscription's events after `from`, in commit order (position, then id). */
async function eventsAfter(from: { position: string; eventId: string }): Promise<string[]> {
  return (await rows(`select e.id::text as id from svc_event e join svc_event_commit c on c.tx_id = e.tx_id
    where c.position is not null and (c.position, e.id) > ($1::bigint, $2::bigint) and e.kind = any($3::text[])
    order by c.position, e.id`, [from.position, from.eventId, SESSION_KINDS])).map((r) => r.id);
}

/** Until every subscription's cursor stands on the last of its events: everything was delivered. */
async function allDelivered(): Promise<boolean> {
  const now = await readCursors();
  for (const hook of hooks) {
    const cursor = now.get(hook.id)!;
    const pending = await eventsAfter(cursor);
    if (pending.length) return false;
  }
  return true;
}

/**
 * Each posted session stored once under one id, every answer for it naming that id; priced once
 * (one pricing result, version 1) or dropped out once; its events recorded once; billed once,
 * the billed total equal to the priced total; the drop-out case counting each drop-out once.
 */
async function assertEachSessionOnce(t: import('ava').ExecutionContext, posted: string[], lostAnswers = false): Promise<void> {
  const stored = await rows(`select session_id, id::text, status, pricing_version from msp_charge_session`);
  t.is(stored.length, posted.length, 'one row per posted session');
  const byKey = new Map(stored.map((s) => [s.session_id, s]));
  t.deepEqual([...byKey.keys()].sort(), [...posted].sort(), 'every posted session stored, no other');
  for (const sessionId of posted) {
    const row = byKey.get(sessionId)!;
    const got = answers.get(sessionId) ?? [];
    t.true(got.length > 0 && got.every((a) => a.id === row.id), `${sessionId}: every answer names the stored session`);
    // One answer says it stored the session, the others that it was there already (sent to both
    // at once, or again later); an answer lost with a killed process may have been the one.
    const storing = got.filter((a) => !a.duplicate).length;
    if (lostAnswers) t.true(storing <= 1, `${sessionId}: at most one answer stored it`);
    else t.is(storing, 1, `${sessionId}: one answer stored it`);
  }
  const dropouts = posted.filter((id) => Number(id.split('-').at(-1)) % 10 === 9).length;
  const byStatus = Object.fromEntries((await rows(`select status, count(*)::int as n from msp_charge_session group by status`)).map((r) => [r.status, r.n]));
  t.deepEqual(byStatus, { priced: posted.length - dropouts, dropout: dropouts });

  const results = await rows(`select s.id::text as session, count(r.id)::int as n, coalesce(max(r.version), 0) as version, bool_and(s.pricing_version = 1) as current
    from msp_charge_session s left join msp_pricing_result r on r.session_id = s.id where s.status = 'priced' group by s.id`);
  t.is(results.length, posted.length - dropouts);
  t.deepEqual(results.filter((r) => r.n !== 1 || r.version !== 1 || !r.current), [], 'one pricing result (version 1) per priced session');
  t.deepEqual(await rows(`select r.session_id from msp_pricing_result r join msp_charge_session s on s.id = r.session_id where s.status <> 'priced'`), []);

  const events = await rows(`select s.id::text as session,
      (select count(*)::int from svc_event e where e.kind = 'msp_charge_session' and e.resource_id = s.id::text and e.modification = 'create') as created,
      (select count(*)::int from svc_event e where e.kind = 'msp_charge_session' and e.resource_id = s.id::text and e.modification = 'update') as updated,
      (select count(*)::int from svc_event e join msp_pricing_result r on e.resource_id = r.id::text where e.kind = 'msp_charge_session_priced' and r.session_id = s.id) as priced,
      s.status from msp_charge_session s`);
  t.deepEqual(events.filter((e) => e.created !== 1 || e.updated !== 1 || e.priced !== (e.status === 'priced' ? 1 : 0)), [], 'one create, one update and one priced event per session');

  const billed = await rows(`select i.subject_id, count(*)::int as n from billing_item i where i.source_kind = 'msp_session' group by i.subject_id`);
  t.is(billed.length, posted.length - dropouts, 'every priced session billed');
  t.deepEqual(billed.filter((b) => b.n !== 1), [], 'one billing item per priced session');
  const [totals] = await rows(`select (select sum(amount_excl_vat) from billing_item where source_kind = 'msp_session')::text as billed,
    (select sum(total_excl_vat) from msp_pricing_result)::text as priced`);
  t.is(totals.billed, totals.priced, 'billed what was priced');

  const cases = await rows(`select reason, session_count from msp_dropout_case where open_key is not null`);
  t.deepEqual(cases.map((c) => [c.reason, c.session_count]), [['unknown_token', dropouts]], 'each drop-out counted once in its case');
}

/** The requests a subscription's hook received in a phase, in arrival order. */
function arrivalsOf(hook: { path: string }, from: number): Arrival[] {
  return receiver.arrivals.slice(from).filter((a) => a.path === hook.path);
}

/** The SQL block of the README's "Scaling out" section: what removes a killed process's spent jobs. */
function readmeCleanup(): string {
  const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');
  const section = readme.split(/^## /m).find((part) => part.startsWith('Scaling out\n'));
  const block = section && /```sql\n([\s\S]*?)```/.exec(section);
  if (!block) throw new Error('README.md has no sql block in "Scaling out"');
  return block[1]!;
}

function errorLines(service: ServiceProcess): string[] {
  return service.rawOutput().split('\n').filter((line) => /"level":"(error|fatal)"/.test(line));
}

// ---------------------------------------------------------------------------------------------

test.before(async () => {
  databaseUrl = await freshDatabaseUrl();
  db = new pg.Pool({ connectionString: databaseUrl, max: 3, application_name: 'scale-test' });
  await seed();
  env = {
    DATABASE_URL: databaseUrl, SVC_DEMO: '0', SVC_BOOTSTRAP_CREDENTIAL: `${BOOTSTRAP.publicId}:${BOOTSTRAP.secret}`,
    // One instance key for every process: a subscription's secret sealed by one is opened by the other.
    SVC_SECRET_KEY: 'scale-out-test-instance-key',
    // A delivery held back by the receiver below stays in flight until the test lets it go.
    SVC_WEBHOOK_TIMEOUT_MS: '60000', SVC_WEBHOOK_RETRY_SECONDS: '0.2', SVC_WEBHOOK_MAX_RETRY_SECONDS: '1',
  };
  processes = await Promise.all([startServiceProcess(env), startServiceProcess(env)]);
  const [a, b] = processes as [ServiceProcess, ServiceProcess];
  await must(a, 'POST', `/main/v1/administration/${ADMIN}/billing-settings`, { time_zone: 'Europe/Amsterdam', seller: SELLER, payment_term_days: 14 });
  await must(b, 'POST', '/main/v1/billing-series', { admin_id: ADMIN, code: 'SCL', external_reference: 'scale-series' });
  receiver = await startReceiver();
  // One subscription created through each process; both get every session event.
  for (const [i, service] of [a, b].entries()) {
    const path = `/hook-${i + 1}`;
    const created = await must(service, 'POST', '/main/v1/webhook-subscription', { url: `${receiver.url}${path}`, kinds: SESSION_KINDS, secret: `whsec-scale-0123456789-${i}` });
    hooks.push({ id: created.id, path });
  }
  cursors = await readCursors();
});

test.after.always(async () => {
  for (const service of processes) {
    if (service.child.exitCode === null && service.child.signalCode === null) service.child.kill('SIGKILL');
    await exited(service.child);
  }
  await receiver?.close();
  await db?.end();
});

test.serial('two processes, two workers, one database: each session stored, priced, billed and delivered once, in commit order', async (t) => {
  t.timeout(120_000);
  const fromArrival = receiver.arrivals.length;
  // Each process runs a worker of its own.
  for (const service of processes) t.is((await must(service, 'GET', '/main/health/ready')).checks.worker, 'ok');
  const connections = sampleConnections();
  const started = Date.now();
  const posted = await load('one', 160, () => processes);
  t.log(`posted after ${Date.now() - started} ms`);
  t.is(atOnce.size, 40);
  await until(() => allProcessed(posted.length), 'every session processed', 60_000);
  t.log(`processed after ${Date.now() - started} ms`);
  await assertEachSessionOnce(t, posted);
  // A session's id is a UUIDv7 of its receipt (its first 48 bits: milliseconds); ids of one
  // process's millisecond count on, so it may be a few milliseconds later.
  // An ingestion statement that stored nothing new (the repeats, sent one at a time) took no commit position.
  const [empty] = await rows(`select count(*)::int as n from svc_event_commit c where not exists (select 1 from svc_event e where e.tx_id = c.tx_id)`);
  t.is(empty.n, 0);
  const received = await rows(`select id::text, received_at from msp_charge_session`);
  const skew = received.map((r) => parseInt(r.id.replaceAll('-', '').slice(0, 12), 16) - new Date(r.received_at).getTime());
  t.true(skew.every((ms) => ms >= 0 && ms < 1000), `id time minus received_at: ${Math.min(...skew)} to ${Math.max(...skew)} ms`);

  await until(allDelivered, 'every event delivered to both subscriptions', 60_000);
  const most = await connections.stop();
  t.log(`at most ${most} connections of the two processes`);
  t.true(most <= 2 * 41, `${most} connections: at most 41 a process`);
  t.log(`delivered after ${Date.now() - started} ms`);
  for (const hook of hooks) {
    const expected = await eventsAfter(cursors.get(hook.id)!);
    t.is(expected.length, posted.length * 3 - posted.filter((id) => Number(id.split('-').at(-1)) % 10 === 9).length);
    const got = arrivalsOf(hook, fromArrival).map((a) => a.id);
    t.deepEqual(got, expected, `${hook.path}: every event once, in commit order`);
    const [attempts] = await rows(`select count(*)::int as n, count(distinct event_id)::int as events, bool_and(succeeded) as ok
      from webhook_attempt where subscription_id = $1`, [hook.id]);
    t.deepEqual(attempts, { n: expected.length, events: expected.length, ok: true }, `${hook.path}: one successful attempt per event`);
  }
  for (const service of processes) t.deepEqual(errorLines(service), [], 'no job failed, nothing logged as an error');
  t.deepEqual(await rows(`select task_identifier, last_error from graphile_worker.jobs where last_error is not null`), [], 'no job waits for a retry');
  cursors = await readCursors();
});

test.serial('what is per process: rate limits, sign-in throttles, remembered secrets, request metrics', async (t) => {
  const [a, b] = processes as [ServiceProcess, ServiceProcess];
  // The rate limit counts in each process: past it on one, the other still answers.
  let refused = false;
  for (let i = 0; i < 2 * LIMITED.perMinute + 2 && !refused; i++) refused = (await call(a, 'GET', '/main/v1/administration', undefined, LIMITED)).status === 429;
  t.true(refused, 'the limit holds in the process counting it');
  t.is((await call(b, 'GET', '/main/v1/administration', undefined, LIMITED)).status, 200, 'the other process counts on its own');

  // A revoked credential stops at once in the process that revoked it; another process that
  // remembers its secret answers it until its minute is over.
  for (const service of [a, b]) t.is((await call(service, 'GET', '/main/v1/administration', undefined, REVOKED)).status, 200);
  const revoked = await must(a, 'POST', '/graphql', { query: `mutation { revokeApiCredential(publicId: "${REVOKED.publicId}") { publicId } }` });
  t.is(revoked.data.revokeApiCredential.publicId, REVOKED.publicId);
  t.is((await call(a, 'GET', '/main/v1/administration', undefined, REVOKED)).status, 401);
  t.is((await call(b, 'GET', '/main/v1/administration', undefined, REVOKED)).status, 200, 'remembered by the other process for up to a minute');

  // Failed sign-ins are counted per process: 5 for one public id, then 429 there, not elsewhere.
  const stranger = { publicId: 'scale-stranger', secret: 'not-the-secret-of-anyone' };
  const statuses = [];
  for (let i = 0; i < 6; i++) statuses.push((await call(a, 'GET', '/main/v1/administration', undefined, stranger)).status);
  t.deepEqual(statuses, [401, 401, 401, 401, 401, 429]);
  t.is((await call(b, 'GET', '/main/v1/administration', undefined, stranger)).status, 401, 'the other process has counted none');

  // Request metrics are the process's own; the job queue's are read from the database by each.
  for (let i = 0; i < 3; i++) await must(a, 'GET', '/main/v1/vat-rate');
  const requests = (samples: Awaited<ReturnType<typeof metrics>>) => samples.find((x) => x.name === 'svc_http_requests_total'
    && x.labels.route === '/main/v1/vat-rate' && x.labels.status === '200')?.value ?? 0;
  const [ofA, ofB] = await Promise.all([metrics(a), metrics(b)]);
  t.is(requests(ofA), 3);
  t.is(requests(ofB), 0);
  const queue = (samples: typeof ofA) => JSON.stringify(samples.filter((x) => x.name === 'svc_jobs').map((x) => [x.labels.task, x.labels.state, x.value]).sort());
  // (Scraped a moment apart: a job may come or go in between; again until they agree.)
  await until(async () => queue(await metrics(a)) === queue(await metrics(b)), 'the same job queue from both processes', 10_000);
  t.pass();
});

test.serial('a process killed mid-load: nothing lost, nothing priced twice, a repeated delivery carries the same event id and body', async (t) => {
  t.timeout(180_000);
  const before = [...answers.keys()];
  const fromArrival = receiver.arrivals.length;
  // Deliveries are held in flight; the first one of hook 1 tells which process to kill.
  receiver.hold();
  let live = [...processes];
  let progress = 0;
  const loading = load('two', 120, () => live, (done) => { progress = done; });
  await until(() => arrivalsOf(hooks[0]!, fromArrival).length > 0 && progress >= 20, 'a delivery of hook 1 in flight', 60_000);
  const inFlight = arrivalsOf(hooks[0]!, fromArrival)[0]!;
  const victimPid = processOfLocalPort(inFlight.remotePort, processes.map((p) => p.child.pid!));
  const victim = processes.find((p) => p.child.pid === victimPid);
  if (!victim) throw new Error(`no service process sent the delivery from port ${inFlight.remotePort}`);
  t.log(`killing the process sending event ${inFlight.id} to hook 1, with ${progress} of 120 sessions answered`);
  live = live.filter((p) => p !== victim);
  victim.child.kill('SIGKILL');
  await exited(victim.child);
  const [{ at: killedAtInDb }] = await rows('select now() as at', []);
  receiver.release();
  // The other process takes the rest: the sessions still to come, the killed one's batch in
  // flight (rolled back), its delivery that was never recorded (woken by the next commit).
  const killedAt = Date.now();
  const posted = [...before, ...await loading];
  t.is(progress, 120);

  t.log(`posted after ${Date.now() - killedAt} ms`);
  await until(() => allProcessed(posted.length), 'every session processed', 90_000);
  t.log(`processed after ${Date.now() - killedAt} ms`);
  await assertEachSessionOnce(t, posted, true);

  await until(allDelivered, 'every event delivered to both subscriptions', 90_000);
  t.log(`delivered after ${Date.now() - killedAt} ms`);
  for (const hook of hooks) {
    const expected = await eventsAfter(cursors.get(hook.id)!);
    const got = arrivalsOf(hook, fromArrival);
    const firsts = new Map<string, Arrival>();
    for (const arrival of got) {
      const first = firsts.get(arrival.id);
      if (first) t.is(arrival.raw, first.raw, `${hook.path}: event ${arrival.id} again, the same body`);
      else firsts.set(arrival.id, arrival);
    }
    t.deepEqual([...firsts.keys()], expected, `${hook.path}: every event, first deliveries in commit order`);
    const repeated = got.length - firsts.size;
    t.log(`${hook.path}: ${expected.length} events, ${repeated} delivered again`);
    if (hook === hooks[0]) t.true(got.filter((a) => a.id === inFlight.id).length >= 2, 'the delivery in flight when its process died came again, same event id');
  }
  for (const service of processes) t.deepEqual(errorLines(service), [], 'nothing logged as an error');

  // The job the killed process was running stays locked in graphile-worker's table. Later commits
  // asked for its key again, so graphile-worker marked it as never to run again (attempts at the
  // maximum: svc_jobs counts it as failed) and added a new job, which delivered. (Locked before the
  // kill: a delivery the survivor runs at this moment is locked too, and not spent.)
  const killedJobs = `select j.id, j.attempts = j.max_attempts as spent from graphile_worker._private_jobs j
    join graphile_worker._private_tasks k on k.id = j.task_id
    where k.identifier = 'webhook_deliver' and j.locked_at < $2 and j.payload->>'subscription_id' = $1`;
  const left = await rows(killedJobs, [hooks[0]!.id, killedAtInDb]);
  t.true(left.length >= 1 && left.every((job) => job.spent), JSON.stringify(left));
  const survivor = processes.find((p) => p !== victim)!;
  const failed = async () => (await metrics(survivor)).find((x) => x.name === 'svc_jobs' && x.labels.task === 'webhook_deliver' && x.labels.state === 'failed')?.value ?? 0;
  t.true(await failed() >= 1);
  // Four hours later (the test moves the lock back), the README's statement removes such jobs.
  await db.query(`update graphile_worker._private_jobs set locked_at = locked_at - interval '4 hours 1 minute' where locked_at is not null`);
  await db.query(readmeCleanup());
  t.deepEqual(await rows(killedJobs, [hooks[0]!.id, killedAtInDb]), []);
  t.is(await failed(), 0);
});
