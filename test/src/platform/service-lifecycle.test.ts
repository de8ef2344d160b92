// Start and stop of a real service process: Ctrl-C and SIGTERM stop in order (exit 0, nothing on
// stderr, no postgres left), a busy port or a public HOST with the demo credential is one line and
// exit 1. The tests share one data directory and run in order.
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import test from 'ava';
import { freePort } from '../../../src/platform/embedded-postgres.ts';
import { exited, runCli, runScript, startServiceProcess, tempDataDir } from '../../helpers/process.ts';

const dataDir = tempDataDir();
test.after.always(() => rmSync(dataDir, { recursive: true, force: true }));

function postmasterRunning(): boolean {
  const location = join(dataDir, 'pg-location.txt');
  const cluster = existsSync(location) ? readFileSync(location, 'utf8').trim() : join(dataDir, 'pg');
  const pidFile = join(cluster, 'postmaster.pid');
  if (!existsSync(pidFile)) return false;
  try {
    process.kill(Number(readFileSync(pidFile, 'utf8').split('\n')[0]), 0);
    return true;
  } catch {
    return false;
  }
}

/** The addresses a TCP port listens on (from /proc/net/tcp: little-endian hex IPv4). */
function listeningAddresses(port: number): string[] {
  const hexPort = port.toString(16).toUpperCase().padStart(4, '0');
  return readFileSync('/proc/net/tcp', 'utf8').split('\n').slice(1)
    .map((line) => line.trim().split(/\s+/))
    .filter((fields) => fields[3] === '0A' && fields[1]?.endsWith(`:${hexPort}`))
    .map((fields) => fields[1]!.split(':')[0]!.match(/../g)!.reverse().map((byte) => parseInt(byte, 16)).join('.'));
}

test.serial('Ctrl-C on `npm start`: stops in order, exit 0, nothing on stderr, no postgres left; it binds 127.0.0.1', async (t) => {
  t.timeout(120_000, 'creates the cluster and the demo instance');
  const service = await startServiceProcess({ SVC_DATA_DIR: dataDir }, { npm: true });
  t.deepEqual(listeningAddresses(service.port), ['127.0.0.1']);
  t.true(postmasterRunning());
  process.kill(-service.child.pid!, 'SIGINT');
  t.is(await exited(service.child), 0, service.output());
  t.is(service.stderr(), '');
  t.regex(service.output(), /SIGINT: stopping\n(.*\n)*stopped\n/);
  t.false(postmasterRunning());
});

test.serial('a busy port: one line naming the port and PORT, exit 1', async (t) => {
  const port = await freePort();
  const blocker = createServer();
  await new Promise<void>((resolve) => blocker.listen(port, '127.0.0.1', resolve));
  t.teardown(() => blocker.close());
  const result = await runScript('src/main.ts', [], { SVC_DATA_DIR: dataDir, PORT: String(port) });
  t.is(result.code, 1);
  t.is(result.stderr, `port ${port} on 127.0.0.1 is in use: stop what listens there or choose another port with PORT\n`);
  t.false(postmasterRunning());
});

// Found by probing (2026-11-29): both crashed with a stack trace.
test('a bootstrap credential it cannot take, an unreachable DATABASE_URL: one line naming the variable, exit 1, no secret or password', async (t) => {
  const unreachable = 'postgres://svc:db-password-9@127.0.0.1:1/none';
  const [short, badId, noDatabase] = await Promise.all([
    runScript('src/main.ts', [], { DATABASE_URL: unreachable, PORT: '0', SVC_DEMO: '0', SVC_BOOTSTRAP_CREDENTIAL: 'ops:short' }),
    runScript('src/main.ts', [], { DATABASE_URL: unreachable, PORT: '0', SVC_DEMO: '0', SVC_BOOTSTRAP_CREDENTIAL: 'o p:a-long-enough-secret' }),
    runScript('src/main.ts', [], { DATABASE_URL: unreachable, PORT: '0', SVC_DEMO: '0' }),
  ]);
  t.deepEqual([short, badId, noDatabase].map((r) => [r.code, r.stderr]), [
    [1, 'SVC_BOOTSTRAP_CREDENTIAL: the secret must have at least 12 characters\n'],
    [1, 'SVC_BOOTSTRAP_CREDENTIAL: public id: 3 to 64 letters, digits, ".", "_" or "-"\n'],
    [1, 'DATABASE_URL: cannot connect to 127.0.0.1:1/none: connect ECONNREFUSED 127.0.0.1:1\n'],
  ]);
  t.is(short.stdout + badId.stdout, '', 'refused before the database');
  t.false(noDatabase.stdout.includes('db-password-9'));
});

test.serial('a non-loopback HOST is refused while the demo is on or its credential works', async (t) => {
  const port = String(await freePort());
  const withDemo = await runScript('src/main.ts', [], { SVC_DATA_DIR: dataDir, PORT: port, HOST: '0.0.0.0' });
  t.is(withDemo.code, 1);
  t.regex(withDemo.stderr, /^HOST=0\.0\.0\.0 is not a loopback address and the demo instance is on \(SVC_DEMO=1\).*\n$/);

  const oldCredential = await runScript('src/main.ts', [], { SVC_DATA_DIR: dataDir, PORT: port, HOST: '0.0.0.0', SVC_DEMO: '0' });
  t.is(oldCredential.code, 1);
  t.regex(oldCredential.stderr, /^HOST=0\.0\.0\.0 is not a loopback address and the demo credential of an earlier demo instance is active.*\n$/);
  t.false(postmasterRunning(), 'the postgres it started is stopped');
});

test.serial('with the demo credential changed a public HOST starts; SIGTERM stops it with exit 0 and nothing on stderr', async (t) => {
  const changed = await runCli(['credential', 'create', '--public-id', 'demo', '--secret', 'not-the-published-one'], { SVC_DATA_DIR: dataDir });
  t.is(changed.code, 0, changed.stderr);
  const service = await startServiceProcess({ SVC_DATA_DIR: dataDir, HOST: '0.0.0.0', SVC_DEMO: '0' });
  t.deepEqual(listeningAddresses(service.port), ['0.0.0.0']);
  service.child.kill('SIGTERM');
  t.is(await exited(service.child), 0, service.output());
  t.is(service.stderr(), '');
  t.false(postmasterRunning());
});
