// `redocly lint` (recommended rules, redocly.yaml) over the OpenAPI document the service serves:
// no error and no warning, but for the ambiguous paths that the interface specification imposes,
// each listed here with its reason. Runs offline (no telemetry, no update check), in about 2 s.
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import test from 'ava';
import { buildOpenApi } from '../../../rest/rails/openapi.ts';
import { API_PREFIX } from '../../../rest/app.ts';
import { routes } from '../../../rest/routes.ts';

const APP_API_ROOT = 'the App API\'s paths begin with the end user id (/{end_user_id}/…, interface spec, "App API"): they have the shape of '
  + 'an Admin API path with a parameter in that place; the Admin paths, whose first segment is fixed, are matched first '
  + '(rest/routes.ts lists the App API last) and the App API tag of the document says so';

/** The ambiguous paths the spec imposes: the App API path redocly reports, and why it stays. */
const IMPOSED: Record<string, string> = {
  '/{end_user_id}/msp-charge-session': APP_API_ROOT,
  '/{end_user_id}/msp-charge-session/{chargesession_id}': APP_API_ROOT,
  '/{end_user_id}/msp-token-subscription/{subscription_id}': APP_API_ROOT,
  '/{end_user_id}/msp-token-subscription/{subscription_id}/cancel': APP_API_ROOT,
  '/{end_user_id}/msp-token-subscription/{subscription_id}/switch-plan': APP_API_ROOT,
  '/{end_user_id}/customer/{customer_id}/billing-box': APP_API_ROOT,
  '/{end_user_id}/billing-box/{id}/document/{filename}': APP_API_ROOT,
  '/{end_user_id}/msp-evse-group': APP_API_ROOT,
};

interface Problem { ruleId: string; severity: string; message: string; location: { pointer: string }[] }

const pathOf = (pointer: string) => decodeURIComponent(pointer.replace(/^#\/paths\//, '').replace(/~1/g, '/').replace(/~0/g, '~'));

test('redocly lint (recommended): no error, no warning but the listed ambiguous paths', async (t) => {
  t.timeout(60_000);
  const dir = mkdtempSync(join(tmpdir(), 'svc-redocly-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const file = join(dir, 'openapi.json');
  writeFileSync(file, JSON.stringify(buildOpenApi(routes, API_PREFIX), null, 2));
  const cli = createRequire(import.meta.url).resolve('@redocly/cli/bin/cli.js');
  const run = promisify(execFile);
  const { stdout } = await run(process.execPath, [cli, 'lint', file, '--config', 'redocly.yaml', '--format', 'json'], {
    env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true', NO_COLOR: '1' }, maxBuffer: 64 * 1024 * 1024,
  }).catch((error: { stdout?: string; stderr?: string }) => {
    // Exit 1 on errors: the report is still on stdout.
    if (error.stdout) return { stdout: error.stdout };
    throw new Error(`redocly did not run: ${error.stderr}`);
  });
  const report = JSON.parse(stdout) as { totals: { errors: number; warnings: number }; problems: Problem[] };
  const unexpected = report.problems.filter((p) => !(p.ruleId === 'no-ambiguous-paths' && IMPOSED[pathOf(p.location[0]!.pointer)]));
  t.deepEqual(unexpected.map((p) => `${p.severity} ${p.ruleId}: ${p.message} (${p.location[0]?.pointer})`), []);
  t.is(report.totals.errors, 0);
  const ambiguous = report.problems.filter((p) => p.ruleId === 'no-ambiguous-paths').map((p) => pathOf(p.location[0]!.pointer));
  t.deepEqual(ambiguous.sort(), Object.keys(IMPOSED).sort(), 'every listed path is still reported (else drop it from the list)');
});
