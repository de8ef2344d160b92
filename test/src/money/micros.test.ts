// The micro-unit functions give what their decimal.ts namesakes give, on random operands.
import test from 'ava';
import { ceilToMultiple, decimalFromNumber, mulDivDecimal, normalize, roundToCurrency } from '../../../src/money/decimal.ts';
import {
  ceilToMultipleMicros, microsFromNumber, microsFromText, microsText, mulDivMicros, roundMicrosToCurrency,
} from '../../../src/money/micros.ts';
import { seededRandom } from '../../helpers/seeded-random.ts';


const next = seededRandom(11);
const pick = <T>(list: T[]): T => list[Math.floor(next() * list.length)];

/** JSON-ish numbers: prices, volumes, float sums, tiny and large, halves at the 7th decimal. */
function number(): number {
  const sign = next() < 0.2 ? -1 : 1;
  switch (Math.floor(next() * 7)) {
    case 0: return sign * Math.round(next() * 1e8) / 10 ** Math.floor(next() * 9);
    case 1: return sign * next() * 10 ** Math.floor(next() * 12);
    case 2: return sign * (Math.floor(next() * 1e6) + 0.5) / 1e6;
    case 3: return sign * pick([0, 1e-7, 5e-7, 0.0000005, 1e21, 1.5e22, 123456789012.345678, 0.1 + 0.2, 1 / 3, 2.675, 1e9 - 0.0000005, 999999999.9999995]);
    case 4: return sign * Math.floor(next() * 1e14) / 1e6;
    case 5: return sign * Math.round(next() * 100000) / 100;
    default: return sign * next() * 1e-5;
  }
}

test('microsFromNumber reads a number as decimalFromNumber does', (t) => {
  for (let i = 0; i < 50_000; i++) {
    const n = number();
    const expected = decimalFromNumber(n);
    if (microsText(microsFromNumber(n)) !== expected) t.fail(`${n}: ${microsText(microsFromNumber(n))} ≠ ${expected}`);
  }
  t.pass();
});

test('microsText writes what normalize writes', (t) => {
  for (const text of ['0', '-0', '0.000000', '-0.000001', '12.5', '12.50', '100', '-3.140000', '0.1234565', '-0.0000005', '1e-7', '2.5e+3', '99999999999999.999999']) {
    t.is(microsText(microsFromText(text)), normalize(text), text);
  }
});

test('mulDivMicros, ceilToMultipleMicros and roundMicrosToCurrency agree with decimal.ts', (t) => {
  for (let i = 0; i < 30_000; i++) {
    // Within DECIMAL_TEXT's 14 integer digits, products below 10^26.
    const within = (n: number) => (Math.abs(n) < 1e13 ? n : n / 1e12);
    const a = decimalFromNumber(within(number()));
    const b = decimalFromNumber(within(number()));
    const c = pick(['1', '3600', '100', '1000', '7', '0.3', decimalFromNumber(within(number()))]);
    if (c === '0.00') continue;
    const [ma, mb, mc] = [a, b, c].map(microsFromText);
    const product = mulDivDecimal(a, b, c);
    if (microsText(mulDivMicros(ma, mb, mc)) !== product) t.fail(`${a} × ${b} ÷ ${c}: ${microsText(mulDivMicros(ma, mb, mc))} ≠ ${product}`);
    if (i % 3 === 0 && mb > 0n && !a.startsWith('-') && microsText(ceilToMultipleMicros(ma, mb)) !== ceilToMultiple(a, b)) {
      t.fail(`ceil ${a} to ${b}: ${microsText(ceilToMultipleMicros(ma, mb))} ≠ ${ceilToMultiple(a, b)}`);
    }
    for (const units of [2, 0, 3]) {
      if (roundMicrosToCurrency(ma, units) !== roundToCurrency(a, units)) t.fail(`round ${a} to ${units}: ${roundMicrosToCurrency(ma, units)} ≠ ${roundToCurrency(a, units)}`);
    }
  }
  t.pass();
});

test('microsFromText refuses what is no number', (t) => {
  for (const text of ['NaN', 'Infinity', '', '1,5', '.5']) t.throws(() => microsFromText(text), undefined, text);
});

test('an exponent beyond what a JSON number can hold is refused, not expanded', (t) => {
  t.is(microsText(microsFromText('2.5e+21')), '2500000000000000000000.00');
  t.throws(() => microsFromText('1e999999999'), { message: /within range/ });
  t.throws(() => microsFromText('1e-401'), { message: /within range/ });
});
