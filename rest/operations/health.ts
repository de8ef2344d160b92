// GET /main/health/live and /main/health/ready (decisions: "Running"): no credential, no data.
// Live answers 200 while the process serves HTTP. Ready answers 200 when the database answers,
// every migration of this release is applied and the worker runs; else 503 naming what fails:
//   {"status": "not_ready", "failing": ["database"], "checks": {"database": "unreachable", ...}}
import type Router from '@koa/router';
import type { Context } from 'koa';
import { migrations } from '../../src/migrations/index.ts';
import { isDatabaseUnavailable } from '../../src/platform/database-health.ts';
import { DomainError } from '../../src/platform/errors.ts';
import type { Orm } from '../../src/platform/orm.ts';
import type { WorkerState } from '../../src/worker/worker.ts';

export const HEALTH_LIVE = '/main/health/live';
export const HEALTH_READY = '/main/health/ready';

/** How long readiness waits for the database before it says it did not answer. */
const DATABASE_CHECK_MS = 2000;

export interface HealthOptions {
  /** The ORM of requests: readiness asks the database what a request would. */
  orm: Orm;
  /** The worker of this process (absent: no worker runs here, which is not ready). */
  worker?: () => WorkerState;
}

const OK = 'ok';

function within<T>(ms: number, work: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_resolve, reject) => { timer = setTimeout(() => reject(new Error('late')), ms); });
  return Promise.race([work, late]).finally(() => clearTimeout(timer));
}

/** The checks by name: `ok`, or what fails in a few words (never a host, a message of the database or data). */
export async function readiness(options: HealthOptions): Promise<Record<string, string>> {
  const checks: Record<string, string> = {};
  let executed: Set<string> | null = null;
  try {
    const rows = await within(DATABASE_CHECK_MS, options.orm.em.getConnection().execute<{ name: string }[]>('select name from mikro_orm_migrations'));
    executed = new Set(rows.map((row) => row.name));
    checks.database = OK;
  } catch (error) {
    const late = (error as Error).message === 'late';
    checks.database = late ? `did not answer within ${DATABASE_CHECK_MS / 1000} s` : isDatabaseUnavailable(error) ? 'unreachable' : 'failing';
  }
  if (executed) {
    const pending = migrations.filter((migration) => !executed.has(migration.name)).length;
    checks.migrations = pending === 0 ? OK : `${pending} of ${migrations.length} not applied`;
  } else {
    checks.migrations = 'unknown: the database does not answer';
  }
  const worker = options.worker?.() ?? { running: false, reason: 'no worker runs in this process' };
  checks.worker = worker.running ? OK : `not running: ${worker.reason ?? 'stopped'}`;
  return checks;
}

export function healthRoutes(router: Router, options: HealthOptions): void {
  router.get(HEALTH_LIVE, (ctx: Context) => {
    ctx.set('Cache-Control', 'no-store');
    ctx.body = { status: 'live' };
  });
  router.get(HEALTH_READY, async (ctx: Context) => {
    const checks = await readiness(options);
    const failing = Object.keys(checks).filter((name) => checks[name] !== OK);
    ctx.set('Cache-Control', 'no-store');
    ctx.status = failing.length ? 503 : 200;
    ctx.body = failing.length ? { status: 'not_ready', failing, checks } : { status: 'ready', failing, checks };
  });
  for (const path of [HEALTH_LIVE, HEALTH_READY]) {
    router.all(path, (ctx: Context) => {
      ctx.set('Allow', 'GET, HEAD');
      throw new DomainError('method_not_allowed', `${ctx.method} is not allowed here; use GET, HEAD`);
    });
  }
}
