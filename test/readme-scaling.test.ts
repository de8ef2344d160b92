// The README's "Scaling out" as far as a single database can check it: the tables that grow with
// sessions and their indexes as listed, the worker sizes as the code passes them, PostgreSQL's
// rule that a partitioned table's unique index holds the partition key, and a session stored
// before it has an administration. The two-process claims: test/scale/two-processes.test.ts.
import { readFileSync } from 'node:fs';
import test from 'ava';
import pg from 'pg';
import { BATCH_SIZE } from '../src/worker/tasks.ts';
import { MAIN_CONCURRENCY, PROCESSING_CONCURRENCY, WEBHOOK_CONCURRENCY } from '../src/worker/worker.ts';
import { startTestApp } from './helpers/app.ts';
import { freshDatabaseUrl } from './helpers/db.ts';
import { createAdministration } from './helpers/factories.ts';
import { pricedSubscription, sessionBody, submitSession } from './helpers/session-factories.ts';

function section(): string {
  const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8');
  const found = readme.split(/^## /m).find((part) => part.startsWith('Scaling out\n'));
  if (!found) throw new Error('README.md has no "Scaling out" section');
  return found.replace(/\s*\n\s*/g, ' ');
}

/** `columns|primary key or unique|where` of each index, as the README's table lists them. */
function listedIndexes(): Map<string, string[]> {
  const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8');
  const part = readme.split(/^### /m).find((p) => p.startsWith('Tables that grow with sessions\n'));
  if (!part) throw new Error('README.md has no "Tables that grow with sessions"');
  const tables = new Map<string, string[]>();
  for (const [, table, , indexes] of part.matchAll(/^\| `([a-z_]+)` \| ([^|]+) \| ([^|]+) \|$/gm)) {
    tables.set(table!, indexes!.trim().split('; ').map((item) => {
      const match = /^`([^`]+)`( primary key| unique)?(?: where `([^`]+)`)?$/.exec(item);
      if (!match) throw new Error(`not an index: ${item}`);
      return `${match[1]}|${match[2]?.trim() ?? ''}|${match[3] ?? ''}`;
    }).sort());
  }
  return tables;
}

test('the tables that grow with sessions have the indexes the README lists, no other', async (t) => {
  const listed = listedIndexes();
  t.true(listed.size >= 8);
  const client = new pg.Client({ connectionString: await freshDatabaseUrl() });
  await client.connect();
  try {
    const { rows } = await client.query(`select tablename, indexname, indexdef from pg_indexes where schemaname = 'public' and tablename = any($1)`,
      [[...listed.keys()]]);
    const actual = new Map<string, string[]>();
    for (const row of rows) {
      const match = /^CREATE (UNIQUE )?INDEX \S+ ON \S+ USING btree \((.+?)\)(?: WHERE \((.+)\))?$/.exec(row.indexdef);
      if (!match) throw new Error(`unexpected index: ${row.indexdef}`);
      const kind = row.indexname.endsWith('_pkey') ? 'primary key' : match[1] ? 'unique' : '';
      const columns = match[2]!.split(', ').map((c: string) => c.replaceAll('"', '')).join(', ');
      actual.set(row.tablename, [...(actual.get(row.tablename) ?? []), `${columns}|${kind}|${(match[3] ?? '').toLowerCase()}`]);
    }
    for (const [table, indexes] of listed) t.deepEqual(actual.get(table)?.sort(), indexes, table);
  } finally {
    await client.end();
  }
});

test('the worker sizes the README states are the ones the code passes to graphile-worker', (t) => {
  const text = section();
  t.true(text.includes(`the processing runner runs ${PROCESSING_CONCURRENCY} job at a time (session processing in batches of ${BATCH_SIZE} sessions`));
  t.true(text.includes(`the main runner runs ${MAIN_CONCURRENCY} job at a time (billing periods and backfills`));
  t.true(text.includes(`webhook runner up to ${WEBHOOK_CONCURRENCY} subscriptions at a time`));
  t.true(text.includes(`deliver to up to ${WEBHOOK_CONCURRENCY} × N subscriptions at once`));
  t.true(text.includes(`${PROCESSING_CONCURRENCY + 1} + ${MAIN_CONCURRENCY + 1} + ${WEBHOOK_CONCURRENCY + 1} for graphile-worker's runners, one per delivery run in flight (at most ${WEBHOOK_CONCURRENCY})`));
});

test('PostgreSQL refuses a unique index of a partitioned table without the partition key', async (t) => {
  const client = new pg.Client({ connectionString: await freshDatabaseUrl() });
  await client.connect();
  try {
    await client.query(`create table partitioned_sessions (id uuid not null, identity_key text not null, received_month date not null)
      partition by range (received_month)`);
    const refused = await t.throwsAsync(client.query(`create unique index on partitioned_sessions (identity_key)`));
    t.regex(refused!.message, /must include all partitioning columns/);
    await t.notThrowsAsync(client.query(`create unique index on partitioned_sessions (identity_key, received_month)`));
  } finally {
    await client.end();
  }
});

test('a session is stored without an administration: it gets one when its token resolves', async (t) => {
  const app = await startTestApp();
  t.teardown(() => app.close());
  await app.stopWorker();
  const adminId = (await createAdministration(app)).id;
  const priced = await pricedSubscription(app, adminId);
  const stored = await submitSession(app, sessionBody(priced.evcoId));
  const [row] = await app.orm.em.fork().getConnection().execute(`select admin_id, status,
      (select admin_id from svc_event where kind = 'msp_charge_session' and resource_id = s.id::text) as event_admin_id
    from msp_charge_session s where id = ?`, [stored.id]);
  t.deepEqual(row, { admin_id: null, status: 'received', event_admin_id: null });
});
