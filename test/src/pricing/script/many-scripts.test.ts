// 10,000 rule scripts in a row, failing ones among them (an endless loop, a memory hog, one huge
// allocation, throwing, a thrown promise, bad results, syntax errors, endless recursion): no
// QuickJS abort is printed, every outcome is the expected one, and the memory stays flat.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import test from 'ava';

const MiB = 1024 * 1024;

function runMany(count: number): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const runner = fileURLToPath(new URL('./many-scripts.ts', import.meta.url));
  const child = spawn(process.execPath, ['--expose-gc', runner, String(count)], { stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk) => { stdout += chunk; });
  child.stderr.on('data', (chunk) => { stderr += chunk; });
  return new Promise((resolve) => child.on('close', (code) => resolve({ code, stdout, stderr })));
}

test('10,000 scripts, failing ones included, leave no object behind and the memory flat', async (t) => {
  t.timeout(90_000, 'about 0.6 ms a script on an idle core');
  const { code, stdout, stderr } = await runMany(10_000);
  t.false(stderr.includes('Aborted('), stderr);
  t.is(code, 0, stderr);
  const report = JSON.parse(stdout);
  t.is(report.unexpected, null);
  t.is(report.ran, 10_000);
  t.is(report.perKind['memory hog'], 100);
  t.is(report.perKind['endless recursion'], 100);
  const { warm, end } = report;
  t.is(end.instancesRetired, 0, 'every failure stayed inside QuickJS');
  t.is(end.memoryBytes, warm.memoryBytes, 'the WebAssembly memory did not grow after the warm-up');
  t.true(end.memoryBytes <= 32 * MiB, `the WebAssembly memory stays capped: ${end.memoryBytes}`);
  t.is(end.freeBlocks, warm.freeBlocks, 'as much of it is free at the end as after the warm-up');
  t.true(end.heapUsed - warm.heapUsed < 4 * MiB, `JS heap after the warm-up ${warm.heapUsed}, at the end ${end.heapUsed}`);
  t.true(end.rss - warm.rss < 96 * MiB, `RSS after the warm-up ${warm.rss}, at the end ${end.rss}`);
  t.log(`${report.ran} scripts in ${report.ms} ms; JS heap ${(warm.heapUsed / MiB).toFixed(1)} → ${(end.heapUsed / MiB).toFixed(1)} MiB, `
    + `RSS ${(warm.rss / MiB).toFixed(0)} → ${(end.rss / MiB).toFixed(0)} MiB, WebAssembly ${(end.memoryBytes / MiB).toFixed(1)} MiB`);
});
