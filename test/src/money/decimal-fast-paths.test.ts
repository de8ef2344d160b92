// roundToCurrency, percentOfDecimal, sumCurrency, addCurrency, mulDivDecimal and isZero compute plain operands in micro-units
// (a box list computes a few thousand of them a page): each gives decimal.js's text, negative
// zeros ("-0.00") included, on random operands and on the edges.
import test from 'ava';
import { Decimal } from 'decimal.js';
import moneyMath from 'money-math';
import { addCurrency, isZero, mulDivDecimal, normalize, percentOfDecimal, roundToCurrency, sumCurrency } from '../../../src/money/decimal.ts';

const D = Decimal.clone({ precision: 40, rounding: Decimal.ROUND_HALF_UP });

function random(seed: number): () => number {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
const next = random(25);

/** Decimal text of at most 14 integer digits and 6 decimals: halves, zeros, negative zeros, large. */
function operand(): string {
  const sign = next() < 0.3 ? '-' : '';
  const decimals = Math.floor(next() * 7);
  const int = String(Math.floor(next() * 10 ** Math.floor(next() * 15)));
  const frac = Array.from({ length: decimals }, () => (next() < 0.3 ? '5' : String(Math.floor(next() * 10)))).join('');
  return `${sign}${int}${decimals ? `.${frac}` : ''}`;
}
const EDGES = ['0', '-0', '0.00', '-0.00', '-0.001', '-0.005', '0.005', '-0.004999', '0.000001', '-0.000001', '99999999999999.999999', '-99999999999999.995'];

test('the fast paths give decimal.js\'s text', (t) => {
  const values = [...EDGES, ...Array.from({ length: 3000 }, operand)];
  for (const [i, value] of values.entries()) {
    t.is(roundToCurrency(value), new D(value).toDecimalPlaces(2, Decimal.ROUND_HALF_UP).toFixed(2), value);
    t.is(roundToCurrency(value, 0), new D(value).toDecimalPlaces(0, Decimal.ROUND_HALF_UP).toFixed(0), value);
    t.is(isZero(value), new D(value).isZero(), value);
    const percent = i % 5 === 0 ? pick(['0', '21', '9', '-0', '6.5', '0.000001']) : operand();
    t.is(percentOfDecimal(value, percent), new D(value).times(percent).dividedBy(100).toFixed(6), `${value} × ${percent}%`);
    const some = [value, values[(i * 7) % values.length], values[(i * 13) % values.length]];
    const [a, b] = [roundToCurrency(value), roundToCurrency(values[(i * 7) % values.length])];
    t.is(addCurrency(a, b), moneyMath.add(a, b), `${a} + ${b}`);
    const divisor = values[(i * 13) % values.length];
    if (!new D(divisor).isZero()) {
      t.is(mulDivDecimal(value, percent, divisor), normalize(new D(value).times(percent).dividedBy(divisor).toFixed(6)), `${value} × ${percent} ÷ ${divisor}`);
    }
    t.is(sumCurrency(some), some.reduce((acc, v) => acc.plus(v), new D(0)).toFixed(2), some.join(' + '));
  }
});

function pick<T>(list: T[]): T {
  return list[Math.floor(next() * list.length)];
}
