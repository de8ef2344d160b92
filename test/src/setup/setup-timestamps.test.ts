// `setup apply` reads timestamps and rule dates with the same strict parser as the API: an
// impossible one names its place in the file and nothing is applied.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import test from 'ava';
import pg from 'pg';
import { freshDatabaseUrl } from '../../helpers/db.ts';
import { runCli } from '../../helpers/process.ts';

let databaseUrl: string;
let dir: string;
test.before(async () => {
  databaseUrl = await freshDatabaseUrl();
  dir = mkdtempSync(join(tmpdir(), 'svc-setup-ts-'));
});
test.after.always(() => { if (dir) rmSync(dir, { recursive: true, force: true }); });

async function apply(document: unknown) {
  const file = join(dir, `setup-${Math.random().toString(36).slice(2)}.json`);
  writeFileSync(file, JSON.stringify(document));
  return runCli(['setup', 'apply', file], { DATABASE_URL: databaseUrl });
}

async function administrationCount(): Promise<number> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    return Number((await client.query('select count(*) from administration')).rows[0].count);
  } finally {
    await client.end();
  }
}

const ADMINISTRATION = { id: 'ts-ops', name: 'Timestamps', currency: 'EUR', country: 'NL' };
const vatRate = (validFrom: string) => ({ country: 'NL', vat_kind: 'standard', percentage: '21', valid_from: validFrom });
const ratePlan = (validFrom: string, dateFrom: string) => ({
  external_reference: 'TS-RATES', name: 'Rates', currency: 'EUR', admin_ids: ['ts-ops'],
  versions: [{ valid_from: validFrom, definition: { rates: { energy: { price: '0.40' } }, rules: [{ name: 'Day', match: { date_from: dateFrom }, rates: { energy: { price: '0.30' } } }] } }],
});

test.serial('an impossible timestamp or rule date names its place and applies nothing', async (t) => {
  const before = await administrationCount();
  for (const [document, place] of [
    [{ administrations: [ADMINISTRATION], vat_rates: [vatRate('2026-02-30T00:00:00Z')] }, '$.vat_rates[0].valid_from'],
    [{ administrations: [ADMINISTRATION], vat_rates: [vatRate('0000-01-01T00:00:00Z')] }, '$.vat_rates[0].valid_from'],
    [{ administrations: [ADMINISTRATION], subscription_plans: [{ external_reference: 'P', admin_id: 'ts-ops', name: 'P', publish_from: '+275760-09-13T00:00:00Z' }] },
      '$.subscription_plans[0].publish_from'],
    [{ administrations: [ADMINISTRATION], rate_plans: [ratePlan('2026-01-01T00:00:00', '2026-06-01')] }, '$.rate_plans[0].versions[0].valid_from'],
    [{ administrations: [ADMINISTRATION], rate_plans: [ratePlan('2026-01-01T00:00:00Z', '2026-02-29')] }, '$.rate_plans[0].versions[0].definition.rules[0].match.date_from'],
  ] as const) {
    const result = await apply(document);
    t.is(result.code, 1, place);
    t.true(result.stderr.includes(place), `${place}: ${result.stderr}`);
    t.regex(result.stderr, /RFC 3339|real calendar date/, place);
    t.notRegex(result.stderr, /\n\s+at /, 'no stack trace');
  }
  t.is(await administrationCount(), before, 'nothing was applied');
});

test.serial('the boundaries apply', async (t) => {
  const result = await apply({
    administrations: [ADMINISTRATION], vat_rates: [{ ...vatRate('1900-01-01T00:00:00Z'), valid_until: '9999-12-31T23:59:59.999Z' }],
    rate_plans: [ratePlan('2024-02-29T00:00:00+01:00', '2028-02-29')],
  });
  t.is(result.code, 0, result.stderr);
  t.like(JSON.parse(result.stdout.trim().split('\n').at(-1)!), { vat_rates: { created: 1 }, rate_plan_versions: { created: 1 } });
});
