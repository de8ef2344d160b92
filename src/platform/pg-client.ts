// The pg client of every ORM (MikroORM → Kysely → pg-pool). Kysely releases a transaction's
// connection only after its `begin` and its `rollback` succeeded: a connection on which one of them
// fails (the server went away or restarted, a timeout cut it) stays checked out of the pool for
// good, and a pool that loses all its connections that way waits forever. Here a failed `begin` or
// `rollback` cuts the connection and answers as if it had succeeded (the server rolls back the
// transaction of a connection that is gone); every later statement on it fails with what broke it,
// and pg-pool drops it when Kysely gives it back.
//
// A `begin` is not sent on its own: it goes in one message with the transaction's first statement
// (`begin; <statement>`, a simple query, as MikroORM sends its statements), so a transaction costs
// one round trip less. A first statement with bound parameters ($1, …: boundQuery) cannot share a
// message: the `begin` goes just before it. A transaction ended before any statement was sent
// (commit or rollback right after begin) sends nothing.
//
// A statement that begins with ARRAY_ROWS gets its rows as arrays (pg's rowMode 'array': no object
// per row), the names of their columns on the rows array as `columns` (bound-sql.ts `arrayRows`).
//
// A statement with bound parameters is a named prepared statement of its connection (its name from
// its text, preparedName): its text is parsed and planned once per connection, not at every call.
// Their texts are fixed (bound-sql.ts: the values travel apart), so a connection holds a few dozen;
// past PREPARED_PER_CONNECTION, for a text longer than NAMED_TEXT_MAX_LENGTH, or for texts never
// seen before once NAMED_TEXTS are named, a statement goes unnamed, as before. A prepared statement
// whose result columns changed under it (a table altered while the service runs) fails once, and its
// connection is closed.
import { createHash } from 'node:crypto';
import pg from 'pg';

/** The mark of a statement whose rows come as arrays of column values (see above). */
export const ARRAY_ROWS = '/* rows as arrays */ ';

/** Rows as arrays, with the names of their columns in order. */
export type ArrayRowsResult = unknown[][] & { columns: string[] };

/** How long a statement may wait (src/platform/request-database.ts); without one, statements wait as long as they take. */
export interface StatementBound {
  /** Milliseconds the statement about to be sent may take (0 or less: it is not sent). */
  remaining(): number;
  /** `work` counted as the request's database wait, rejected with `exceeded()` past `ms` (after `onTimeout`). */
  run<T>(work: () => Promise<T>, ms: number, onTimeout: () => void): Promise<T>;
  exceeded(): Error;
}

type Query = (this: pg.Client, ...args: unknown[]) => unknown;
/** pg's record of the statements a connection prepared (not in its types). */
interface PgInternals { connection?: { parsedStatements?: Record<string, string> } }

/** Most named statements one connection prepares. */
const PREPARED_PER_CONNECTION = 100;
/** Most statement texts given a name in this process. */
const NAMED_TEXTS = 1000;
/**
 * Longest text given a name: a batch insert's text grows with its rows (one placeholder per value),
 * and such a statement's planning is small beside its rows; the names keep at most NAMED_TEXTS texts.
 */
export const NAMED_TEXT_MAX_LENGTH = 8192;
const names = new Map<string, string>();

/**
 * The prepared statement name of `text`, the same on every connection; undefined for a text over
 * NAMED_TEXT_MAX_LENGTH, and for a new one once NAMED_TEXTS texts have names.
 */
export function preparedName(text: string): string | undefined {
  if (text.length > NAMED_TEXT_MAX_LENGTH) return undefined;
  let name = names.get(text);
  if (name === undefined && names.size < NAMED_TEXTS) {
    name = `svc_${createHash('sha256').update(text).digest('base64url').slice(0, 24)}`;
    names.set(text, name);
  }
  return name;
}

const LIFECYCLE = /^\s*(begin|start\s+transaction|rollback)\b/i;
const BEGIN = /^\s*(begin|start\s+transaction)\b/i;
const END = /^\s*(commit|rollback)\s*;?\s*$/i;
const DONE = { command: 'ROLLBACK', rowCount: null, rows: [], fields: [] };
const answer = (command: string) => ({ command, rowCount: null, rows: [], fields: [] });
/** A simple query (no bound parameters): it may carry several statements. */
const isSimple = (values: unknown): boolean => values === undefined || (Array.isArray(values) && values.length === 0);

