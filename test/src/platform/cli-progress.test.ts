// The CLI's progress line (src/cli/progress.ts): a long command says what it is doing on stderr,
// migrations n of m and the sections of a setup file, while stdout stays its answer; in a terminal
// one line rewritten in place and cleared before the answer.
import test from 'ava';
import { progressLine } from '../../../src/cli/progress.ts';
import { migrations } from '../../../src/migrations/index.ts';
import { emptyDatabaseUrl, freshDatabaseUrl } from '../../helpers/db.ts';
import { runCli } from '../../helpers/process.ts';

test('migrate on an empty database: a line per migration on stderr (not a terminal), the answer alone on stdout', async (t) => {
  t.timeout(120_000);
  const result = await runCli(['migrate'], { DATABASE_URL: await emptyDatabaseUrl() });
  t.is(result.code, 0, result.stderr);
  t.is(result.stdout, 'migrations applied\n');
  const lines = result.stderr.trimEnd().split('\n');
  t.is(lines.length, migrations.length);
  t.regex(lines[0]!, new RegExp(`^migrations: 1 of ${migrations.length} applied \\(Migration\\d+_\\w+\\)$`));
  t.regex(lines.at(-1)!, new RegExp(`^migrations: ${migrations.length} of ${migrations.length} applied `));
});

test('setup apply names its sections; nothing to migrate, nothing said about it', async (t) => {
  const result = await runCli(['setup', 'apply', 'docs/setup-example.json', '--dry-run'], { DATABASE_URL: await freshDatabaseUrl() });
  t.is(result.code, 0, result.stderr);
  t.deepEqual(result.stderr.trimEnd().split('\n'), ['setup: administrations', 'setup: VAT rates', 'setup: rate plans', 'setup: subscription plans', 'setup: billing']);
  t.is(JSON.parse(result.stdout).dry_run, true);
});

// Found by probing (2026-11-29): `setup apply --dryrun` applied for real, a second file was ignored.
// Refused before the database is opened: against one that cannot be reached, the refusal is all it says.
test('a command refuses an option or argument it does not take, naming it, before it does anything', async (t) => {
  const env = { DATABASE_URL: 'postgres://svc:pw@127.0.0.1:1/none' };
  const refused = await Promise.all([
    runCli(['setup', 'apply', 'docs/setup-example.json', '--dryrun'], env),
    runCli(['setup', 'apply', 'docs/setup-example.json', 'docs/setup-example.json'], env),
    runCli(['migrate', 'now'], env),
    runCli(['demo', '--force'], env),
    runCli(['credential', 'list', '--all'], env),
  ]);
  t.deepEqual(refused.map((r) => [r.code, r.stdout, r.stderr]), [
    [1, '', 'unknown option: --dryrun (this command takes --dry-run)\n'],
    [1, '', 'unexpected argument: docs/setup-example.json\n'],
    [1, '', 'unexpected argument: now\n'],
    [1, '', 'unknown option: --force (this command takes none)\n'],
    [1, '', 'unknown option: --all (this command takes none)\n'],
  ]);
});

test('in a terminal: one line rewritten in place, cut to the width, cleared at the end', (t) => {
  let written = '';
  const progress = progressLine({ isTTY: true, columns: 30, write: (chunk: string) => { written += chunk; return true; } });
  progress.step('database: starting');
  progress.step('migrations: 1 of 60 applied (Migration20260101000000_a_long_name)');
  progress.done();
  progress.done();
  const clear = '\r\u001b[2K';
  t.is(written, `${clear}database: starting${clear}migrations: 1 of 60 applied…${clear}`);
  let plain = '';
  const lines = progressLine({ isTTY: false, write: (chunk: string) => { plain += chunk; return true; } });
  lines.step('a');
  lines.step('b');
  lines.done();
  t.is(plain, 'a\nb\n');
});
