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
