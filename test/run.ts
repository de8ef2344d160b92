// `npm test`: one embedded PostgreSQL for the whole run, a migrated template database, then
// ava; every test file clones the template into a database of its own (test/helpers/db.ts).
import { spawn } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startEmbeddedPostgres } from '../src/platform/embedded-postgres.ts';
import { migrate, openOrm } from '../src/platform/orm.ts';
import { ormConfig } from '../mikro-orm.config.ts';
import { migrateJobQueue } from '../src/worker/worker.ts';

const args = process.argv.slice(2);
// The console's browser tests need its build (scripts/console-build.ts). A fresh clone has none: built
// here, once, while PostgreSQL starts, rather than by both of its test files at once, side by side.
// Only for a run that includes them (all files, or files under test/console).
const files = args.filter((arg) => !arg.startsWith('-'));
const consoleBuild = files.length === 0 || files.some((file) => file.includes('console'))
  ? new Promise<number>((resolve) => {
    spawn(process.execPath, [join('scripts', 'console-build.ts'), '--if-stale'], { stdio: 'inherit' }).on('exit', (exitCode) => resolve(exitCode ?? 1));
  })
  : Promise.resolve(0);
// Every test file is a process of its own that loads the same modules (and its worker thread loads them
// again): Node's compile cache keeps their compiled code (type-stripped TypeScript included) between them.
// A fresh clone has none: one process fills it while PostgreSQL starts (test/helpers/warm-compile-cache.ts).
const compileCache = process.env.NODE_COMPILE_CACHE ?? join(process.cwd(), 'node_modules', '.cache', 'node-compile');
const compileCacheWarm = existsSync(compileCache) ? Promise.resolve() : new Promise<void>((resolve) => {
  spawn(process.execPath, ['--import=./test/helpers/no-source-maps.ts', join('test', 'helpers', 'warm-compile-cache.ts')], {
    stdio: 'inherit', env: { ...process.env, NODE_COMPILE_CACHE: compileCache },
  }).on('exit', () => resolve()).on('error', () => resolve()); // a warm-up that cannot start only costs time
});
const dataDir = mkdtempSync(join(tmpdir(), 'svc-test-'));
// The run's module resolutions, shared by its test processes (test/helpers/resolve-cache.ts).
const resolveCache = join(tmpdir(), `svc-test-resolve-${process.pid}.json`);
// The OpenAPI check's compiled validators, shared the same way (test/helpers/validator-cache.ts).
const validatorCache = mkdtempSync(join(tmpdir(), 'svc-test-validators-'));
chmodSync(dataDir, 0o755);
// No autovacuum: its launcher visits each of the run's ~250 databases in turn (a worker every
// naptime / databases, about every quarter second), and no test reads what it would leave (statistics).
const pg = await startEmbeddedPostgres({ dataDir, database: 'svc_template', fast: true, settings: { autovacuum: 'off' } });
let code = 1;
try {
  const orm = await openOrm(ormConfig(pg.url));
  await migrate(orm);
  await orm.close();
  await migrateJobQueue(pg.url);
  if (await consoleBuild !== 0) throw new Error('the console build failed (scripts/console-build.ts)');
  await compileCacheWarm;
  code = await new Promise<number>((resolve) => {
    // Four files at a time on two cores: a test file waits on PostgreSQL and on its worker thread for about
    // two thirds of its time, so two at a time left the cores idle.
    if (!args.some((arg) => arg.startsWith('--concurrency') || arg.startsWith('-c'))) args.unshift(`--concurrency=${process.env.SVC_TEST_CONCURRENCY ?? 4}`);
    const ava = spawn(process.execPath, [join('node_modules', 'ava', 'entrypoints', 'cli.js'), ...args], {
      stdio: 'inherit',
      // Test apps bound their requests' database waits like the service (SVC_REQUEST_DB_TIMEOUT_MS), at 15 s
      // here: the suite runs its files side by side on two cores, where a 5 s bound flakes; the bound itself
      // is tested with short bounds of its own (test/src/platform/database-bound.test.ts).
      // The worker pauses 100 ms after a batch that was not full, to gather the sessions received meanwhile
      // (src/worker/tasks.ts GATHER_MS): tests that wait for each session they submit waited for it at every
      // step. 10 ms here; test/rest/sessions/processing-gather.test.ts tests the gathering with a pause of its own.
      // The tests' webhook receivers and OCPI peers listen on 127.0.0.1: private targets are allowed here, and
      // the tests of the refusal (test/rest/events/webhook-limits.test.ts, test/ocpi/peer-targets.test.ts) set
      // it back for their own process.
      env: { SVC_WEBHOOK_PRIVATE_TARGETS: 'allow', SVC_OCPI_PRIVATE_TARGETS: 'allow', SVC_REQUEST_DB_TIMEOUT_MS: '15000', SVC_PROCESSING_GATHER_MS: '10', NODE_COMPILE_CACHE: compileCache, ...process.env, SVC_TEST_TEMPLATE_URL: pg.url, SVC_TEST_RESOLVE_CACHE: resolveCache, SVC_TEST_VALIDATOR_CACHE: validatorCache },
    });
    ava.on('exit', (exitCode) => resolve(exitCode ?? 1));
  });
} finally {
  await pg.stop();
  rmSync(dataDir, { recursive: true, force: true });
  rmSync(resolveCache, { force: true });
  rmSync(validatorCache, { recursive: true, force: true });
}
process.exit(code);
