// Statements whose values go to PostgreSQL as bound parameters ($1, $2, …), on the connection of an
// EntityManager (its transaction, if it has one). `em.execute` formats its parameters into the SQL
// text (MikroORM escapes and inlines every value): for the set-based writers, which hand a batch
// over as one JSON document of hundreds of rows, escaping that document character by character,
// and the server lexing it back out of the statement, cost more than the statement itself. The
// answer is the same as `em.execute`'s (the rows as pg parses them), and the statement is logged
// like the ORM's own (SVC_SQL_DEBUG, the tests' statement counts).
import type { Em } from './orm.ts';

interface Executor {
  executeQuery(query: unknown): Promise<{ rows: unknown[] }>;
}

/** What MikroORM's connection offers to run a statement with its logging (protected in its types). */
interface LoggingConnection {
  executeQuery<T>(query: string, run: () => Promise<T>, context?: Record<string, unknown>): Promise<T>;
}

/** Runs `sql` (placeholders `$1`, `$2`, …) with `params` bound, in the em's transaction if it is in one; the rows. */
export async function boundQuery<T = Record<string, unknown>>(em: Em, sql: string, params: readonly unknown[] = []): Promise<T[]> {
  const connection = em.getConnection();
  const executor = (em.getTransactionContext() ?? connection.getClient()) as unknown as Executor;
  // A compiled query as Kysely's PostgreSQL connection sends it: the text and its parameters.
  const compiled = { sql, parameters: params, query: { kind: 'RawNode', sqlFragments: [sql], parameters: [] }, queryId: { queryId: 'bound-sql' } };
  return (connection as unknown as LoggingConnection).executeQuery(sql, async () => (await executor.executeQuery(compiled)).rows as T[], { query: sql, params });
}
