// A frozen database (a TCP proxy that stops forwarding, as PostgreSQL under SIGSTOP) never makes a
// request hang: REST and GraphQL answer 503 with Retry-After within the request bound
// (SVC_REQUEST_DB_TIMEOUT_MS), and 200 again once it answers. An embedded PostgreSQL killed under
// the service is started again by its supervisor, with back-off, each restart logged.
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import test from 'ava';
import pg from 'pg';
import { readConfig } from '../../../src/platform/config.ts';
import {
  isDatabaseTimeout, isDatabaseUnavailable, RETRY_AFTER_SECONDS, serviceUnavailableMessage, TIMED_OUT_MESSAGE,
} from '../../../src/platform/database-health.ts';
import { DatabaseWaitExceeded, inRequestWait, requestDatabaseTimeoutMs } from '../../../src/platform/request-database.ts';
import { openOrm, openRequestOrm, type Orm } from '../../../src/platform/orm.ts';
import { ormConfig } from '../../../mikro-orm.config.ts';
import { startService, type RunningService } from '../../../src/service.ts';
import type { TestApp } from '../../helpers/app.ts';
import { freshDatabaseUrl } from '../../helpers/db.ts';
import { createAdministration } from '../../helpers/factories.ts';
import { runCli, tempDataDir } from '../../helpers/process.ts';
import { startTcpProxy } from '../../helpers/tcp-proxy.ts';

const BOUND_MS = 1000;
/** What a loaded 2-core machine may add to the bound before the answer is out. */
const SLACK_MS = 2000;
const credential = { publicId: 'boot', secret: 'boot-secret-123456' };
const auth = { authorization: `Basic ${Buffer.from(`${credential.publicId}:${credential.secret}`).toString('base64')}` };

async function until<T>(what: string, attempt: () => Promise<T | undefined>, seconds = 30): Promise<T> {
  const deadline = Date.now() + seconds * 1000;
  while (Date.now() < deadline) {
    const value = await attempt();
    if (value !== undefined) return value;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`gave up waiting: ${what}`);
}

interface Answer { status: number; retryAfter: string | null; body: any; ms: number }

function client(service: RunningService) {
  const timed = async (path: string, init: RequestInit): Promise<Answer> => {
    const started = performance.now();
    // A hung request fails the test here rather than at ava's timeout.
    const response = await fetch(`${service.url}${path}`, { ...init, signal: AbortSignal.timeout(20_000) });
    const text = await response.text();
    let body: unknown = text;
    try { body = JSON.parse(text); } catch { /* not JSON */ }
    return { status: response.status, retryAfter: response.headers.get('retry-after'), body, ms: performance.now() - started };
  };
  return {
    rest: (path = '/main/v1/customer', init: RequestInit = {}) => timed(path, { ...init, headers: { ...auth, ...(init.headers as Record<string, string>) } }),
    ocpi: () => timed('/ocpi/versions', { headers: { authorization: `Token ${Buffer.from('some-peer-token').toString('base64')}` } }),
    graphql: (query: string, headers: Record<string, string> = auth) => timed('/graphql', {
      method: 'POST', headers: { ...headers, 'content-type': 'application/json' }, body: JSON.stringify({ query }),
    }),
  };
}

test('what answers 503: waits given up on (client or server), unreachable databases; not other database errors', (t) => {
  const coded = (code: string, message: string) => Object.assign(new Error(message), { code });
  const given = new DatabaseWaitExceeded('a statement did not answer', 5000);
  t.true(isDatabaseUnavailable(given));
  t.true(isDatabaseUnavailable(new Error('wrapped', { cause: new Error('Query read timeout') })));
  t.true(isDatabaseTimeout(coded('57014', 'canceling statement due to statement timeout')));
  t.true(isDatabaseTimeout(coded('55P03', 'canceling statement due to lock timeout')));
  t.false(isDatabaseTimeout(coded('57014', 'canceling statement due to user request')), 'a cancel is not the bound');
  t.false(isDatabaseTimeout(coded('55P03', 'could not obtain lock on row in relation "x"')), 'NOWAIT is not the bound');
  // (Messages of errors that report an outage are checked over HTTP below: reporting is process-wide.)
  t.is(serviceUnavailableMessage(coded('55P03', 'canceling statement due to lock timeout')), TIMED_OUT_MESSAGE, 'the server answered: no outage');
  t.is(serviceUnavailableMessage(coded('23505', 'duplicate key')), null);
});

