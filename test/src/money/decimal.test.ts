// Canonical decimal text (src/money/decimal.ts `normalize`): the plain text PostgreSQL answers
// takes string steps, anything else decimal.js; both give the same text.
import test from 'ava';
import { normalize } from '../../../src/money/decimal.ts';

test('normalize: at least two decimals, no trailing zeros beyond, "-0" as "0.00"', (t) => {
  const cases: [string, string][] = [
    ['0', '0.00'], ['-0', '0.00'], ['-0.000000', '0.00'], ['0.000000', '0.00'], ['12.30', '12.30'], ['12.3', '12.30'], ['12', '12.00'],
    ['1.234500', '1.2345'], ['-5.10', '-5.10'], ['-0.50', '-0.50'], ['-0.000001', '-0.000001'], ['100.000000', '100.00'],
    ['99999999999999.999999', '99999999999999.999999'],
    // Not plain: decimal.js reads and rounds them.
    ['007.5', '7.50'], ['1.2345675', '1.234568'], ['1e3', '1000.00'], ['-1e-7', '0.00'], ['.5', '0.50'],
  ];
  for (const [value, expected] of cases) t.is(normalize(value), expected, value);
});
