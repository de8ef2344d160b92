import type { Server } from 'node:http';
import pg from 'pg';
import { createApp } from '../rest/app.ts';
import { loadGraphql } from '../schema/http-on-demand.ts';
import { registerRestEventRenderers } from '../rest/events/event-renderers.ts';
import { registerItemSources } from './item-sources.ts';
import { checkCredentialInput, ensureCredential } from './credentials/save-credential.service.ts';
import { isLoopbackHost, type Config } from './platform/config.ts';
import { databaseHealth } from './platform/database-health.ts';
import { openDatabase, type Database } from './platform/database.ts';
import { checkListenable, closeGracefully, listen } from './platform/http-server.ts';
import { DomainError } from './platform/errors.ts';
import { logger } from './platform/log.ts';
import { migrate, openOrm, openRequestOrm, type Orm } from './platform/orm.ts';
import { migrations } from './migrations/index.ts';
import { stopScriptThread } from './pricing/script/run-rule-script.ts';
import { serviceMetrics } from './service-metrics.ts';
import { ormConfig } from '../mikro-orm.config.ts';
import { scopedEm } from './access/admin-scope.ts';
import { StartupError } from './platform/startup-error.ts';
import { withStartupLock } from './platform/startup-lock.ts';
import { migrateJobQueue, startWorker, type RunningWorker } from './worker/worker.ts';

export interface RunningService {
  url: string;
  port: number;
  /** Start-up work and tools: unbounded. */
  orm: Orm;
  /** What HTTP requests use: every wait bounded (SVC_REQUEST_DB_TIMEOUT_MS). */
  requestOrm: Orm;
  database: Database;
  /** In order: stop accepting, finish the requests in flight, stop the worker, close the pool, stop postgres. */
  stop(): Promise<void>;
}

function publicDemoError(host: string, reason: string): StartupError {
  return new StartupError(`HOST=${host} is not a loopback address and ${reason}: the published demo credential must not be reachable `
    + 'from other machines. Start with SVC_DEMO=0 and give the demo credential another secret '
    + '(npm run cli -- credential create --public-id demo --secret <new secret>), or leave HOST unset (127.0.0.1).');
}

function urlFor(host: string, port: number): string {
  const name = isLoopbackHost(host) || host === '0.0.0.0' || host === '::' ? 'localhost' : host.includes(':') ? `[${host}]` : host;
  return `http://${name}:${port}`;
}

/** Where the service logs: a line, and whether it is a warning (a restart, an outage). */
export type ServiceLog = (line: string, level?: 'info' | 'warn') => void;

const toLogger: ServiceLog = (line, level = 'info') => logger()[level](line);

/** An external database as the log names it: host, port and database, never the user or password. */
function describeUrl(url: string): string {
  try {
    const parsed = new URL(url);
    return `${parsed.hostname}${parsed.port ? `:${parsed.port}` : ''}${parsed.pathname}`;
  } catch {
    return 'DATABASE_URL';
  }
}

/** SVC_BOOTSTRAP_CREDENTIAL as a credential takes it (public id, secret's length): one line naming it, never the secret. */
function checkBootstrapCredential(credential: NonNullable<Config['bootstrapCredential']>): void {
  try {
    checkCredentialInput(credential);
  } catch (error) {
    if (error instanceof DomainError) throw new StartupError(`SVC_BOOTSTRAP_CREDENTIAL: ${error.message}`);
    throw error;
  }
}

/** An external database that refuses or cannot be reached: one line naming DATABASE_URL, never its password. */
async function checkReachable(url: string): Promise<void> {
  let client: pg.Client | undefined;
  try {
    client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 30_000 });
    client.on('error', () => {});
    await client.connect();
  } catch (error) {
    // pg's messages do not hold the password; should one ever, it is not printed (as written or decoded).
    const password = URL.canParse(url) ? new URL(url).password : '';
    let decoded = password;
    try { decoded = decodeURIComponent(password); } catch { /* as written */ }
    let reason = (error as Error).message || 'no answer';
    for (const form of [password, decoded].filter(Boolean)) reason = reason.replaceAll(form, '***');
    throw new StartupError(`DATABASE_URL: cannot connect to ${describeUrl(url)}: ${reason}`);
  } finally {
    await client?.end().catch(() => {});
  }
}

