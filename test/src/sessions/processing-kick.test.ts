// The kick that asks for processing a few milliseconds after ingestion (src/sessions/processing-job.ts
// requestProcessing) does nothing once the app's ORM is closed. Before, it ran its statement anyway:
// MikroORM opened a new pool for it, which nothing closed, and the process could not end (a test
// file's process waited up to its idle timeout, or for good).
import test from 'ava';
import pg from 'pg';
import { startTestApp } from '../../helpers/app.ts';
import { sessionBody } from '../../helpers/session-factories.ts';

test('a session received just before the app closes opens no connection after the close', async (t) => {
  const app = await startTestApp();
  await app.stopWorker();
  const database = new URL(app.databaseUrl).pathname.slice(1);
  const response = await app.request('POST', '/main/v1/charge-session', { body: sessionBody('NL-KCK-C12345678-X') });
  t.is(response.status, 200);
  // Closed within the kick's 50 ms.
  await app.close();
  const watcher = new pg.Client({ connectionString: app.databaseUrl });
  await watcher.connect();
  try {
    await new Promise((resolve) => setTimeout(resolve, 300));
    const { rows } = await watcher.query('select count(*)::int as n from pg_stat_activity where datname = $1 and pid <> pg_backend_pid()', [database]);
    t.is(rows[0].n, 0);
  } finally {
    await watcher.end();
  }
});
