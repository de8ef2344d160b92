// The only place that does arithmetic on amounts. money-math handles 2-decimal currency amounts
// ("12.34") only and silently returns garbage for anything else, so every input is checked;
// rates and unrounded values (up to 6 decimals) go through decimal.js.
import { Decimal } from 'decimal.js';
import moneyMath from 'money-math';
import { InvalidInputError } from '../platform/errors.ts';

const D = Decimal.clone({ precision: 40, rounding: Decimal.ROUND_HALF_UP });

export const MAX_DECIMALS = 6;
const DECIMAL_TEXT = /^-?\d{1,14}(\.\d{1,6})?$/;
const CURRENCY_TEXT = /^-?\d+\.\d{2}$/;

export function isDecimalText(value: string): boolean {
  return DECIMAL_TEXT.test(value);
}

/** A decimal string from a request: at most 6 decimals, no exponent, no float. */
export function parseDecimal(value: string, param: string): string {
  if (typeof value !== 'string' || !DECIMAL_TEXT.test(value)) {
    throw new InvalidInputError('must be a decimal string such as "12.50" (at most 6 decimals)', { param });
  }
  return normalize(value);
}

/** Canonical text: no trailing zeros beyond 2 decimals, "-0" as "0.00". */
export function normalize(value: string): string {
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
  return new D(value).isZero();
}

/** Rounds half away from zero to the currency's minor unit (decisions.md). */
export function roundToCurrency(value: string, minorUnits = 2): string {
  return new D(value).toDecimalPlaces(minorUnits, Decimal.ROUND_HALF_UP).toFixed(minorUnits);
}

/** Sums of already rounded 2-decimal amounts, through money-math. */
export function addCurrency(a: string, b: string): string {
  if (!CURRENCY_TEXT.test(a) || !CURRENCY_TEXT.test(b)) throw new Error(`not a 2-decimal amount: ${a}, ${b}`);
  return moneyMath.add(a, b);
}
