// Log lines gathered for FLUSH_MS (src/platform/buffered-lines.ts): one write after it, in order; at
// once past the size bound; and nothing lost when the process exits right after logging (the
// service's own stdout, read by a parent process).
import { spawnSync } from 'node:child_process';
import test from 'ava';
import { bufferedLines, FLUSH_MS } from '../../../src/platform/buffered-lines.ts';

const flushed = () => new Promise((resolve) => setTimeout(resolve, FLUSH_MS + 5));

test('the lines held go out in one write FLUSH_MS after the first, in order; later lines in a write of their own', async (t) => {
  const writes: string[] = [];
  const lines = bufferedLines({ write: (text: string) => writes.push(text) });
  const started = performance.now();
  lines.write('a\n');
  lines.write('b\n');
  await Promise.resolve();
  lines.write('c\n');
  t.deepEqual(writes, [], 'nothing written at once');
  await new Promise<void>((resolve) => { const poll = () => (writes.length ? resolve() : setImmediate(poll)); poll(); });
  t.true(performance.now() - started >= FLUSH_MS - 1, 'written after FLUSH_MS');
  t.deepEqual(writes, ['a\nb\nc\n']);
  lines.write('d\n');
  await flushed();
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
