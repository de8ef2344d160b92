// A database that cannot be reached (stopped, restarting, unreachable, pool exhausted) is one
// condition of the service, not an error of each request: requests answer 503 with Retry-After,
// and the log gets one line when the database goes away and one when it is back.
import { setTimeout as sleep } from 'node:timers/promises';
import { logger } from './log.ts';
import { outsideRequest } from './request-database.ts';

export const RETRY_AFTER_SECONDS = 5;
const PROBE_INTERVAL_MS = 1000;

// 08xxx connection exceptions, 57P01-57P03 shutdown / crash / starting up, 53300 too many connections.
const SQLSTATES = /^(08[0-9A-Z]{3}|57P0[123]|53300)$/;
const NETWORK_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ECONNABORTED', 'EPIPE', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'ENOTFOUND', 'EAI_AGAIN',
  // A request's wait for the database given up on (request-database.ts): the server did not answer in time.
  'SVC_DB_WAIT_EXCEEDED']);
// pg and pg-pool report some of these without a code.
const MESSAGES = /Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error|terminating connection due to administrator command|the database system is (starting up|shutting down|in recovery mode)|Query read timeout/i;
// The server gave up on a request's statement or lock wait (statement_timeout, lock_timeout of request connections).
const SERVER_TIMEOUTS: Record<string, RegExp> = { '57014': /statement timeout/i, '55P03': /lock timeout/i };

function someError(error: unknown, test: (fields: Record<string, unknown>) => boolean, depth = 0): boolean {
  if (!error || typeof error !== 'object' || depth > 5) return false;
  const fields = error as Record<string, unknown>;
  if (test(fields)) return true;
  const { cause, originalError, errors } = fields;
  const wrapped = [cause, originalError, ...(Array.isArray(errors) ? errors : [])];
  return wrapped.some((inner) => someError(inner, test, depth + 1));
}

/** Whether an error (or one it wraps: cause, originalError, AggregateError) says the database cannot be reached or did not answer in time. */
export function isDatabaseUnavailable(error: unknown): boolean {
  return someError(error, ({ code, message }) => (typeof code === 'string' && (NETWORK_CODES.has(code) || SQLSTATES.test(code)))
    || (typeof message === 'string' && MESSAGES.test(message)));
}

/** Whether the server stopped a statement of a request at its bound (statement or lock timeout): it answers, but too slowly. */
export function isDatabaseTimeout(error: unknown): boolean {
  return someError(error, ({ code, message }) => typeof code === 'string' && typeof message === 'string' && SERVER_TIMEOUTS[code]?.test(message) === true);
}

// 40001 serialization failure, 40P01 deadlock, 55P03 lock not available, 53xxx insufficient resources.
const RETRYABLE_SQLSTATES = /^(40001|40P01|55P03|53[0-9A-Z]{3})$/;

/** The SQLSTATE of a database error (or of one it wraps), when it has one. */
export function sqlStateOf(error: unknown): string | undefined {
  let found: string | undefined;
  someError(error, ({ code, sqlState }) => {
    const state = typeof sqlState === 'string' ? sqlState : code;
    if (typeof state === 'string' && /^[0-9A-Z]{5}$/.test(state)) found = state;
    return found !== undefined;
  });
  return found;
}

/**
 * Whether an error is the database's moment rather than the statement's data: unreachable, too
 * slow, or a conflict with another transaction. The same work may succeed when retried.
 */
export function isTransientDatabaseError(error: unknown): boolean {
  return isDatabaseUnavailable(error) || isDatabaseTimeout(error)
    || someError(error, ({ code }) => typeof code === 'string' && RETRYABLE_SQLSTATES.test(code));
}

function isWaitExceeded(error: unknown): boolean {
  return someError(error, ({ code, message }) => code === 'SVC_DB_WAIT_EXCEEDED' || (typeof message === 'string' && /Query read timeout/.test(message)));
}

export const UNAVAILABLE_MESSAGE = 'the database is unavailable; retry later';
export const TIMED_OUT_MESSAGE = 'the database did not answer in time; retry later';

/**
 * For the transports: the message of a 503 (with Retry-After) when `error` is the database's, else
 * null. An unreachable database (or one that did not answer at all) is reported to `databaseHealth`.
 */
export function serviceUnavailableMessage(error: unknown): string | null {
  if (isWaitExceeded(error)) {
    databaseHealth.suspect(error);
    return TIMED_OUT_MESSAGE;
  }
  if (isDatabaseUnavailable(error)) {
    databaseHealth.report(error);
    return UNAVAILABLE_MESSAGE;
  }
  return isDatabaseTimeout(error) ? TIMED_OUT_MESSAGE : null;
}

function reasonOf(error: unknown): string {
  const { code, message } = (error ?? {}) as { code?: unknown; message?: unknown };
  const text = typeof message === 'string' && message ? message.split('\n')[0] : String(error);
  return typeof code === 'string' && !text.includes(code) ? `${code}: ${text}` : text;
}

export interface HealthWatch {
  /** Succeeds once the database answers again (`select 1`). */
  probe(): Promise<unknown>;
  /** `warn`: it went away; `info`: it is back. */
  log(line: string, level?: 'info' | 'warn'): void;
}

/**
 * The process's view of its database. The service registers a probe and a log (`watch`); the
 * session worker's thread forwards what it sees to the service (`forwardTo`).
 */
export class DatabaseHealth {
  private since: number | null = null;
  private watcher: HealthWatch | null = null;
  private forward: ((reason: string) => void) | null = null;
  private probing: Promise<void> | null = null;
  private checking: Promise<void> | null = null;

  get unavailable(): boolean {
    return this.since !== null;
  }

  watch(watcher: HealthWatch): () => void {
    this.watcher = watcher;
    return () => { if (this.watcher === watcher) this.watcher = null; };
  }

  forwardTo(send: (reason: string) => void): void {
    this.forward = send;
  }

  /** Records an error that `isDatabaseUnavailable` recognised (or its reason, from another thread). */
  report(error: unknown): void {
    const reason = typeof error === 'string' ? error : reasonOf(error);
    if (this.forward) return this.forward(reason);
    if (this.since !== null) return;
    this.since = Date.now();
    this.logLine(`database unavailable (${reason}): answering 503 until it is back`, 'warn');
    this.probing ??= outsideRequest(() => this.probeUntilBack());
  }

  /**
   * A request gave up waiting for the database: unavailable when a probe (bounded as requests are)
   * does not answer either; a database that is only slow for one request (a lock held long) is not.
   */
  suspect(error: unknown): void {
    const watcher = this.watcher;
    if (this.forward || !watcher || this.since !== null) return this.report(error);
    this.checking ??= outsideRequest(() => watcher.probe()).then(() => {}, () => this.report(error)).finally(() => { this.checking = null; });
  }

  private logLine(line: string, level: 'info' | 'warn'): void {
    if (this.watcher) this.watcher.log(line, level);
    else logger()[level](line);
  }

  private async probeUntilBack(): Promise<void> {
    try {
      while (this.since !== null && this.watcher) {
        await sleep(PROBE_INTERVAL_MS, undefined, { ref: false });
        const watcher = this.watcher;
        if (!watcher) break;
        try {
          await watcher.probe();
        } catch {
          continue;
        }
        const seconds = Math.round((Date.now() - this.since) / 1000);
        this.since = null;
        watcher.log(`database is back (unavailable for ${seconds} s)`, 'info');
      }
    } finally {
      this.probing = null;
    }
  }
}

export const databaseHealth = new DatabaseHealth();
