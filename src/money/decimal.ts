// The only place that does arithmetic on amounts. money-math handles 2-decimal currency amounts
// ("12.34") only and silently returns garbage for anything else, so every input is checked;
// rates and unrounded values (up to 6 decimals) go through decimal.js. Operands written plainly
// (at most 14 integer digits and 6 decimals, what DECIMAL_TEXT accepts and what these functions
// write) take a shorter way, the same arithmetic on whole micro-units (bigint, micros.ts): exact,
// with decimal.js's rounding (half away from zero) and text, "-0.000000" for a negative value
// that rounds to zero included; products only while far within decimal.js's 40 digits (below
// 10^26). Pricing a session calls these functions a few hundred times
// (test/src/money/decimal-reference.test.ts: the same answers as decimal.js on random operands).
import { Decimal } from 'decimal.js';
import moneyMath from 'money-math';
import { InvalidInputError } from '../platform/errors.ts';
import type { FieldPath } from '../platform/field-path.ts';
import { ceilToMultipleMicros, microsText, mulDivMicros, roundMicrosToCurrency } from './micros.ts';

const D = Decimal.clone({ precision: 40, rounding: Decimal.ROUND_HALF_UP });

/**
 * A decimal with no leading zeros, no exponent and at most MAX_DECIMALS decimals, within
 * decimal.js's precision (nothing it would round): its integer part and its decimals.
 */
const PLAIN_DECIMAL = /^(-?(?:0|[1-9]\d{0,29}))(?:\.(\d{1,6}))?$/;
const TRAILING_ZEROS = /0+$/;
const SCALE = 1_000_000n;
const POWERS = [1n, 10n, 100n, 1_000n, 10_000n, 100_000n, 1_000_000n, 10_000_000n, 100_000_000n];
const FRACTION_UNITS = [1_000_000, 100_000, 10_000, 1_000, 100, 10, 1];
/** Products of micro-units below this stand for values below 10^26. */
const PRODUCT_LIMIT = 10n ** 38n;

/**
 * Plain decimal text (-?, 1 to 14 digits, then . and 1 to 6 digits) as micro-units; undefined for
 * anything else (decimal.js takes it). The digits are read as whole numbers below 10^14, exact.
 */
function plain(value: string): bigint | undefined {
  const length = typeof value === 'string' ? value.length : 0;
  let i = length && value.charCodeAt(0) === 45 ? 1 : 0;
  const negative = i === 1;
  let int = 0;
  const intStart = i;
  for (; i < length; i++) {
    const digit = value.charCodeAt(i) - 48;
    if (digit < 0 || digit > 9) break;
    int = int * 10 + digit;
  }
  if (i === intStart || i - intStart > 14) return undefined;
  let fraction = 0;
  let decimals = 0;
  if (i < length) {
    if (value.charCodeAt(i) !== 46) return undefined;
    for (i++; i < length; i++, decimals++) {
      const digit = value.charCodeAt(i) - 48;
      if (digit < 0 || digit > 9) return undefined;
      fraction = fraction * 10 + digit;
    }
    if (decimals === 0 || decimals > 6) return undefined;
  }
  const micros = BigInt(int) * SCALE + BigInt(fraction * FRACTION_UNITS[decimals]);
  return negative ? -micros : micros;
}

const withinProducts = (product: bigint) => product < PRODUCT_LIMIT && product > -PRODUCT_LIMIT;

/** n / d rounded half away from zero (d > 0). */
function divideRounded(n: bigint, d: bigint): bigint {
  const q = n / d;
  const r = n - q * d;
  if (r === 0n) return q;
  if (r > 0n) return r * 2n >= d ? q + 1n : q;
  return -r * 2n >= d ? q - 1n : q;
}

/**
 * decimal.js's toFixed(decimals) text of a value rounded to `rounded` units of 10^-decimals: a
 * negative value that rounds to zero keeps its sign ("-0.000000").
 */
function fixedText(rounded: bigint, negative: boolean, decimals: number): string {
  const digits = (rounded < 0n ? -rounded : rounded).toString().padStart(decimals + 1, '0');
  const text = decimals ? `${digits.slice(0, -decimals)}.${digits.slice(-decimals)}` : digits;
  return negative ? `-${text}` : text;
}

