// A CLI command joins the postmaster of a running service only once its pid file says `ready`:
// PostgreSQL writes the file in steps (pid, data directory, start time, port, ..., status last),
// and a file read between them named a port nothing listened on yet (ECONNREFUSED).
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import test from 'ava';
import { runningPostmasterPort } from '../../../src/platform/embedded-postgres.ts';

function clusterWith(lines: string[]): string {
  const dir = mkdtempSync(join(tmpdir(), 'svc-pidfile-'));
  writeFileSync(join(dir, 'postmaster.pid'), `${lines.join('\n')}\n`);
  return dir;
}

const HEAD = [String(process.pid), '/data/pg', '1795869944', '38003', '', '127.0.0.1'];

test('the port of a live postmaster whose pid file says ready, and none before', (t) => {
  const cases: [string, string[], number | null][] = [
    ['ready (padded, as PostgreSQL writes it)', [...HEAD, '  2146321        14', 'ready   '], 38003],
    ['starting', [...HEAD, '  2146321        14', 'starting'], null],
    ['stopping', [...HEAD, '  2146321        14', 'stopping'], null],
    ['no status line yet', [...HEAD, '  2146321        14'], null],
    ['no shared memory line yet', HEAD, null],
    ['a pid that is not running', ['2147483646', ...HEAD.slice(1), '  2146321        14', 'ready   '], null],
  ];
  for (const [name, lines, port] of cases) {
    const dir = clusterWith(lines);
    try {
      t.is(runningPostmasterPort(dir), port, name);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }
  t.is(runningPostmasterPort(join(tmpdir(), 'svc-no-such-cluster')), null);
});
