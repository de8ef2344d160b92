// Processes that start at once against one database (replicas after a deploy, a CLI command
// beside a starting service) take turns for the start-up work that writes shared rows: the
// migrations (MikroORM's migrator takes no lock of its own: two at once fail on the first
// `create`), the job queue's schema, the bootstrap credential and the demo instance (two at once:
// the second fails on a unique key). A session-level advisory lock on a connection of its own,
// released when the work is done or the connection goes (a process killed meanwhile).
import pg from 'pg';

// Single-key form (the two-key ones of 736400118..736400120 are another lock space).
const STARTUP_LOCK = 736400121;

/** Runs `work` holding the database's start-up lock; waits while another process holds it. */
export async function withStartupLock<T>(connectionString: string, work: () => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString });
  client.on('error', () => {});
  await client.connect();
  try {
    await client.query('select pg_advisory_lock($1)', [STARTUP_LOCK]);
    return await work();
  } finally {
    await client.end().catch(() => {});
  }
}