/** decimal.js's toFixed(decimals) (half away from zero) of the value `exact` × 10^-places (places ≤ 8 + decimals, decimals ≤ 6). */
function fixed(exact: bigint, places: number, decimals: number): string {
  const rounded = places >= decimals ? divideRounded(exact, POWERS[places - decimals]) : exact * POWERS[decimals - places];
  return fixedText(rounded, exact < 0n, decimals);
}

/** Quotients stay far within decimal.js's 40 digits (values below 10^12), where its ceil of a quotient is exact. */
const QUOTIENT_LIMIT = 10n ** 18n;
const withinQuotients = (micros: bigint) => micros < QUOTIENT_LIMIT && micros > -QUOTIENT_LIMIT;

export const MAX_DECIMALS = 6;
const DECIMAL_TEXT = /^-?\d{1,14}(\.\d{1,6})?$/;
const CURRENCY_TEXT = /^-?\d+\.\d{2}$/;

export function isDecimalText(value: string): boolean {
  return DECIMAL_TEXT.test(value);
}

/** Whether a text is a rounded amount with exactly 2 decimals ("12.34", "-0.50"). */
export function isCurrencyText(value: string): boolean {
  return CURRENCY_TEXT.test(value);
}

/** A decimal string from a request: at most 6 decimals, no exponent, no float. */
export function parseDecimal(value: string, path: FieldPath): string {
  if (typeof value !== 'string' || !DECIMAL_TEXT.test(value)) {
    throw new InvalidInputError('must be a decimal string such as "12.50" (at most 6 decimals)', { path });
  }
  return normalize(value);
}

/** Canonical text: no trailing zeros beyond 2 decimals, "-0" as "0.00". */
export function normalize(value: string): string {
  const micros = plain(value);
  if (micros !== undefined) return microsText(micros);
  // Plain text of more integer digits, with nothing to round (as PostgreSQL answers a numeric):
  // the same text by string steps alone.
  const long = PLAIN_DECIMAL.exec(value);
  if (long) {
    const text = `${long[1]}.${(long[2] ?? '').replace(TRAILING_ZEROS, '').padEnd(2, '0')}`;
    return text === '-0.00' ? '0.00' : text;
  }
  const d = new D(value);
  const fixed = d.toFixed(MAX_DECIMALS).replace(/0+$/, '');
  const [int, frac = ''] = fixed.split('.');
  const text = `${int}.${frac.padEnd(2, '0')}`;
  return text === '-0.00' ? '0.00' : text;
}

export function addDecimal(a: string, b: string): string {
  const [ma, mb] = [plain(a), plain(b)];
  if (ma !== undefined && mb !== undefined) return microsText(ma + mb);
  return normalize(new D(a).plus(b).toFixed(MAX_DECIMALS));
}

export function subtractDecimal(a: string, b: string): string {
  const [ma, mb] = [plain(a), plain(b)];
  if (ma !== undefined && mb !== undefined) return microsText(ma - mb);
  return normalize(new D(a).minus(b).toFixed(MAX_DECIMALS));
}

export function compareDecimal(a: string, b: string): number {
  const [ma, mb] = [plain(a), plain(b)];
  if (ma !== undefined && mb !== undefined) return ma < mb ? -1 : ma > mb ? 1 : 0;
  return new D(a).comparedTo(b);
}

export function isNegative(value: string): boolean {
  const micros = plain(value);
  if (micros !== undefined) return micros < 0n;
  return new D(value).isNegative() && !new D(value).isZero();
}

export function isZero(value: string): boolean {
  const micros = plain(value);
  if (micros !== undefined) return micros === 0n;
  return new D(value).isZero();
}