export function pgClientClass(bound?: StatementBound): typeof pg.Client {
  return class GuardedClient extends pg.Client {
    private broken: Error | null = null;
    /** The `begin` of a transaction whose first statement has not been sent yet. */
    private pendingBegin: string | null = null;
    /** The names of the statements this connection prepared. */
    private readonly prepared = new Set<string>();

    query(...args: unknown[]): any {
      const [config, values, callback] = args;
      const query = super.query as unknown as Query;
      if (typeof config !== 'string' || typeof values === 'function' || callback !== undefined) {
        if (this.pendingBegin === null) return query.apply(this, args);
        // A query in another form (a cursor, a callback): the begin goes first, as sent.
        const begin = this.pendingBegin;
        this.pendingBegin = null;
        return this.sendQuery(query, begin, [], true).then(() => query.apply(this, args));
      }
      const arrays = config.startsWith(ARRAY_ROWS);
      if (arrays && this.pendingBegin === null) return this.sendQuery(query, config, values, false, true);
      if (BEGIN.test(config) && isSimple(values) && !this.broken && this.pendingBegin === null) {
        this.pendingBegin = config;
        return Promise.resolve(answer('BEGIN'));
      }
      if (this.pendingBegin !== null) {
        const begin = this.pendingBegin;
        this.pendingBegin = null;
        // Nothing was sent in the transaction: it never began on the server.
        if (END.test(config)) return Promise.resolve(answer(/^\s*commit/i.test(config) ? 'COMMIT' : 'ROLLBACK'));
        if (!isSimple(values) || arrays) return this.sendQuery(query, begin, [], true).then(() => this.sendQuery(query, config, values, false, arrays));
        // Its failure is the statement's (the transaction is then rolled back as after any failed statement).
        return this.sendQuery(query, `${begin};\n${config}`, values, false).then((results) => (Array.isArray(results) ? results.at(-1) : results));
      }
      return this.sendQuery(query, config, values, LIFECYCLE.test(config));
    }

    private sendQuery(query: Query, config: string, values: unknown, lifecycle: boolean, arrays = false): Promise<unknown> {
      if (this.broken) return lifecycle ? Promise.resolve(DONE) : Promise.reject(this.broken);
      const name = isSimple(values) ? undefined : this.nameFor(config);
      const send = (timeout?: number): Promise<unknown> => {
        const options = { ...(name === undefined ? {} : { name }), ...(timeout === undefined ? {} : { query_timeout: timeout }) };
        const answer = (arrays
          ? (query.call(this, { text: config, values, rowMode: 'array', ...options }) as Promise<pg.QueryArrayResult>)
            .then((result) => Object.assign(result, { rows: Object.assign(result.rows, { columns: result.fields.map((field) => field.name) }) }))
          : name === undefined && timeout === undefined
            ? query.call(this, config, values)
            : query.call(this, { text: config, values, ...options })) as Promise<unknown>;
        return name === undefined ? answer : answer.catch((error: unknown) => {
          // A statement that failed before it was prepared (a syntax error) holds no place.
          if (!(this as unknown as PgInternals).connection?.parsedStatements?.[name]) this.prepared.delete(name);
          // A table it reads changed its columns under it (a schema changed while the service ran):
          // it fails so on this connection for good, so the connection goes and a new one prepares it anew.
          if ((error as { code?: string })?.code === '0A000' && /cached plan must not change result type/.test((error as Error).message)) {
            this.cut(error as Error);
          }
          throw error;
        });
      };
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

    /** The name to prepare `text` under on this connection, if it may have one. */
    private nameFor(text: string): string | undefined {
      const name = preparedName(text);
      if (name === undefined || this.prepared.has(name)) return name;
      if (this.prepared.size >= PREPARED_PER_CONNECTION) return undefined;
      this.prepared.add(name);
      return name;
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