test('SVC_REQUEST_DB_TIMEOUT_MS: 5000 by default, whole milliseconds from 1 to 600000', (t) => {
  t.is(requestDatabaseTimeoutMs({}), 5000);
  t.is(requestDatabaseTimeoutMs({ SVC_REQUEST_DB_TIMEOUT_MS: '250' }), 250);
  for (const bad of ['0', '-1', '1.5', 'abc', '600001']) {
    t.throws(() => requestDatabaseTimeoutMs({ SVC_REQUEST_DB_TIMEOUT_MS: bad }), { message: /SVC_REQUEST_DB_TIMEOUT_MS/ }, bad);
  }
});

test.serial('frozen database: REST and GraphQL answer 503 with Retry-After within the bound, never hang, and 200 once it answers', async (t) => {
  const databaseUrl = await freshDatabaseUrl();
  const target = new URL(databaseUrl);
  const proxy = await startTcpProxy({ host: target.hostname, port: Number(target.port) });
  const dataDir = tempDataDir();
  const lines: string[] = [];
  const service = await startService({
    ...readConfig({ SVC_DEMO: '0', PORT: '0', SVC_DATA_DIR: dataDir, SVC_REQUEST_DB_TIMEOUT_MS: String(BOUND_MS) }),
    databaseUrl: proxy.rewrite(databaseUrl), bootstrapCredential: credential,
  }, (line) => lines.push(line));
  t.teardown(async () => {
    proxy.unfreeze();
    await service.stop();
    await proxy.close();
    rmSync(dataDir, { recursive: true, force: true });
  });
  const { rest, graphql, ocpi } = client(service);
  t.is((await rest()).status, 200);
  t.is((await graphql('{ customers(first: 1) { edges { node { id } } } }')).status, 200);
  t.is((await ocpi()).status, 401, 'an unknown OCPI token');
  lines.length = 0;

  const stderr: string[] = [];
  const write = process.stderr.write;
  process.stderr.write = ((chunk: string) => { stderr.push(String(chunk)); return true; }) as typeof process.stderr.write;
  t.teardown(() => { process.stderr.write = write; });

  proxy.freeze();
  const stranger = { authorization: `Basic ${Buffer.from('someone:else-secret-1234').toString('base64')}` };
  // More requests at once than the request pool holds (20): taking a connection is bounded too.
  for (let round = 0; round < 2; round++) {
    const answers = await Promise.all([
      ...Array.from({ length: 24 }, () => rest()),
      rest('/main/v1/customer', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ admin_id: 'x', name: 'Frozen', country: 'NL', entity_type: 'person' }) }),
      rest('/main/v1/customer', { headers: stranger }),
      graphql('{ customers(first: 1) { edges { node { id } } } }'),
      graphql('mutation { createCustomer(input: { adminId: "x", name: "Frozen", country: "NL", entityType: PERSON }) { id } }'),
      graphql('{ __typename }', stranger),
      ocpi(),
    ]);
    for (const [i, answer] of answers.entries()) {
      t.is(answer.status, 503, `request ${i} of round ${round}: ${JSON.stringify(answer.body)}`);
      t.is(answer.retryAfter, String(RETRY_AFTER_SECONDS));
      t.true(answer.ms < BOUND_MS + SLACK_MS, `request ${i} of round ${round} took ${Math.round(answer.ms)} ms`);
    }
    const restBodies = answers.slice(0, 26).map((a) => a.body.code);
    t.deepEqual([...new Set(restBodies)], ['service_unavailable']);
    for (const answer of answers.slice(26, 29)) t.is(answer.body.errors[0].extensions.code, 'SERVICE_UNAVAILABLE', JSON.stringify(answer.body));
    t.is(answers[29]!.body.status_code, 3000, 'OCPI: server error in the envelope');
  }
  // A GraphQL query whose own time limit runs out while it waits for the database: the database is what was slow.
  process.env.SVC_GRAPHQL_TIME_LIMIT_MS = '300';
  try {
    const limited = await graphql('{ customers(first: 1) { edges { node { id } } } }');
    t.is(limited.status, 503, JSON.stringify(limited.body));
    t.is(limited.retryAfter, String(RETRY_AFTER_SECONDS));
    t.is(limited.body.errors[0].extensions.code, 'SERVICE_UNAVAILABLE');
    t.true(limited.ms < BOUND_MS, `the time limit answered (${Math.round(limited.ms)} ms)`);
  } finally {
    delete process.env.SVC_GRAPHQL_TIME_LIMIT_MS;
  }
  await until('the log says it is gone', async () => (lines.length >= 1 ? true : undefined), 10);
  t.is(lines.length, 1, lines.join('\n'));
  t.regex(lines[0]!, /database unavailable \(.+\): answering 503 until it is back/);

  proxy.unfreeze();
  await until('REST answers 200', async () => ((await rest()).status === 200 ? true : undefined));
  t.is((await graphql('{ customers(first: 1) { edges { node { id } } } }')).status, 200);
  const after = await Promise.all(Array.from({ length: 24 }, () => rest()));
  t.deepEqual([...new Set(after.map((a) => a.status))], [200], 'connections given up on went back to the pool or were replaced');
  await until('the log says it is back', async () => (lines.length === 2 ? true : undefined));
  t.regex(lines[1]!, /database is back \(unavailable for \d+ s\)/);
  t.deepEqual(stderr, [], 'no stack traces, no error per request');
});

