import { randomBytes } from 'node:crypto';
import pg from 'pg';

/** A database of this test file's own, cloned from the migrated template. */
export async function freshDatabaseUrl(): Promise<string> {
  const template = process.env.SVC_TEST_TEMPLATE_URL;
  if (!template) throw new Error('run the tests with `npm test` (it starts the database)');
  const name = `t_${randomBytes(6).toString('hex')}`;
  const maintenance = template.replace(/\/[^/]*$/, '/postgres');
  const client = new pg.Client({ connectionString: maintenance });
  await client.connect();
  try {
    await client.query(`create database ${name} template svc_template`);
    // Every transaction that records events must render their data (src/events/record-events.ts): a writer that does not fails here.
    await client.query(`alter database ${name} set svc.require_event_data = on`);
  } finally {
    await client.end();
  }
  return template.replace(/\/[^/]*$/, `/${name}`);
}

/** An empty database of this test file's own (nothing migrated), on the suite's server. */
export async function emptyDatabaseUrl(): Promise<string> {
  const template = process.env.SVC_TEST_TEMPLATE_URL;
  if (!template) throw new Error('run the tests with `npm test` (it starts the database)');
  const name = `e_${randomBytes(6).toString('hex')}`;
  const client = new pg.Client({ connectionString: template.replace(/\/[^/]*$/, '/postgres') });
  await client.connect();
  try {
    await client.query(`create database ${name} template template0`);
  } finally {
    await client.end();
  }
  return template.replace(/\/[^/]*$/, `/${name}`);
}

/**
 * Lock waits of this database's backends (other test files share the server). Inside a
 * transaction pg_stat_activity keeps the backends of its first read: a connection opened later
 * (a new pool connection waiting for the test's lock) was not counted. The snapshot is cleared first.
 */
export async function lockWaits(db: pg.Client): Promise<number> {
  await db.query('select pg_stat_clear_snapshot()');
  const { rows } = await db.query(`select count(*)::int as n from pg_locks l join pg_stat_activity a on a.pid = l.pid
    where not l.granted and a.datname = current_database()`);
  return Number(rows[0].n);
}
