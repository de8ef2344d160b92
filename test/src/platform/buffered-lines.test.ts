// Log lines gathered per turn of the event loop (src/platform/buffered-lines.ts): one write after the
// turn, in order; at once past the size bound; and nothing lost when the process exits right after
// logging (the service's own stdout, read by a parent process).
import { spawnSync } from 'node:child_process';
import test from 'ava';
import { bufferedLines } from '../../../src/platform/buffered-lines.ts';

const nextTurn = () => new Promise((resolve) => setImmediate(resolve));

test('the lines of one turn go out in one write after it, in order; a later turn writes its own', async (t) => {
  const writes: string[] = [];
  const lines = bufferedLines({ write: (text: string) => writes.push(text) });
  lines.write('a\n');
  lines.write('b\n');
  lines.write('c\n');
  t.deepEqual(writes, [], 'nothing written during the turn');
  await nextTurn();
  t.deepEqual(writes, ['a\nb\nc\n']);
  lines.write('d\n');
  await nextTurn();
  t.deepEqual(writes, ['a\nb\nc\n', 'd\n']);
});

test('past 64 KiB held the lines go out at once', (t) => {
  const writes: string[] = [];
  const lines = bufferedLines({ write: (text: string) => writes.push(text) });
  const line = `${'x'.repeat(1023)}\n`;
  for (let i = 0; i < 64; i++) lines.write(line);
  t.is(writes.length, 1);
  t.is(writes[0].length, 64 * 1024);
  lines.flush();
  t.is(writes.length, 1, 'nothing left to write');
});

test('a process that logs and exits at once still writes every line to its stdout', (t) => {
  const script = `import { logger } from ${JSON.stringify(new URL('../../../src/platform/log.ts', import.meta.url).href)};
    for (let i = 0; i < 3; i++) logger().info({ n: i }, 'line');
    process.exit(0);`;
  const child = spawnSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8', env: { ...process.env, LOG_LEVEL: 'info' } });
  t.is(child.status, 0, child.stderr);
  const lines = child.stdout.trim().split('\n').map((line) => JSON.parse(line));
  t.deepEqual(lines.map((line) => line.n), [0, 1, 2]);
});
