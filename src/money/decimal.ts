// The only place that does arithmetic on amounts. money-math handles 2-decimal currency amounts
// ("12.34") only and silently returns garbage for anything else, so every input is checked;
// rates and unrounded values (up to 6 decimals) go through decimal.js.
import { Decimal } from 'decimal.js';
import moneyMath from 'money-math';
import { InvalidInputError } from '../platform/errors.ts';
import type { FieldPath } from '../platform/field-path.ts';
import { microsFromText, microsText, mulDivMicros, roundMicrosToCurrency } from './micros.ts';

const D = Decimal.clone({ precision: 40, rounding: Decimal.ROUND_HALF_UP });

export const MAX_DECIMALS = 6;
const DECIMAL_TEXT = /^-?\d{1,14}(\.\d{1,6})?$/;
const CURRENCY_TEXT = /^-?\d+\.\d{2}$/;
/**
 * A decimal with no leading zeros, no exponent and at most MAX_DECIMALS decimals, within
 * decimal.js's precision (nothing it would round): its integer part and its decimals.
 */
const PLAIN_DECIMAL = /^(-?(?:0|[1-9]\d{0,29}))(?:\.(\d{1,6}))?$/;
const TRAILING_ZEROS = /0+$/;
/** Fixed-point text that is zero ("0.00", "-0.000000"). */
const ZERO_TEXT = /^-?0(\.0*)?$/;
/** A hundred, in micro-units (percentages). */
const HUNDRED_MICROS = microsFromText('100');

/**
 * The fast paths below compute in micro-units (micros.ts: exact for DECIMAL_TEXT operands) and
 * give decimal.js's text; a zero result of a negative operand goes the slow way (decimal.js keeps
 * the sign of a negative zero: "-0.00").
 */
const fastZeroSign = (result: string, operands: string[]) => !ZERO_TEXT.test(result) || operands.every((v) => v.charCodeAt(0) !== 45);

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
  // Plain text with nothing to round (as PostgreSQL answers a numeric): the same text by string
  // steps alone. A list of a thousand results normalizes four thousand amounts a page.
  const plain = PLAIN_DECIMAL.exec(value);
  if (plain) {
    const text = `${plain[1]}.${(plain[2] ?? '').replace(TRAILING_ZEROS, '').padEnd(2, '0')}`;
    return text === '-0.00' ? '0.00' : text;
  }
  const d = new D(value);
  const fixed = d.toFixed(MAX_DECIMALS).replace(/0+$/, '');
  const [int, frac = ''] = fixed.split('.');
  const text = `${int}.${frac.padEnd(2, '0')}`;
  return text === '-0.00' ? '0.00' : text;
}

export function addDecimal(a: string, b: string): string {
  return normalize(new D(a).plus(b).toFixed(MAX_DECIMALS));
}

export function subtractDecimal(a: string, b: string): string {
  return normalize(new D(a).minus(b).toFixed(MAX_DECIMALS));
}

export function compareDecimal(a: string, b: string): number {
  return new D(a).comparedTo(b);
}

export function isNegative(value: string): boolean {
  return new D(value).isNegative() && !new D(value).isZero();
}

export function isZero(value: string): boolean {
  if (DECIMAL_TEXT.test(value)) return ZERO_TEXT.test(value);
  return new D(value).isZero();
}

/** Rounds half away from zero to the currency's minor unit (decisions.md). */
export function roundToCurrency(value: string, minorUnits = 2): string {
  if (minorUnits <= MAX_DECIMALS && DECIMAL_TEXT.test(value)) {
    const fast = roundMicrosToCurrency(microsFromText(value), minorUnits);
    if (fastZeroSign(fast, [value])) return fast;
  }
  return new D(value).toDecimalPlaces(minorUnits, Decimal.ROUND_HALF_UP).toFixed(minorUnits);
}

/** Sums of already rounded 2-decimal amounts, through money-math. */
export function addCurrency(a: string, b: string): string {
  if (!CURRENCY_TEXT.test(a) || !CURRENCY_TEXT.test(b)) throw new Error(`not a 2-decimal amount: ${a}, ${b}`);
  if (DECIMAL_TEXT.test(a) && DECIMAL_TEXT.test(b)) return roundMicrosToCurrency(microsFromText(a) + microsFromText(b), 2);
  return moneyMath.add(a, b);
}

/** a × b, rounded half away from zero to 6 decimals (unrounded amounts). */
export function multiplyDecimal(a: string, b: string): string {
  return new D(a).times(b).toFixed(MAX_DECIMALS);
}

/** `percent` % of `amount`, 6 decimals. */
export function percentOfDecimal(amount: string, percent: string): string {
  if (DECIMAL_TEXT.test(amount) && DECIMAL_TEXT.test(percent)) {
    const fast = roundMicrosToCurrency(mulDivMicros(microsFromText(amount), microsFromText(percent), HUNDRED_MICROS), MAX_DECIMALS);
    if (fastZeroSign(fast, [amount, percent])) return fast;
  }
  return new D(amount).times(percent).dividedBy(100).toFixed(MAX_DECIMALS);
}

/** The smallest multiple of `step` not below `volume` (no step or step 0: the volume itself), 6 decimals. */
export function roundUpToStep(volume: string, step: string | undefined): string {
  if (step === undefined || new D(step).isZero()) return new D(volume).toFixed(MAX_DECIMALS);
  return new D(volume).dividedBy(step).ceil().times(step).toFixed(MAX_DECIMALS);
}

/** Milliseconds as minutes, 6 decimals (a duration, not an amount, but kept exact). */
export function minutesFromMilliseconds(ms: number): string {
  return new D(ms).dividedBy(60000).toFixed(MAX_DECIMALS);
}

/** Sum of decimal strings, 6 decimals. */
export function sumDecimal(values: string[]): string {
  return values.reduce((acc, v) => acc.plus(v), new D(0)).toFixed(MAX_DECIMALS);
}

/** Sum of rounded amounts with `minorUnits` decimals. */
export function sumCurrency(values: string[], minorUnits = 2): string {
  if (minorUnits <= MAX_DECIMALS && values.every((v) => DECIMAL_TEXT.test(v))) {
    const fast = roundMicrosToCurrency(values.reduce((sum, v) => sum + microsFromText(v), 0n), minorUnits);
    if (fastZeroSign(fast, values)) return fast;
  }
  return values.reduce((acc, v) => acc.plus(v), new D(0)).toFixed(minorUnits);
}

/** a − b with `minorUnits` decimals (both already rounded). */
export function subtractCurrency(a: string, b: string, minorUnits = 2): string {
  return new D(a).minus(b).toFixed(minorUnits);
}

/** Fixed-point text with `decimals` decimals, rounded half away from zero. */
export function toFixedDecimal(value: string, decimals: number): string {
  return new D(value).toFixed(decimals, Decimal.ROUND_HALF_UP);
}

/** a × b ÷ c (c defaults to 1), kept to 6 decimals (rounded half up): unrounded amounts and volumes. */
export function mulDivDecimal(a: string, b: string, c = '1'): string {
  if (DECIMAL_TEXT.test(a) && DECIMAL_TEXT.test(b) && DECIMAL_TEXT.test(c) && !ZERO_TEXT.test(c)) {
    return microsText(mulDivMicros(microsFromText(a), microsFromText(b), microsFromText(c)));
  }
  return normalize(new D(a).times(b).dividedBy(c).toFixed(MAX_DECIMALS));
}

/** Rounds a non-negative quantity up to the next multiple of step (step > 0). */
export function ceilToMultiple(value: string, step: string): string {
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
