// The curl commands of the README's "Operate in production" section, run as written with bash
// (against a test app holding the demo instance, at its own address): health, metrics, the
// billing backfill, and an invoice's PDF and UBL downloaded.
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import test from 'ava';
import { ensureDemoInstance } from '../src/demo/demo-instance.ts';
import { startTestApp, type TestApp } from './helpers/app.ts';

let app: TestApp;
test.before(async () => {
  app = await startTestApp();
  await ensureDemoInstance(app.orm, () => {});
});
test.after.always(async () => { await app?.close(); });

/** The section's sh blocks made only of curl commands (a `NAME=$(curl ...)` too). */
function curlBlocks(): string[] {
  const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8');
  const section = readme.split(/^## /m).find((part) => part.startsWith('Operate in production\n'));
  if (!section) throw new Error('README.md has no "Operate in production" section');
  return [...section.matchAll(/```sh\n([\s\S]*?)```/g)].map((block) => block[1]!)
    .filter((block) => block.trim().split('\n').every((line) => /^(curl |[A-Z_]+=\$\(curl )/.test(line.trim())));
}

async function run(block: string, cwd: string): Promise<string> {
  const script = block.replaceAll('http://localhost:3000', app.url);
  const { stdout } = await promisify(execFile)('bash', ['-euo', 'pipefail', '-c', script], { cwd, maxBuffer: 16 * 1024 * 1024 });
  return stdout;
}

test('the README\'s curl commands work as written: health, metrics, backfill progress, an invoice as PDF and UBL', async (t) => {
  const blocks = curlBlocks();
  t.is(blocks.length, 2);
  const cwd = mkdtempSync(join(tmpdir(), 'svc-readme-'));
  t.teardown(() => rmSync(cwd, { recursive: true, force: true }));

  const endpoints = await run(blocks.find((block) => block.includes('/main/health/live'))!, cwd);
  t.true(endpoints.startsWith('{"status":"live"}{"status":"ready","failing":[]'), endpoints.slice(0, 200));
  t.regex(endpoints, /^# TYPE svc_http_requests_total counter$/m);
  t.regex(endpoints, /\{"items":\[\{"admin_id":"/);

  await run(blocks.find((block) => block.includes('invoice.pdf'))!, cwd);
  t.is(readFileSync(join(cwd, 'invoice.pdf')).subarray(0, 5).toString(), '%PDF-');
  t.regex(readFileSync(join(cwd, 'invoice.xml'), 'utf8'), /<(Invoice|CreditNote) xmlns="urn:oasis:names:specification:ubl:schema:xsd:(Invoice|CreditNote)-2"/);
});