test.serial('a lock held longer than the bound: 503 within the bound, the waiting statement given up on the server too, no outage logged', async (t) => {
  const databaseUrl = await freshDatabaseUrl();
  const dataDir = tempDataDir();
  const lines: string[] = [];
  const service = await startService({
    ...readConfig({ SVC_DEMO: '0', PORT: '0', SVC_DATA_DIR: dataDir, SVC_REQUEST_DB_TIMEOUT_MS: String(BOUND_MS) }),
    databaseUrl, bootstrapCredential: credential,
  }, (line) => lines.push(line));
  lines.length = 0; // the start-up phases
  const holder = new pg.Client({ connectionString: databaseUrl });
  await holder.connect();
  t.teardown(async () => {
    await holder.end();
    await service.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });
  const { rest, graphql } = client(service);
  const admin = await createAdministration({ orm: service.orm } as TestApp);
  const created = await rest('/main/v1/customer', {
    method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ admin_id: admin.id, name: 'Locked', country: 'NL', entity_type: 'person' }),
  });
  t.is(created.status, 200, JSON.stringify(created.body));
  const id = created.body.id as string;
  const update = (name: string) => rest(`/main/v1/customer/${id}`, {
    method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ name }),
  });

  await holder.query('begin');
  await holder.query('select 1 from customer where id = $1 for update', [id]);
  const waiting = async () => Number((await holder.query(
    "select count(*) from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock'")).rows[0].count);
  const answers = await Promise.all([
    update('Changed'),
    graphql(`mutation { updateCustomer(id: "${id}", input: { name: "Changed" }) { id } }`),
  ]);
  for (const answer of answers) {
    t.is(answer.status, 503, JSON.stringify(answer.body));
    t.is(answer.retryAfter, String(RETRY_AFTER_SECONDS));
    t.true(answer.ms < BOUND_MS + SLACK_MS, `took ${Math.round(answer.ms)} ms`);
  }
  t.deepEqual(answers[0]!.body, { code: 'service_unavailable', message: 'the database did not answer in time; retry later' });
  t.is(answers[1]!.body.errors[0].extensions.code, 'SERVICE_UNAVAILABLE');
  await until('no statement waits for the lock any more', async () => ((await waiting()) === 0 ? true : undefined), 10);
  await new Promise((resolve) => setTimeout(resolve, BOUND_MS + 500));
  t.deepEqual(lines, [], 'the database answered a probe: no outage is logged');

  await holder.query('rollback');
  const changed = await update('Changed');
  t.is(changed.status, 200, JSON.stringify(changed.body));
  t.is(changed.body.name, 'Changed');
});

async function nativePool(orm: Orm): Promise<pg.Pool> {
  return (orm.em.getConnection() as unknown as { getNativeClient(): Promise<pg.Pool> }).getNativeClient();
}

const hung = (ms: number) => new Promise<'hung'>((resolve) => setTimeout(() => resolve('hung'), ms));

test.serial('request connections given up on (at begin, taking one, in a statement) are dropped or go back, never leak from the pool', async (t) => {
  const databaseUrl = await freshDatabaseUrl();
  const target = new URL(databaseUrl);
  const proxy = await startTcpProxy({ host: target.hostname, port: Number(target.port) });
  const orm = await openRequestOrm(ormConfig(proxy.rewrite(databaseUrl), { poolMax: 2 }), 500);
  t.teardown(async () => { proxy.unfreeze(); await proxy.close(); });
  const transaction = () => inRequestWait(() => orm.em.fork().transactional((tx) => tx.execute('select 1 as n')));
  await Promise.all([transaction(), transaction()]);
  const pool = await nativePool(orm);
  t.is(pool.idleCount, 2);

  proxy.freeze();
  // Twice the pool: begins on the idle connections time out, then taking a new one does.
  for (let i = 0; i < 4; i++) {
    const started = performance.now();
    const error = await t.throwsAsync(transaction());
    t.true(isDatabaseUnavailable(error), String(error));
    t.true(performance.now() - started < 500 + SLACK_MS);
  }
  proxy.unfreeze();
  await until('both connections usable again', async () => {
    try {
      await Promise.all([transaction(), transaction()]);
      return true;
    } catch {
      return undefined;
    }
  }, 10);
  t.not(await Promise.race([orm.close().then(() => 'closed'), hung(5000)]), 'hung', 'no connection is still checked out');
});