/** Rounds half away from zero to the currency's minor unit (decisions.md). */
export function roundToCurrency(value: string, minorUnits = 2): string {
  const micros = plain(value);
  // toDecimalPlaces first: a value that rounds to zero is written without its sign.
  if (micros !== undefined && minorUnits >= 0 && minorUnits <= MAX_DECIMALS) return fixed(divideRounded(micros, POWERS[MAX_DECIMALS - minorUnits]), minorUnits, minorUnits);
  return new D(value).toDecimalPlaces(minorUnits, Decimal.ROUND_HALF_UP).toFixed(minorUnits);
}

/** Sums of already rounded 2-decimal amounts, through money-math. */
export function addCurrency(a: string, b: string): string {
  if (!CURRENCY_TEXT.test(a) || !CURRENCY_TEXT.test(b)) throw new Error(`not a 2-decimal amount: ${a}, ${b}`);
  const [ma, mb] = [plain(a), plain(b)];
  if (ma !== undefined && mb !== undefined) return roundMicrosToCurrency(ma + mb, 2);
  return moneyMath.add(a, b);
}

/** a × b, rounded half away from zero to 6 decimals (unrounded amounts). */
export function multiplyDecimal(a: string, b: string): string {
  const [ma, mb] = [plain(a), plain(b)];
  if (ma !== undefined && mb !== undefined && withinProducts(ma * mb)) return fixed(ma * mb, 12, MAX_DECIMALS);
  return new D(a).times(b).toFixed(MAX_DECIMALS);
}

/** `percent` % of `amount`, 6 decimals. */
export function percentOfDecimal(amount: string, percent: string): string {
  const [ma, mp] = [plain(amount), plain(percent)];
  if (ma !== undefined && mp !== undefined && withinProducts(ma * mp)) return fixed(ma * mp, 14, MAX_DECIMALS);
  return new D(amount).times(percent).dividedBy(100).toFixed(MAX_DECIMALS);
}

/** The smallest multiple of `step` not below `volume` (no step or step 0: the volume itself), 6 decimals. */
export function roundUpToStep(volume: string, step: string | undefined): string {
  const [mv, ms] = [plain(volume), step === undefined ? 0n : plain(step)];
  if (mv !== undefined && ms !== undefined && ms >= 0n && withinQuotients(mv)) return fixed(ms === 0n ? mv : ceilToMultipleMicros(mv, ms), MAX_DECIMALS, MAX_DECIMALS);
  if (step === undefined || new D(step).isZero()) return new D(volume).toFixed(MAX_DECIMALS);
  return new D(volume).dividedBy(step).ceil().times(step).toFixed(MAX_DECIMALS);
}

/** Milliseconds as minutes, 6 decimals (a duration, not an amount, but kept exact). */
export function minutesFromMilliseconds(ms: number): string {
  if (Number.isSafeInteger(ms)) return fixedText(divideRounded(BigInt(ms) * SCALE, 60_000n), ms < 0, MAX_DECIMALS);
  return new D(ms).dividedBy(60000).toFixed(MAX_DECIMALS);
}

/** The sum of plain decimal texts in micro-units; undefined when one is not plain. */
function plainSum(values: string[]): bigint | undefined {
  let sum = 0n;
  for (const value of values) {
    const micros = plain(value);
    if (micros === undefined) return undefined;
    sum += micros;
  }
  return sum;
}

/** Sum of decimal strings, 6 decimals. */
export function sumDecimal(values: string[]): string {
  const sum = plainSum(values);
  if (sum !== undefined) return fixed(sum, MAX_DECIMALS, MAX_DECIMALS);
  return values.reduce((acc, v) => acc.plus(v), new D(0)).toFixed(MAX_DECIMALS);
}

/** Sum of rounded amounts with `minorUnits` decimals. */
export function sumCurrency(values: string[], minorUnits = 2): string {
  const sum = plainSum(values);
  if (sum !== undefined && minorUnits >= 0 && minorUnits <= MAX_DECIMALS) return fixed(sum, MAX_DECIMALS, minorUnits);
  return values.reduce((acc, v) => acc.plus(v), new D(0)).toFixed(minorUnits);
}

