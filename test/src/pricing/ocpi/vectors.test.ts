import test from 'ava';
import { readdirSync, readFileSync } from 'node:fs';
import { addDecimal, mulDivDecimal, roundToCurrency } from '../../../../src/money/decimal.ts';
import { evaluateOcpiTariff, type OcpiCostLine } from '../../../../src/pricing/ocpi/evaluate-tariff.ts';

const CASES = new URL('../../../../../shared/vectors/ocpi-tariffs/cases/', import.meta.url);
const files = readdirSync(CASES).filter((f) => f.endsWith('.json')).sort();

function run(c: any) {
  // td-* fixtures say "UTC (harness uses Tz::UTC)": the zone is the first word.
  const session = { ...c.session, time_zone: String(c.session.time_zone).split(' ')[0] };
  return evaluateOcpiTariff(c.tariff, session);
}

const sumOf = (values: string[]) => values.reduce((sum, v) => addDecimal(sum, v), '0');

const billedMinutes = (lines: OcpiCostLine[], dimension: string) =>
  roundToCurrency(mulDivDecimal(sumOf(lines.filter((l) => l.dimension === dimension && !l.reservation).map((l) => l.billedVolume)), '1', '60'), 0);

/** Where the source breaks the cost down per plain dimension, our lines agree per dimension (to the cent). */
function assertLines(t: any, lines: OcpiCostLine[], expectedLines: any[] | undefined) {
  if (!expectedLines?.length || expectedLines.some((l) => String(l.dimension).includes('(') || l.cost_excl_vat == null)) return;
  for (const dimension of new Set(expectedLines.map((l) => String(l.dimension)))) {
    const ours = sumOf(lines.filter((l) => l.dimension === dimension).map((l) => l.amountExclVat));
    const theirs = sumOf(expectedLines.filter((l) => l.dimension === dimension).map((l) => String(l.cost_excl_vat)));
    t.is(roundToCurrency(ours), roundToCurrency(theirs), `${dimension} excl. VAT`);
  }
}

test('every case file is covered', (t) => {
  t.true(files.length >= 40);
});

for (const file of files) {
  const c = JSON.parse(readFileSync(new URL(file, CASES), 'utf8'));
  test(`${c.status}: ${file}`, (t) => {
    const result = run(c);
    const expected = c.expected;
    switch (c.status) {
      case 'stated':
      case 'stated_rounded':
      case 'derived':
      case 'source_inconsistent':
      case 'conflicting_sources':
        // Compared to the cent after rounding half up; source_inconsistent follows the tariff (`expected`),
        // conflicting_sources asserts the arithmetic `expected` (local-time restrictions) rather than the CPO's CDR.
        t.is(result.totalCost.exclVat, roundToCurrency(expected.total_cost.excl_vat));
        t.is(result.totalCost.inclVat, roundToCurrency(expected.total_cost.incl_vat));
        assertLines(t, result.lines, expected.lines);
        break;
      case 'quantities_only':
        for (const [key, minutes] of Object.entries(expected.billed_quantities)) {
          const dimension = key.replace(/_minutes$/, '');
          t.is(billedMinutes(result.lines, dimension), String(minutes), key);
        }
        break;
      case 'conflicts_with_spec':
        // td-025kwh_min_price-cdr2: the library ignores min_price (0.30/0.33); OCPI bills at least
        // min_price 0.50/0.55 (as spec-t12-min-price-below-2kwh states), so we must differ.
        t.not(result.totalCost.exclVat, roundToCurrency(expected.total_cost.excl_vat));
        t.deepEqual(result.totalCost, { exclVat: '0.50', inclVat: '0.55' });
        t.true(result.explanation.some((e) => e.startsWith('min_price')));
        break;
      default:
        t.fail(`unknown status ${c.status}`);
    }
  });
}
