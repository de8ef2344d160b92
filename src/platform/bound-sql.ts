// Statements whose values go to PostgreSQL as bound parameters ($1, $2, …), on the connection of an
// EntityManager (its transaction, if it has one). `em.execute` formats its parameters into the SQL
// text (MikroORM escapes and inlines every value): for the set-based writers, which hand a batch
// over as one JSON document of hundreds of rows, escaping that document character by character,
// and the server lexing it back out of the statement, cost more than the statement itself. The
// answer is the same as `em.execute`'s (the rows as pg parses them), and the statement is logged
// like the ORM's own (SVC_SQL_DEBUG, the tests' statement counts).
import type { Em } from './orm.ts';
import { ARRAY_ROWS, type ArrayRowsResult } from './pg-client.ts';

interface Executor {
  executeQuery(query: unknown): Promise<{ rows: unknown[] }>;
}

/** What MikroORM's connection offers to run a statement with its logging (protected in its types). */
interface LoggingConnection {
  executeQuery<T>(query: string, run: () => Promise<T>, context?: Record<string, unknown>): Promise<T>;
}

/** Runs `sql` (placeholders `$1`, `$2`, …) with `params` bound, in the em's transaction if it is in one; the rows. */
export function boundQuery<T = Record<string, unknown>>(em: Em, sql: string, params: readonly unknown[] = []): Promise<T[]> {
  return run<T[]>(em, sql, sql, params);
}

/**
 * Runs `sql` as boundQuery does; its rows as arrays of column values, named by `columns` (no object
 * per row: for the long pages of the lists, src/platform/seek-page.ts).
 */
export function arrayRows(em: Em, sql: string, params: readonly unknown[] = []): Promise<ArrayRowsResult> {
  return run<ArrayRowsResult>(em, ARRAY_ROWS + sql, sql, params);
}

async function run<R>(em: Em, sent: string, logged: string, params: readonly unknown[]): Promise<R> {
  const connection = em.getConnection();
  const executor = (em.getTransactionContext() ?? connection.getClient()) as unknown as Executor;
  // A compiled query as Kysely's PostgreSQL connection sends it: the text and its parameters.
  const compiled = { sql: sent, parameters: params, query: { kind: 'RawNode', sqlFragments: [sent], parameters: [] }, queryId: { queryId: 'bound-sql' } };
  return (connection as unknown as LoggingConnection).executeQuery(logged, async () => (await executor.executeQuery(compiled)).rows as R, { query: logged, params });
}