test.serial('the unbounded ORM of the worker and the CLI: a begin cut by the database going away does not leak its connection', async (t) => {
  const databaseUrl = await freshDatabaseUrl();
  const target = new URL(databaseUrl);
  const proxy = await startTcpProxy({ host: target.hostname, port: Number(target.port) });
  const orm = await openOrm(ormConfig(proxy.rewrite(databaseUrl), { poolMax: 1 }));
  t.teardown(async () => { proxy.unfreeze(); await proxy.close(); });
  await orm.em.fork().execute('select 1');
  proxy.freeze();
  const cut = orm.em.fork().transactional((tx) => tx.execute('select 1 as n'));
  await new Promise((resolve) => setTimeout(resolve, 200));
  proxy.cutAll();
  proxy.unfreeze();
  const error = await t.throwsAsync(cut);
  t.true(isDatabaseUnavailable(error), String(error));
  // One connection in the pool: had the cut one stayed checked out, this would wait for ever.
  const again = await Promise.race([orm.em.fork().transactional((tx) => tx.execute<{ n: number }[]>('select 1 as n')), hung(5000)]);
  t.not(again, 'hung');
  t.not(await Promise.race([orm.close().then(() => 'closed'), hung(5000)]), 'hung');
});

function postmasterPid(dataDir: string): number {
  const location = join(dataDir, 'pg-location.txt');
  const clusterDir = existsSync(location) ? readFileSync(location, 'utf8').trim() : join(dataDir, 'pg');
  return Number(readFileSync(join(clusterDir, 'postmaster.pid'), 'utf8').split('\n')[0]);
}

function alive(pid: number): boolean {
  try { process.kill(pid, 0); return true; } catch { return false; }
}

test.serial('embedded PostgreSQL killed: the supervisor starts it again (back-off), logs each restart, and requests are served again', async (t) => {
  const dataDir = tempDataDir();
  const lines: string[] = [];
  const service = await startService({
    ...readConfig({ SVC_DEMO: '0', PORT: '0', SVC_DATA_DIR: dataDir }), bootstrapCredential: credential,
  }, (line) => lines.push(line));
  let stopped = false;
  t.teardown(async () => {
    if (!stopped) await service.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });
  t.true(service.database.embedded);
  // Little for crash recovery to redo (the migrations just wrote the schema): a restart takes a second, not several.
  const superuser = new pg.Client({ connectionString: service.database.url });
  await superuser.connect();
  await superuser.query('checkpoint');
  await superuser.end();
  const t0 = Date.now();
  const { rest, graphql } = client(service);
  t.is((await rest()).status, 200);

  for (const [kill, delay] of [[1, 1], [2, 2]] as const) {
    const pid = postmasterPid(dataDir);
    lines.length = 0;
    process.kill(pid, 'SIGKILL');
    // A CLI command run meanwhile waits for the service's postmaster and joins it (it starts none of its own).
    const cli = kill === 1 ? runCli(['migrate'], { SVC_DATA_DIR: dataDir }) : null;
    await until('the postmaster is gone', async () => (alive(pid) ? undefined : true));
    const down = await rest();
    t.is(down.status, 503, `kill ${kill}: ${JSON.stringify(down.body)}`);
    t.is(down.retryAfter, String(RETRY_AFTER_SECONDS));
    t.log(`kill ${kill}: 503 after ${Date.now() - t0} ms`);
    await until(`REST answers 200 after kill ${kill}`, async () => ((await rest()).status === 200 ? true : undefined));
    t.is((await graphql('{ customers(first: 1) { edges { node { id } } } }')).status, 200);
    t.log(`kill ${kill}: 200 after ${Date.now() - t0} ms`);
    const restarted = postmasterPid(dataDir);
    t.not(restarted, pid);
    t.true(alive(restarted));
    if (cli) {
      const ran = await cli;
      t.is(ran.code, 0, ran.stderr);
      t.regex(ran.stdout, /migrations applied/);
      t.is(postmasterPid(dataDir), restarted, 'the CLI joined the restarted postmaster');
      t.true(alive(restarted));
      t.is((await rest()).status, 200);
    }
    const log = lines.join('\n');
    t.regex(log, new RegExp(`embedded PostgreSQL \\(pid ${pid}\\) exited \\(SIGKILL\\): starting it again in ${delay} s`));
    t.regex(log, new RegExp(`embedded PostgreSQL started again \\(pid ${restarted}, restart ${kill}\\)`));
  }

  const last = postmasterPid(dataDir);
  await service.stop();
  stopped = true;
  t.false(alive(last), 'stopping the service stops the restarted postmaster');
});
