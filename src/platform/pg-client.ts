// The pg client of every ORM (MikroORM → Kysely → pg-pool). Kysely releases a transaction's
// connection only after its `begin` and its `rollback` succeeded: a connection on which one of them
// fails (the server went away or restarted, a timeout cut it) stays checked out of the pool for
// good, and a pool that loses all its connections that way waits forever. Here a failed `begin` or
// `rollback` cuts the connection and answers as if it had succeeded (the server rolls back the
// transaction of a connection that is gone); every later statement on it fails with what broke it,
// and pg-pool drops it when Kysely gives it back.
import pg from 'pg';

/** How long a statement may wait (src/platform/request-database.ts); without one, statements wait as long as they take. */
export interface StatementBound {
  /** Milliseconds the statement about to be sent may take (0 or less: it is not sent). */
  remaining(): number;
  /** `work` counted as the request's database wait, rejected with `exceeded()` past `ms` (after `onTimeout`). */
  run<T>(work: () => Promise<T>, ms: number, onTimeout: () => void): Promise<T>;
  exceeded(): Error;
}

type Query = (this: pg.Client, ...args: unknown[]) => unknown;

const LIFECYCLE = /^\s*(begin|start\s+transaction|rollback)\b/i;
const DONE = { command: 'ROLLBACK', rowCount: null, rows: [], fields: [] };

export function pgClientClass(bound?: StatementBound): typeof pg.Client {
  return class GuardedClient extends pg.Client {
    private broken: Error | null = null;

    query(...args: unknown[]): any {
      const [config, values, callback] = args;
      const query = super.query as unknown as Query;
      if (typeof config !== 'string' || typeof values === 'function' || callback !== undefined) return query.apply(this, args);
      const lifecycle = LIFECYCLE.test(config);
      if (this.broken) return lifecycle ? Promise.resolve(DONE) : Promise.reject(this.broken);
      const send = (timeout?: number) => (timeout === undefined
        ? query.call(this, config, values)
        : query.call(this, { text: config, values, query_timeout: timeout })) as Promise<unknown>;
      const sent = async (): Promise<unknown> => {
        if (!bound) return send();
        const ms = bound.remaining();
        if (ms <= 0) throw bound.exceeded();
        // pg's read timeout answers first; the race is a backstop.
        return bound.run(async () => {
          try {
            return await send(ms);
          } catch (error) {
            // The protocol is mid-answer: the connection cannot be used again.
            if ((error as Error)?.message === 'Query read timeout') throw this.cut(bound.exceeded());
            throw error;
          }
        }, ms + 250, () => this.cut(bound.exceeded()));
      };
      if (!lifecycle) return sent();
      return sent().catch((error: unknown) => {
        this.cut(error instanceof Error ? error : new Error(String(error)));
        return DONE;
      });
    }

    /** The connection is closed and never used again; later statements fail with `reason`. */
    private cut(reason: Error): Error {
      this.broken ??= reason;
      // pg-pool drops a released client that is not queryable (its own check of this field).
      (this as unknown as { _queryable: boolean })._queryable = false;
      (this as unknown as { connection?: { stream?: { destroy(): void } } }).connection?.stream?.destroy();
      return reason;
    }
  };
}
