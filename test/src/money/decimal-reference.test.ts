// decimal.ts takes plain operands (at most 14 integer digits and 6 decimals) through whole
// micro-units: every function gives what decimal.js gives (the functions as they were before that
// shorter way, below), on random operands and on the edges: signs, zeros, halves, "-0.000000"
// (decimal-fast-paths.test.ts compares the first of them with money-math and decimal.js too).
import test from 'ava';
import { Decimal } from 'decimal.js';
import * as money from '../../../src/money/decimal.ts';

const D = Decimal.clone({ precision: 40, rounding: Decimal.ROUND_HALF_UP });
const normalizeRef = (value: string) => {
  const fixed = new D(value).toFixed(6).replace(/0+$/, '');
  const [int, frac = ''] = fixed.split('.');
  const text = `${int}.${frac.padEnd(2, '0')}`;
  return text === '-0.00' ? '0.00' : text;
};
const reference = {
  normalize: normalizeRef,
  addDecimal: (a: string, b: string) => normalizeRef(new D(a).plus(b).toFixed(6)),
  subtractDecimal: (a: string, b: string) => normalizeRef(new D(a).minus(b).toFixed(6)),
  compareDecimal: (a: string, b: string) => new D(a).comparedTo(b),
  isNegative: (a: string) => new D(a).isNegative() && !new D(a).isZero(),
  isZero: (a: string) => new D(a).isZero(),
  roundToCurrency: (a: string, m = 2) => new D(a).toDecimalPlaces(m, Decimal.ROUND_HALF_UP).toFixed(m),
  multiplyDecimal: (a: string, b: string) => new D(a).times(b).toFixed(6),
  percentOfDecimal: (a: string, b: string) => new D(a).times(b).dividedBy(100).toFixed(6),
  roundUpToStep: (v: string, s: string | undefined) => (s === undefined || new D(s).isZero() ? new D(v).toFixed(6) : new D(v).dividedBy(s).ceil().times(s).toFixed(6)),
  minutesFromMilliseconds: (ms: number) => new D(ms).dividedBy(60000).toFixed(6),
  sumDecimal: (values: string[]) => values.reduce((acc, v) => acc.plus(v), new D(0)).toFixed(6),
  sumCurrency: (values: string[], m = 2) => values.reduce((acc, v) => acc.plus(v), new D(0)).toFixed(m),
  subtractCurrency: (a: string, b: string, m = 2) => new D(a).minus(b).toFixed(m),
  toFixedDecimal: (a: string, d: number) => new D(a).toFixed(d, Decimal.ROUND_HALF_UP),
  mulDivDecimal: (a: string, b: string, c = '1') => normalizeRef(new D(a).times(b).dividedBy(c).toFixed(6)),
  ceilToMultiple: (v: string, s: string) => normalizeRef(new D(v).dividedBy(s).ceil().times(s).toFixed(6)),
};