/** a − b with `minorUnits` decimals (both already rounded). */
export function subtractCurrency(a: string, b: string, minorUnits = 2): string {
  const [ma, mb] = [plain(a), plain(b)];
  if (ma !== undefined && mb !== undefined && minorUnits >= 0 && minorUnits <= MAX_DECIMALS) return fixed(ma - mb, MAX_DECIMALS, minorUnits);
  return new D(a).minus(b).toFixed(minorUnits);
}

/** Fixed-point text with `decimals` decimals, rounded half away from zero. */
export function toFixedDecimal(value: string, decimals: number): string {
  const micros = plain(value);
  if (micros !== undefined && Number.isInteger(decimals) && decimals >= 0 && decimals <= MAX_DECIMALS) return fixed(micros, MAX_DECIMALS, decimals);
  return new D(value).toFixed(decimals, Decimal.ROUND_HALF_UP);
}

/** a × b ÷ c (c defaults to 1), kept to 6 decimals (rounded half up): unrounded amounts and volumes. */
export function mulDivDecimal(a: string, b: string, c = '1'): string {
  const [ma, mb, mc] = [plain(a), plain(b), plain(c)];
  if (ma !== undefined && mb !== undefined && mc !== undefined && mc !== 0n && withinProducts(ma * mb)) return microsText(mulDivMicros(ma, mb, mc));
  return normalize(new D(a).times(b).dividedBy(c).toFixed(MAX_DECIMALS));
}

/**
 * a × b ÷ c rounded once to the currency's minor unit: a billed amount (a quantity times a unit
 * price, a prorated fee, a converted total). mulDivDecimal's 6 decimals and then the cents rounded
 * twice: 0.999999 × 1.015001 = 1.014999984999 was 1.015000, then 1.02.
 */
export function mulDivToCurrency(a: string, b: string, c = '1', minorUnits = 2): string {
  return roundToCurrency(new D(a).times(b).dividedBy(c).toString(), minorUnits);
}

/** Rounds a non-negative quantity up to the next multiple of step (step > 0). */
export function ceilToMultiple(value: string, step: string): string {
  const [mv, ms] = [plain(value), plain(step)];
  if (mv !== undefined && ms !== undefined && ms > 0n && withinQuotients(mv)) return microsText(ceilToMultipleMicros(mv, ms));
  return normalize(new D(value).dividedBy(step).ceil().times(step).toFixed(MAX_DECIMALS));
}

/** A JSON number (e.g. a tariff price) as decimal text, without float arithmetic. */
export function decimalFromNumber(n: number): string {
  return normalize(new D(String(n)).toFixed(MAX_DECIMALS));
}

/** Rounds towards zero to the currency's minor unit: what a balance can pay without going below zero. */
export function floorToCurrency(value: string, minorUnits = 2): string {
  return new D(value).toDecimalPlaces(minorUnits, Decimal.ROUND_DOWN).toFixed(minorUnits);
}

export function minDecimal(a: string, b: string): string {
  return new D(a).comparedTo(b) <= 0 ? a : b;
}

/**
 * `total` (an amount in cents) shared out in proportion to `weights` (non-negative, not all zero):
 * each share in whole cents, the cents left by rounding down going to the largest remainders (the
 * first on a tie), so the shares add up to `total` exactly.
 */
export function allocateCurrency(total: string, weights: string[]): string[] {
  const cents = new D(total).times(100);
  const sign = cents.isNegative() ? -1 : 1;
  const whole = cents.abs();
  const sum = weights.reduce((acc, w) => acc.plus(w), new D(0));
  if (!sum.gt(0)) throw new Error('allocateCurrency needs a positive sum of weights');
  const exact = weights.map((w) => whole.times(w).div(sum));
  const shares = exact.map((e) => e.floor());
  let left = whole.minus(shares.reduce((acc, s) => acc.plus(s), new D(0)));
  const order = exact.map((e, i) => ({ i, rest: e.minus(e.floor()) })).sort((a, b) => b.rest.comparedTo(a.rest) || a.i - b.i);
  for (const { i } of order) {
    if (!left.gt(0)) break;
    shares[i] = shares[i].plus(1);
    left = left.minus(1);
  }
  return shares.map((s) => s.times(sign).div(100).toFixed(2));
}
