// `npm test`: one embedded PostgreSQL for the whole run, a migrated template database, then
// ava; every test file clones the template into a database of its own (test/helpers/db.ts).
import { spawn } from 'node:child_process';
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startEmbeddedPostgres } from '../src/platform/embedded-postgres.ts';
import { migrate, openOrm } from '../src/platform/orm.ts';
import { ormConfig } from '../mikro-orm.config.ts';
import { migrateJobQueue } from '../src/worker/worker.ts';

const dataDir = mkdtempSync(join(tmpdir(), 'svc-test-'));
chmodSync(dataDir, 0o755);
const pg = await startEmbeddedPostgres({ dataDir, database: 'svc_template', fast: true });
let code = 1;
try {
  const orm = await openOrm(ormConfig(pg.url));
  await migrate(orm);
  await orm.close();
  await migrateJobQueue(pg.url);
  code = await new Promise<number>((resolve) => {
    const ava = spawn(process.execPath, [join('node_modules', 'ava', 'entrypoints', 'cli.js'), ...process.argv.slice(2)], {
      stdio: 'inherit',
      // Test apps bound their requests' database waits like the service (SVC_REQUEST_DB_TIMEOUT_MS), at 15 s
      // here: the suite runs its files side by side on two cores, where a 5 s bound flakes; the bound itself
      // is tested with short bounds of its own (test/src/platform/database-bound.test.ts).
      env: { SVC_REQUEST_DB_TIMEOUT_MS: '15000', ...process.env, SVC_TEST_TEMPLATE_URL: pg.url },
    });
    ava.on('exit', (exitCode) => resolve(exitCode ?? 1));
  });
} finally {
  await pg.stop();
  rmSync(dataDir, { recursive: true, force: true });
}
process.exit(code);
