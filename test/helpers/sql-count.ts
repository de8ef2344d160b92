import type { Orm } from '../../src/platform/orm.ts';

/** The SQL statements the app issues while `run` is in flight (run such tests serially). */
export async function countQueries(orm: Orm, run: () => Promise<unknown>): Promise<string[]> {
  const logger = orm.config.getLogger();
  const original = logger.logQuery;
  const queries: string[] = [];
  logger.logQuery = function (context) {
    queries.push(context.query ?? '');
    return original.call(this, context);
  };
  try {
    await run();
  } finally {
    logger.logQuery = original;
  }
  return queries;
}
