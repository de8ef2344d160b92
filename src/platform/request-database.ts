// Requests wait a bounded time for the database (decisions: "Running the service"): at most
// SVC_REQUEST_DB_TIMEOUT_MS (5 s) in all, taking connections and running statements, lock waits
// included. The bound is enforced on the client (a frozen server enforces nothing) and on the
// server (statement_timeout, lock_timeout: a statement given up on releases its locks). Only the
// ORM of HTTP requests (`openRequestOrm`) is bound; the worker, the CLI, migrations and start-up
// work use unbounded connections of their own.
import { AsyncLocalStorage } from 'node:async_hooks';
import pg from 'pg';
import { pgClientClass, type StatementBound } from './pg-client.ts';
import { refuseConnectionsAfterEnd, type ClosablePool } from './pool-closing.ts';
import { StartupError } from './startup-error.ts';

export const DEFAULT_REQUEST_DB_TIMEOUT_MS = 5000;
const MAX_REQUEST_DB_TIMEOUT_MS = 600_000;

/** SVC_REQUEST_DB_TIMEOUT_MS: whole milliseconds, 1 to 600,000 (default 5,000). */
export function requestDatabaseTimeoutMs(env: NodeJS.ProcessEnv = process.env): number {
  const raw = env.SVC_REQUEST_DB_TIMEOUT_MS;
  if (raw === undefined || raw === '') return DEFAULT_REQUEST_DB_TIMEOUT_MS;
  const ms = /^\d{1,7}$/.test(raw) ? Number(raw) : NaN;
  if (!(ms >= 1 && ms <= MAX_REQUEST_DB_TIMEOUT_MS)) {
    throw new StartupError(`SVC_REQUEST_DB_TIMEOUT_MS must be whole milliseconds from 1 to ${MAX_REQUEST_DB_TIMEOUT_MS}: ${raw}`);
  }
  return ms;
}

/** A request gave up waiting for the database (a connection or a statement): 503 with Retry-After. */
export class DatabaseWaitExceeded extends Error {
  readonly code = 'SVC_DB_WAIT_EXCEEDED';
  constructor(what: string, boundMs: number) {
    super(`${what}: the request waited ${boundMs} ms for the database`);
    this.name = 'DatabaseWaitExceeded';
  }
}

/**
 * The database wait of one request: the time during which at least one of its connection waits
 * or statements was outstanding (overlapping ones count once).
 */
class RequestWait {
  /** Answered: work the request left behind (a job kick, the health probe it started) is bounded per statement only. */
  done = false;
  private usedMs = 0;
  private outstanding = 0;
  private since = 0;

  begin(): void {
    if (this.outstanding++ === 0) this.since = performance.now();
  }

  end(): void {
    if (--this.outstanding === 0) this.usedMs += performance.now() - this.since;
  }

  get waiting(): boolean {
    return this.outstanding > 0;
  }

  used(): number {
    return this.usedMs + (this.outstanding > 0 ? performance.now() - this.since : 0);
  }
}

const waits = new AsyncLocalStorage<RequestWait>();

/** Runs a request (the app's first middleware): its database waits count against one bound. */
export async function inRequestWait<T>(handle: () => Promise<T>): Promise<T> {
  const wait = new RequestWait();
  return waits.run(wait, async () => {
    try {
      return await handle();
    } finally {
      wait.done = true;
    }
  });
}

/** Whether the current request is waiting for the database right now (a GraphQL time limit hit while it does is a 503). */
export function waitingForDatabase(): boolean {
  return waits.getStore()?.waiting ?? false;
}

/** Runs `fn` outside any request: its statements are bounded per statement only (the health probe). */
export function outsideRequest<T>(fn: () => T): T {
  return waits.exit(fn);
}

/** What is left of the bound for the current request (the whole bound outside a request). */
function remainingMs(boundMs: number): number {
  const wait = waits.getStore();
  return wait && !wait.done ? Math.floor(boundMs - wait.used()) : boundMs;
}

/** `work` counted as database wait of the current request, rejected past `ms` (after `onTimeout`). */
async function bounded<T>(work: () => Promise<T>, ms: number, exceeded: () => Error, onTimeout: () => void): Promise<T> {
  if (ms <= 0) throw exceeded();
  const wait = waits.getStore();
  wait?.begin();
  let timer: NodeJS.Timeout | undefined;
  try {
    const running = work();
    return await Promise.race([
      running,
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => {
          running.catch(() => {});
          onTimeout();
          reject(exceeded());
        }, ms);
      }),
    ]);
  } finally {
    clearTimeout(timer);
    wait?.end();
  }
}

/** Statements of request connections: what is left of the request's bound each (pg-client.ts cuts a connection given up on). */
function statementBound(boundMs: number): StatementBound {
  const exceeded = () => new DatabaseWaitExceeded('a statement did not answer', boundMs);
  return {
    remaining: () => remainingMs(boundMs),
    run: (work, ms, onTimeout) => bounded(work, ms, exceeded, onTimeout),
    exceeded,
  };
}

/** Taking a connection is bounded by what is left of the request's wait; one that comes too late goes back to the pool. */
function boundAcquire(pool: ClosablePool, boundMs: number): void {
  const connect = pool.connect.bind(pool);
  const exceeded = () => new DatabaseWaitExceeded('no database connection', boundMs);
  pool.connect = ((callback?: unknown) => {
    if (callback !== undefined) return connect(callback);
    let attempt: Promise<pg.PoolClient> | undefined;
    return bounded(() => (attempt = connect() as Promise<pg.PoolClient>), remainingMs(boundMs), exceeded, () => {
      attempt?.then((client) => client.release(), () => {});
    });
  }) as ClosablePool['connect'];
}

/**
 * pg pool options (MikroORM `driverOptions`) for connections of HTTP requests: every wait is
 * bounded on the client, statements and lock waits on the server too, and a server whose client
 * is gone (a connection cut after a timeout) notices within a second.
 */
export function requestPoolOptions(boundMs: number): Record<string, unknown> {
  return {
    Client: pgClientClass(statementBound(boundMs)),
    connectionTimeoutMillis: boundMs,
    query_timeout: boundMs,
    statement_timeout: boundMs,
    lock_timeout: boundMs,
    options: '-c client_connection_check_interval=1000',
    onPoolCreated: (pool: ClosablePool) => {
      refuseConnectionsAfterEnd(pool);
      boundAcquire(pool, boundMs);
    },
  };
}
