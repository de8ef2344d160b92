// GET /main/health/live and /main/health/ready (decisions: "Running"): no credential, no data;
// readiness turns 503 naming the database when it is stopped (a TCP proxy in front of this test's
// own database stops forwarding and refuses connections) and 200 again once it is back; a worker
// that stopped is named too.
import test from 'ava';
import { startTestApp, type TestApp } from '../../helpers/app.ts';
import { startTcpProxy, type TcpProxy } from '../../helpers/tcp-proxy.ts';

let app: TestApp;
let proxy: TcpProxy;
test.before(async () => {
  app = await startTestApp({
    databaseUrl: async (url) => {
      const target = new URL(url);
      proxy = await startTcpProxy({ host: target.hostname, port: Number(target.port) });
      return proxy.rewrite(url);
    },
  });
});
test.after.always(async () => {
  proxy?.start();
  await app?.close();
  await proxy?.close();
});

async function get(path: string, headers: Record<string, string> = {}) {
  const response = await fetch(`${app.url}${path}`, { headers, signal: AbortSignal.timeout(20_000) });
  return { status: response.status, headers: response.headers, body: await response.json() as Record<string, any> };
}

async function until<T>(what: string, attempt: () => Promise<T | undefined>, seconds = 20): Promise<T> {
  const deadline = Date.now() + seconds * 1000;
  for (;;) {
    const value = await attempt();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`gave up waiting: ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

test.serial('live and ready answer 200 without a credential, with no data but the checks', async (t) => {
  const live = await get('/main/health/live');
  t.is(live.status, 200);
  t.deepEqual(live.body, { status: 'live' });
  t.is(live.headers.get('cache-control'), 'no-store');
  const ready = await get('/main/health/ready');
  t.is(ready.status, 200);
  t.deepEqual(ready.body, { status: 'ready', failing: [], checks: { database: 'ok', migrations: 'ok', worker: 'ok' } });
  // A wrong credential changes nothing: neither looks at it.
  t.is((await get('/main/health/ready', { authorization: 'Basic bm9ib2R5Ondyb25n' })).status, 200);
  const post = await fetch(`${app.url}/main/health/ready`, { method: 'POST' });
  t.is(post.status, 405);
});

test.serial('readiness is 503 naming the database while it is stopped, 200 once it is back; liveness stays 200', async (t) => {
  proxy.stop();
  const down = await until('readiness 503', async () => {
    const answer = await get('/main/health/ready');
    return answer.status === 503 ? answer : undefined;
  });
  t.deepEqual(down.body.failing, ['database', 'migrations']);
  t.is(down.body.status, 'not_ready');
  t.is(down.body.checks.database, 'unreachable');
  t.is(down.body.checks.worker, 'ok');
  t.false(JSON.stringify(down.body).includes('127.0.0.1'), 'no address of the database');
  t.is((await get('/main/health/live')).status, 200);

  proxy.start();
  const back = await until('readiness 200', async () => {
    const answer = await get('/main/health/ready');
    return answer.status === 200 ? answer : undefined;
  });
  t.deepEqual(back.body.failing, []);
});

test.serial('a worker that no longer runs is named', async (t) => {
  await app.stopWorker();
  const answer = await get('/main/health/ready');
  t.is(answer.status, 503);
  t.deepEqual(answer.body.failing, ['worker']);
  t.regex(answer.body.checks.worker, /^not running: /);
});