function random(seed: number): () => number {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
const next = random(25);
const pick = <T>(list: T[]): T => list[Math.floor(next() * list.length)];
const digits = (n: number) => Array.from({ length: n }, () => Math.floor(next() * 10)).join('');

/** Decimal text: plain of every length and sign, zeros, halves at the last places, and some that are not plain. */
function operand(): string {
  const sign = next() < 0.3 ? '-' : '';
  switch (Math.floor(next() * 8)) {
    case 0: return `${sign}${digits(1 + Math.floor(next() * 14))}.${digits(1 + Math.floor(next() * 6))}`;
    case 1: return `${sign}${digits(1 + Math.floor(next() * 4))}.${digits(Math.floor(next() * 3))}`.replace(/\.$/, '');
    case 2: return `${sign}0.${'0'.repeat(Math.floor(next() * 6))}${pick(['5', '1', '4', '9', '05', '50', ''])}`.replace(/\.$/, '');
    case 3: return pick(['0', '-0', '0.00', '-0.000000', '100', '21', '0.5', '-0.5', '0.000001', '-0.000001', '99999999999999.999999', '-99999999999999.999999']);
    case 4: return `${sign}${digits(1 + Math.floor(next() * 3))}.${digits(2)}`;
    case 5: return `${sign}${digits(1 + Math.floor(next() * 9))}.${digits(7 + Math.floor(next() * 3))}`; // not plain: 7 to 9 decimals
    case 6: return pick(['1e-7', '2.5e+3', ' 1', '+1', '1.', '.5', '123456789012345.5']).trim() || '1';
    default: return `${sign}${digits(1 + Math.floor(next() * 2))}.${digits(6)}`;
  }
}

function same(t: any, name: string, args: unknown[], ours: () => unknown, theirs: () => unknown): void {
  let expected: unknown;
  let got: unknown;
  try { expected = theirs(); } catch (error) { expected = `throws ${(error as Error).name}`; }
  try { got = ours(); } catch (error) { got = `throws ${(error as Error).name}`; }
  if (got !== expected) t.fail(`${name}(${args.map((a) => JSON.stringify(a)).join(', ')}): ${String(got)} ≠ ${String(expected)}`);
}

test('every function gives what decimal.js gives', (t) => {
  for (let i = 0; i < 40_000; i++) {
    const [a, b] = [operand(), operand()];
    const m = pick([0, 1, 2, 3, 6]);
    same(t, 'normalize', [a], () => money.normalize(a), () => reference.normalize(a));
    same(t, 'addDecimal', [a, b], () => money.addDecimal(a, b), () => reference.addDecimal(a, b));
    same(t, 'subtractDecimal', [a, b], () => money.subtractDecimal(a, b), () => reference.subtractDecimal(a, b));
    same(t, 'compareDecimal', [a, b], () => money.compareDecimal(a, b), () => reference.compareDecimal(a, b));
    same(t, 'isNegative', [a], () => money.isNegative(a), () => reference.isNegative(a));
    same(t, 'isZero', [a], () => money.isZero(a), () => reference.isZero(a));
    same(t, 'roundToCurrency', [a, m], () => money.roundToCurrency(a, m), () => reference.roundToCurrency(a, m));
    same(t, 'multiplyDecimal', [a, b], () => money.multiplyDecimal(a, b), () => reference.multiplyDecimal(a, b));
    same(t, 'percentOfDecimal', [a, b], () => money.percentOfDecimal(a, b), () => reference.percentOfDecimal(a, b));
    const step = pick([undefined, '0', '0.001', '1', '0.25', '15', b.replace('-', '')]);
    same(t, 'roundUpToStep', [a, step], () => money.roundUpToStep(a, step), () => reference.roundUpToStep(a, step));
    if (step !== undefined && !new D(step).isZero()) same(t, 'ceilToMultiple', [a, step], () => money.ceilToMultiple(a, step), () => reference.ceilToMultiple(a, step));
    const ms = pick([Math.floor(next() * 1e10) * (next() < 0.2 ? -1 : 1), 1, -1, 30_000, -30_000, 90_000, 0, 1.5]);
    same(t, 'minutesFromMilliseconds', [ms], () => money.minutesFromMilliseconds(ms), () => reference.minutesFromMilliseconds(ms));
    const values = Array.from({ length: Math.floor(next() * 5) }, operand);
    same(t, 'sumDecimal', [values], () => money.sumDecimal(values), () => reference.sumDecimal(values));
    same(t, 'sumCurrency', [values, m], () => money.sumCurrency(values, m), () => reference.sumCurrency(values, m));
    same(t, 'subtractCurrency', [a, b, m], () => money.subtractCurrency(a, b, m), () => reference.subtractCurrency(a, b, m));
    same(t, 'toFixedDecimal', [a, m], () => money.toFixedDecimal(a, m), () => reference.toFixedDecimal(a, m));
    const c = pick(['1', '3600', '100', '7', '0.3', '60', b]);
    same(t, 'mulDivDecimal', [a, b, c], () => money.mulDivDecimal(a, b, c), () => reference.mulDivDecimal(a, b, c));
  }
  t.pass();
});

test('a negative value that rounds to zero keeps its sign where decimal.js keeps it', (t) => {
  t.is(money.multiplyDecimal('-0.000001', '0.1'), '-0.000000');
  t.is(money.percentOfDecimal('-0.000001', '21'), '-0.000000');
  t.is(money.subtractCurrency('0.001', '0.004'), '-0.00');
  t.is(money.roundToCurrency('-0.004'), '0.00');
  t.is(money.multiplyDecimal('-1', '0'), '0.000000');
  t.is(money.normalize('-0.000000'), '0.00');
});
