// eMA ID (ISO 15118-1 contract id, eMI3 / DIN SPEC 91286): country code (2 letters), provider
// id (3), eMA instance (9), optional check character; separators '-' or '*' between the parts
// are optional (all of one kind or none), letters in any case.
import { isCountryCode } from '../platform/countries.ts';
import { InvalidInputError } from '../platform/errors.ts';

export interface EvcoId {
  /** Upper case, no separators, 14 or 15 characters (as given: with or without check digit). */
  normalized: string;
  /** CC-PPP-IIIIIIIII-D for display (without -D when the input had none). */
  formatted: string;
  countryCode: string;
  providerId: string;
  instance: string;
  /** The check character given, upper-cased; null when absent. */
  checkDigit: string | null;
  /** Separators removed, casing as given: the form tokens are stored in. */
  compact: string;
}

const PATTERN = /^([A-Za-z]{2})([-*]?)([A-Za-z0-9]{3})\2([A-Za-z0-9]{9})(?:\2([A-Za-z0-9]))?$/;
const ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ';
const PARAM = ['evco_id'];

type Matrix = readonly [number, number, number, number];

function multiply(x: Matrix, y: Matrix, modulus: number): Matrix {
  return [
    (x[0] * y[0] + x[1] * y[2]) % modulus, (x[0] * y[1] + x[1] * y[3]) % modulus,
    (x[2] * y[0] + x[3] * y[2]) % modulus, (x[2] * y[1] + x[3] * y[3]) % modulus,
  ];
}

const P1: Matrix = [0, 1, 1, 1];
const P2: Matrix = [0, 1, 1, 2];
/** -P2^-15 over Z3. */
const FINAL: Matrix = [0, 2, 2, 1];

/**
 * The eMI3 "Check Digit Calculation for Contract-IDs": character k of 0-9A-Z stands for the
 * matrix [[a, b], [c, d]] with k = 18a + 9b + 3c + d; the first row is weighted by powers of
 * P1 over Z2, the second by powers of P2 over Z3, and the sums are decoded the same way.
 */
export function evcoCheckDigit(withoutCheckDigit: string): string {
  const code = withoutCheckDigit.toUpperCase();
  if (!/^[A-Z0-9]{14}$/.test(code)) {
    throw new InvalidInputError('an eMA ID without check digit has 14 letters and digits', { path: PARAM });
  }
  let p1 = P1;
  let p2 = P2;
  let q = [0, 0];
  let r = [0, 0];
  for (const char of code) {
    const k = ALPHABET.indexOf(char);
    const [a, b, c, d] = [Math.floor(k / 18), Math.floor(k / 9) % 2, Math.floor(k / 3) % 3, k % 3];
    q = [(q[0] + a * p1[0] + b * p1[2]) % 2, (q[1] + a * p1[1] + b * p1[3]) % 2];
    r = [(r[0] + c * p2[0] + d * p2[2]) % 3, (r[1] + c * p2[1] + d * p2[3]) % 3];
    p1 = multiply(p1, P1, 2);
    p2 = multiply(p2, P2, 3);
  }
  const s = [(r[0] * FINAL[0] + r[1] * FINAL[2]) % 3, (r[0] * FINAL[1] + r[1] * FINAL[3]) % 3];
  return ALPHABET[18 * q[0] + 9 * q[1] + 3 * s[0] + s[1]];
}

/** Parses an eMA ID; malformed input or a wrong check digit is 400 at evco_id. */
export function parseEvcoId(text: string): EvcoId {
  const match = PATTERN.exec(text);
  if (!match) {
    throw new InvalidInputError('evco_id must be an eMA ID: country code, 3-character provider id, 9-character instance, optional check character (separators - or * optional)', { path: PARAM });
  }
  const [, country, , provider, instance, check] = match;
  const base = `${country}${provider}${instance}`.toUpperCase();
  const checkDigit = check ? check.toUpperCase() : null;
  if (checkDigit !== null && checkDigit !== evcoCheckDigit(base)) {
    throw new InvalidInputError('the check character of evco_id is wrong', { path: PARAM });
  }
  return {
    normalized: base + (checkDigit ?? ''),
    formatted: `${base.slice(0, 2)}-${base.slice(2, 5)}-${base.slice(5)}${checkDigit ? `-${checkDigit}` : ''}`,
    countryCode: base.slice(0, 2),
    providerId: base.slice(2, 5),
    instance: base.slice(5),
    checkDigit,
    compact: `${country}${provider}${instance}${check ?? ''}`,
  };
}

/**
 * An eMA ID the service takes (a token issued with this evco_id, POST /msp-token-evco-id/validate):
 * parsed, and its country an officially assigned ISO 3166-1 alpha-2 code. Look-ups of existing
 * tokens parse leniently (parseEvcoId).
 */
export function parseNewEvcoId(text: string): EvcoId {
  const parsed = parseEvcoId(text);
  if (!isCountryCode(parsed.countryCode)) {
    throw new InvalidInputError(`evco_id starts with ${parsed.countryCode}, not an officially assigned ISO 3166-1 alpha-2 country code`, { path: PARAM });
  }
  return parsed;
}

/** What validating an eMA ID answers (REST POST /msp-token-evco-id/validate, GraphQL validateEvcoId). */
export interface EvcoIdValidation {
  normalized: string;
  formatted: string;
  countryCode: string;
  providerId: string;
  instance: string;
  /** The check character given, else the one it should have. */
  checkDigit: string;
  checkDigitPresent: boolean;
}

export function validateNewEvcoId(text: string): EvcoIdValidation {
  const parsed = parseNewEvcoId(text);
  return {
    normalized: parsed.normalized,
    formatted: parsed.formatted,
    countryCode: parsed.countryCode,
    providerId: parsed.providerId,
    instance: parsed.instance,
    checkDigit: parsed.checkDigit ?? evcoCheckDigit(parsed.normalized),
    checkDigitPresent: parsed.checkDigit !== null,
  };
}

/** The parse, or null for text that is no eMA ID (stored ids are shown even if they are odd). */
export function tryParseEvcoId(text: string): EvcoId | null {
  try {
    return parseEvcoId(text);
  } catch {
    return null;
  }
}

/** A stored evco_id with and without check digit: a look-up matches either. */
export function evcoIdVariants(text: string): string[] {
  const parsed = tryParseEvcoId(text);
  if (!parsed) return [text];
  const base = parsed.normalized.slice(0, 14);
  return [base, base + evcoCheckDigit(base)];
}
