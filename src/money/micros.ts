// Exact decimals of at most 6 places as whole micro-units (bigint; 1n is 0.000001): for hot
// loops that would otherwise parse and print decimal text at every step (the OCPI tariff
// evaluator). Each function gives what its namesake in decimal.ts gives: the same rounding (half
// away from zero to 6 places), the same text (`microsText` is `normalize`), as long as products
// stay below 10^26 and sums below 10^33 (operands of DECIMAL_TEXT's 14 integer digits), where
// decimal.js's 40 significant digits round nothing that matters (test/src/money/micros.test.ts).

export type Micros = bigint;

const SCALE = 1_000_000n;
const SCALE_NUMBER = 1_000_000;
const DECIMAL_NUMBER_TEXT = /^(-?)(\d+)(?:\.(\d+))?(?:e([+-]?\d+))?$/i;
/** At most 6 decimals and no exponent: no rounding, no scaling. */
const PLAIN_TEXT = /^(-?)(\d{1,20})(?:\.(\d{1,6}))?$/;

export const ZERO_MICROS: Micros = 0n;
export const ONE_MICROS: Micros = SCALE;

/** n / d rounded half away from zero (d > 0). */
function divideRounded(n: bigint, d: bigint): bigint {
  const q = n / d;
  const r = n - q * d;
  if (r === 0n) return q;
  if (r > 0n) return r * 2n >= d ? q + 1n : q;
  return -r * 2n >= d ? q - 1n : q;
}

/** Decimal text (a JSON number's text included: "1e-7", "2.5e+21") rounded half away from zero to 6 places. */
export function microsFromText(text: string): Micros {
  // Stored amounts ("12.50", "0.123456"): their digits padded to 6 places are the micro-units.
  const plain = PLAIN_TEXT.exec(text);
  if (plain) {
    const micros = BigInt(plain[2] + (plain[3] ?? '').padEnd(6, '0'));
    return plain[1] ? -micros : micros;
  }
  const match = DECIMAL_NUMBER_TEXT.exec(text);
  if (!match) throw new Error(`not a decimal: ${text}`);
  const [, sign, int, frac = '', exponent = '0'] = match;
  // A JSON number's exponent is within ±400; a larger one would build a bigint of that many digits.
  if (exponent.length > 4 || Math.abs(Number(exponent)) > 400) throw new Error(`not a decimal within range: ${text}`);
  // digits × 10^(shift - 6): shift is where the decimal point moves to.
  const digits = BigInt(int + frac);
  const shift = Number(exponent) - frac.length + 6;
  let micros = shift >= 0 ? digits * 10n ** BigInt(shift) : divideRounded(digits, 10n ** BigInt(-shift));
  if (sign) micros = -micros;
  return micros;
}

/** `decimalFromNumber`: a JSON number as the shortest decimal that reads back as it, to 6 places. */
export function microsFromNumber(n: number): Micros {
  // When a whole number of micro-units reads back as n, that is n's shortest decimal (two such
  // decimals differ by 0.000001, far more than n's precision below 10^9): no text needed.
  if (n < 1e9 && n > -1e9) {
    const micros = Math.round(n * SCALE_NUMBER);
    if (micros / SCALE_NUMBER === n) return BigInt(micros);
  }
  return microsFromText(String(n));
}

/** `normalize`: at least 2 decimals, no trailing zeros beyond, never "-0.00". */
export function microsText(value: Micros): string {
  const negative = value < 0n;
  const digits = (negative ? -value : value).toString().padStart(7, '0');
  const int = digits.slice(0, -6);
  let end = 6;
  while (end > 2 && digits.charCodeAt(digits.length - 6 + end - 1) === 48) end--;
  const text = `${int}.${digits.slice(digits.length - 6, digits.length - 6 + end)}`;
  return negative ? `-${text}` : text;
}

/** `mulDivDecimal`: a × b ÷ c (c defaults to 1), rounded half away from zero to 6 places. */
export function mulDivMicros(a: Micros, b: Micros, c: Micros = SCALE): Micros {
  if (c === SCALE) return divideRounded(a * b, SCALE);
  return c > 0n ? divideRounded(a * b, c) : divideRounded(-(a * b), -c);
}

/** `ceilToMultiple`: the smallest multiple of step (> 0) not below value. */
export function ceilToMultipleMicros(value: Micros, step: Micros): Micros {
  let k = value / step;
  if (value > 0n && k * step !== value) k += 1n;
  return k * step;
}

/** `roundToCurrency`: half away from zero to `minorUnits` (at most 6) decimals, as fixed-point text. */
export function roundMicrosToCurrency(value: Micros, minorUnits = 2): string {
  const unit = 10n ** BigInt(6 - minorUnits);
  const rounded = divideRounded(value, unit);
  const negative = rounded < 0n;
  const digits = (negative ? -rounded : rounded).toString().padStart(minorUnits + 1, '0');
  const text = minorUnits ? `${digits.slice(0, -minorUnits)}.${digits.slice(-minorUnits)}` : digits;
  return negative ? `-${text}` : text;
}
