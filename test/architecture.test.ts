// The shape of the code base (docs/architecture.md, "Floors"): the import rule of
// .dependency-cruiser.cjs holds with no exception beyond the composition roots, no import cycle of
// any kind, and every job goes through the one job helper.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import test from 'ava';
import { cruise, type IReporterOutput } from 'dependency-cruiser';
import extractTSConfig from 'dependency-cruiser/config-utl/extract-ts-config';

const require = createRequire(import.meta.url);

test('areas import only the floors below them; no import cycle', async (t) => {
  const config = require('../.dependency-cruiser.cjs');
  const result: IReporterOutput = await cruise(['src', 'rest', 'schema', 'mikro-orm.config.ts'], {
    ...config.options, ruleSet: { forbidden: config.forbidden }, validate: true, outputType: 'json',
  }, undefined, { tsConfig: extractTSConfig('tsconfig.json') });
  const output = typeof result.output === 'string' ? JSON.parse(result.output) : result.output;
  const violations = output.summary.violations.map((v: { rule: { name: string }; from: string; to: string; cycle?: { name: string }[] }) =>
    `${v.rule.name}: ${v.from} → ${v.cycle?.length ? v.cycle.map((c) => c.name).join(' → ') : v.to}`);
  t.deepEqual(violations, []);
  t.true(output.summary.totalCruised > 300, 'the whole tree was read');
});

test('every job is added through the one job helper (src/platform/jobs.ts)', (t) => {
  const files = execFileSync('git', ['grep', '-l', 'graphile_worker.add_job', '--', 'src', 'rest', 'schema'], { encoding: 'utf8' }).split('\n').filter(Boolean);
  t.deepEqual(files.filter((file) => !file.startsWith('src/migrations/') && file !== 'src/platform/jobs.ts'), []);
  t.true(readFileSync('src/platform/jobs.ts', 'utf8').includes('graphile_worker.add_job'));
});
