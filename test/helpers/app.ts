import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { createApp } from '../../rest/app.ts';
import type { Authenticator } from '../../src/access/authenticate.service.ts';
import { saveCredential } from '../../src/credentials/save-credential.service.ts';
import type { Role } from '../../src/access/credential.entity.ts';
import { openOrm, openRequestOrm, type Orm } from '../../src/platform/orm.ts';
import { ormConfig } from '../../mikro-orm.config.ts';
import { scopedEm } from '../../src/access/admin-scope.ts';
import { requestDatabaseTimeoutMs } from '../../src/platform/request-database.ts';
import { runWorker, type RunningWorker } from '../../src/worker/worker.ts';
import { freshDatabaseUrl } from './db.ts';
import { openApiCheck } from './openapi-check.ts';
import pg from 'pg';
import { registerSecret, registerSecretsIn, scan, scanEvents, takeLeaks, watchOutput } from './secret-scan.ts';

export interface Response<T = any> {
  status: number;
  body: T;
  headers: Headers;
}

export interface Auth { publicId: string; secret: string }

export interface TestApp {
  url: string;
  /** The app's own database (for CLI commands against it). */
  databaseUrl: string;
  /** Stops the worker (a restart of the queue: start another with startWorker). */
  stopWorker(): Promise<void>;
  orm: Orm;
  admin: Auth;
  request<T = any>(method: string, path: string, options?: { body?: unknown; raw?: string | Buffer; auth?: Auth | null; headers?: Record<string, string> }): Promise<Response<T>>;
  credential(options: { role?: Role; adminIds?: string[]; rateLimitPerMinute?: number; siteId?: string }): Promise<Auth>;
  close(): Promise<void>;
}

let counter = 0;

/** The worker (src/worker/worker.ts runWorker) on the event loop of this process, with its own ORM. */
async function inProcessWorker(databaseUrl: string): Promise<RunningWorker> {
  const orm = await openOrm(ormConfig(databaseUrl, { poolMax: 4 }));
  // Billing periods start when a test says, at the date it says (startCurrentPeriods), not at minute 5 of the real hour.
  const running = await runWorker(orm, databaseUrl, { clockJobs: false });
  return {
    state: () => running.state(),
    async stop() {
      await running.stop();
      await orm.close();
    },
  };
}

export interface TestAppOptions {
  /** An authenticator of the test's own (throttle limits, a counted secret check). */
  authenticator?: (orm: Orm) => Authenticator;
  /** The URL the app and its worker use for the test's database (a TCP proxy in front of it). */
  databaseUrl?: (url: string) => string | Promise<string>;
  /** The bound of the requests' database waits (default: SVC_REQUEST_DB_TIMEOUT_MS, as the service). */
  requestDatabaseTimeoutMs?: number;
}

/** The real app on a real PostgreSQL (a database of its own), listening on a free port. */
export async function startTestApp(options: TestAppOptions = {}): Promise<TestApp> {
  const ownUrl = await freshDatabaseUrl();
  const databaseUrl = options.databaseUrl ? await options.databaseUrl(ownUrl) : ownUrl;
  const unwatch = watchOutput();
  const orm = await openOrm(ormConfig(databaseUrl, { poolMax: 5 }));
  // The app's requests use a bounded pool of their own, as the service's do; the test's own setup uses `orm`.
  // One logger for both: test/helpers/sql-count.ts counts the statements of requests on `orm`.
  const requestOrm = await openRequestOrm(ormConfig(databaseUrl, { poolMax: 5 }), options.requestDatabaseTimeoutMs ?? requestDatabaseTimeoutMs(), { logger: orm.config.getLogger() });
  let worker: RunningWorker | null = null;
  const stopWorker = async () => { await worker?.stop(); worker = null; };
  const app = createApp(requestOrm, {
    authenticator: options.authenticator?.(requestOrm),
    worker: () => worker?.state() ?? { running: false, reason: 'stopped by the test' },
  });
  // The worker's jobs run in this process, on an ORM of their own as in the service's worker thread
  // (src/worker/worker-thread.ts), after createApp registered what they render and bill with: a
  // thread loads every module a second time (half a second of CPU per test file). startWorker, the
  // thread itself, is what the tests that restart the worker start, and `npm start` runs.
  worker = await inProcessWorker(databaseUrl);
  const server: Server = await new Promise((resolve) => { const s = app.listen(0, '127.0.0.1', () => resolve(s)); });
  // The test's fetch keeps connections for 4 s; a server closing its idle ones at Node's 5 s raced with their
  // reuse when a loaded machine held the test's event loop up ('fetch failed'): the client closes them first.
  server.keepAliveTimeout = 60_000;
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  async function credential(options: { role?: Role; adminIds?: string[]; rateLimitPerMinute?: number; siteId?: string }): Promise<Auth> {
    const auth = { publicId: `test-${process.pid}-${++counter}`, secret: 'secret-secret-secret' };
    registerSecret(auth.secret);
    await saveCredential(scopedEm(orm), { ...auth, ...options });
    return auth;
  }
  const admin = await credential({ role: 'admin' });
  // Every /main/v1 answer is checked against the served document (test/helpers/openapi-check.ts).
  const openApi = openApiCheck(await (await fetch(`${url}/main/v1/openapi.json`)).json());

  async function request(method: string, path: string, options: { body?: unknown; raw?: string | Buffer; auth?: Auth | null; headers?: Record<string, string> } = {}) {
    const auth = options.auth === undefined ? admin : options.auth;
    const headers: Record<string, string> = { ...options.headers };
    if (auth) headers.authorization = `Basic ${Buffer.from(`${auth.publicId}:${auth.secret}`).toString('base64')}`;
    let body: string | Buffer | undefined = options.raw;
    if (options.body !== undefined) body = JSON.stringify(options.body);
    registerSecretsIn(options.body);
    if (body !== undefined && !headers['content-type']) headers['content-type'] = 'application/json';
    const response = await fetch(`${url}${path}`, { method, headers, body: typeof body === 'string' || body === undefined ? body : new Uint8Array(body) });
    const bytes = Buffer.from(await response.arrayBuffer());
    const text = bytes.toString('utf8');
    // Documents come back as bytes; everything else as parsed JSON, or text.
    let parsed: unknown = response.headers.get('content-type')?.startsWith('application/pdf') ? bytes : text;
    if (parsed === text) try { parsed = text ? JSON.parse(text) : undefined; } catch { /* not JSON */ }
    openApi.check(method, path, response.status, parsed, response.headers.get('content-type'));
    if (!response.headers.get('content-type')?.startsWith('application/pdf')) scan(`${method} ${path} answered`, text);
    return { status: response.status, body: parsed as any, headers: response.headers };
  }

  return {
    url, databaseUrl: ownUrl, orm, admin, request, credential, stopWorker,
    async close() {
      await new Promise<void>((resolve) => { server.close(() => resolve()); server.closeAllConnections(); });
      await stopWorker();
      await requestOrm.close();
      await orm.close();
      // No secret and no ciphertext in any answer, log line or event of this app (secret-scan.ts).
      const client = new pg.Client({ connectionString: ownUrl });
      await client.connect();
      try { await scanEvents(client); } finally { await client.end(); }
      unwatch();
      const leaks = takeLeaks();
      if (leaks.length) throw new Error(`secrets leaked: ${leaks.slice(0, 10).join('; ')}`);
    },
  };
}