/** The start line of the bootstrap credential (never a secret). */
const BOOTSTRAP_SAID = {
  created: 'created (admin, every administration)',
  active: 'exists, left as it is',
  changed: 'exists with another secret than SVC_BOOTSTRAP_CREDENTIAL\'s, left as it is (change it: npm run cli -- credential create)',
  revoked: 'revoked, left so (SVC_BOOTSTRAP_CREDENTIAL does not restore it)',
  missing: 'missing',
} as const;

/**
 * Database (embedded or DATABASE_URL), migrations, bootstrap credential, worker, HTTP server. Each
 * phase is a line of `log` (the service's logger by default).
 */
export async function startService(config: Config, log: ServiceLog = toLogger): Promise<RunningService> {
  if (config.bootstrapCredential) checkBootstrapCredential(config.bootstrapCredential);
  const publicHost = !isLoopbackHost(config.host);
  if (publicHost && config.demo) throw publicDemoError(config.host, 'the demo instance is on (SVC_DEMO=1)');
  await checkListenable(config.port, config.host);
  registerRestEventRenderers();
  registerItemSources();
  if (config.databaseUrl) log(`database: DATABASE_URL (${describeUrl(config.databaseUrl)})`);
  // Detached: the service stops postgres itself, after its own clients (see RunningService.stop).
  // Supervised: an embedded PostgreSQL that dies is started again (each death and restart a warning).
  const database = await openDatabase({
    databaseUrl: config.databaseUrl, dataDir: config.dataDir, detached: true, progress: (line) => log(line), supervise: (line) => log(line, 'warn'),
  });
  let orm: Orm | undefined;
  let requestOrm: Orm | undefined;
  let server: Server | undefined;
  let worker: RunningWorker | undefined;
  let unwatch = () => {};
  try {
    if (!database.embedded) await checkReachable(database.url);
    orm = await openOrm(ormConfig(database.url, { poolMax: 4 }));
    // Requests have a pool of their own whose waits are bounded; the probe is bounded the same way.
    requestOrm = await openRequestOrm(ormConfig(database.url), config.requestDatabaseTimeoutMs);
    const probing = requestOrm;
    unwatch = databaseHealth.watch({ probe: () => probing.em.getConnection().execute('select 1'), log });
    const migrating = orm;
    // One process at a time (others starting against the same database wait): src/platform/startup-lock.ts.
    await withStartupLock(database.url, async () => {
      const applied = await migrate(migrating, (done, total, name) => log(`migrations: ${done} of ${total} applied (${name})`));
      log(applied.length ? `migrations: ${applied.length} applied, ${migrations.length} in all` : `migrations: up to date (${migrations.length})`);
      await migrateJobQueue(database.url);
      if (config.bootstrapCredential) {
        // Created when absent; one the operator revoked, re-scoped or gave another secret stays so.
        const state = await ensureCredential(scopedEm(migrating), { ...config.bootstrapCredential, role: 'admin' });
        log(`bootstrap credential ${config.bootstrapCredential.publicId}: ${BOOTSTRAP_SAID[state]}`, state === 'revoked' || state === 'changed' ? 'warn' : 'info');
      }
      if (config.demo) {
        const { ensureDemoInstance } = await import('./demo/demo-instance.ts');
        await ensureDemoInstance(migrating, log);
      }
    });
    if (publicHost) {
      const { demoCredentialActive } = await import('./demo/demo-instance.ts');
      if (await demoCredentialActive(orm)) throw publicDemoError(config.host, 'the demo credential of an earlier demo instance is active');
    }
    worker = await startWorker(orm, database.url);
    log(database.joinedService
      ? `worker: started beside the worker of the service (pid ${database.joinedService}) that runs this database: both take jobs from the one queue`
      : 'worker: started (session processing, billing, webhook deliveries)');
    const started = worker;
    // GraphQL loads at its first request otherwise: the service is ready for the console when it listens.
    await loadGraphql();
    const app = createApp(requestOrm, { worker: () => started.state(), metrics: serviceMetrics(requestOrm, { service: orm }) });
    server = await listen(app, config.port, config.host);
  } catch (error) {
    await worker?.stop();
    unwatch();
    await requestOrm?.close();
    await orm?.close();
    await database.stop();
    throw error;
  }
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : config.port;
  const running = orm;
  const serving = requestOrm;
  const listening = server;
  const working = worker;
  return {
    url: urlFor(config.host, port),
    port,
    orm: running,
    requestOrm: serving,
    database,
    async stop() {
      await closeGracefully(listening);
      await working.stop();
      await stopScriptThread();
      unwatch();
      await serving.close();
      await running.close();
      await database.stop();
    },
  };
}
