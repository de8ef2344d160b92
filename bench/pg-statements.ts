// BENCH_PG_STATEMENTS=<n>: what PostgreSQL did for each benchmark. The run's PostgreSQL loads
// pg_stat_statements (bench/run.ts); the counters are reset before each benchmark, and after it
// the n statements that took PostgreSQL the most time are printed (calls, rows, total and mean
// milliseconds of execution, the text cut short; statements of the triggers' functions included),
// then the functions (triggers among them) by their total time. Execution time is the backend's,
// waits for locks included; commits (WAL flushes) are not counted in it.
import pg from 'pg';

const TEXT_LENGTH = 150;

/** The number of statements to print, or 0 when BENCH_PG_STATEMENTS is not set. */
export function pgStatementsTop(env: NodeJS.ProcessEnv = process.env): number {
  const value = env.BENCH_PG_STATEMENTS;
  if (value === undefined || value === '') return 0;
  const top = Number(value);
  if (!Number.isInteger(top) || top < 1 || top > 1000) throw new Error(`BENCH_PG_STATEMENTS must be a whole number from 1 to 1000: ${value}`);
  return top;
}

/** The server settings that collect the statistics. */
export const PG_STATEMENTS_SETTINGS = {
  shared_preload_libraries: 'pg_stat_statements', 'pg_stat_statements.track': 'all', track_functions: 'pl',
};

const TOP_STATEMENTS = `select calls, rows, total_exec_time as total, mean_exec_time as mean,
    regexp_replace(query, '\\s+', ' ', 'g') as text
  from pg_stat_statements where query not like '%pg_stat_statements%' order by total_exec_time desc limit $1`;
const TOP_FUNCTIONS = `select funcname as name, calls, total_time as total, self_time as self
  from pg_stat_user_functions order by total_time desc limit 10`;

const ms = (value: number): string => value.toFixed(1).padStart(9);

export interface StatementStats {
  reset(): Promise<void>;
  print(): Promise<void>;
  close(): Promise<void>;
}

/** The statistics of the database at `url` (the extension created there). */
export async function statementStats(url: string, top: number): Promise<StatementStats> {
  const client = new pg.Client({ connectionString: url });
  // The run stops PostgreSQL while this client is still connected: its end is no failure.
  client.on('error', () => {});
  await client.connect();
  await client.query('create extension if not exists pg_stat_statements');
  return {
    async reset() {
      await client.query('select pg_stat_statements_reset()');
      await client.query('select pg_stat_reset()');
    },
    async print() {
      const { rows } = await client.query(TOP_STATEMENTS, [top]);
      console.log(`  PostgreSQL's top ${rows.length} statements by execution time: total ms, calls, rows, mean ms, statement`);
      for (const row of rows) {
        const text = row.text.length > TEXT_LENGTH ? `${row.text.slice(0, TEXT_LENGTH)}…` : row.text;
        console.log(`  ${ms(row.total)} ${String(row.calls).padStart(7)} ${String(row.rows).padStart(8)} ${row.mean.toFixed(3).padStart(8)}  ${text}`);
      }
      const functions = await client.query(TOP_FUNCTIONS);
      if (functions.rows.length) console.log(`  functions (triggers included): ${functions.rows.map((f) => `${f.name} ${f.calls} calls ${Number(f.total).toFixed(1)} ms (self ${Number(f.self).toFixed(1)})`).join('; ')}`);
    },
    async close() {
      await client.end().catch(() => {});
    },
  };
}
