// IBAN (ISO 13616) and BIC (ISO 9362) checks for direct debit mandates.
import { isCountryCode } from '../platform/countries.ts';

/** IBAN length per country, from the SWIFT IBAN registry. */
const IBAN_LENGTH: Record<string, number> = {
  AD: 24, AE: 23, AL: 28, AT: 20, AZ: 28, BA: 20, BE: 16, BG: 22, BH: 22, BI: 27, BR: 29, BY: 28,
  CH: 21, CR: 22, CY: 28, CZ: 24, DE: 22, DJ: 27, DK: 18, DO: 28, EE: 20, EG: 29, ES: 24, FI: 18,
  FK: 18, FO: 18, FR: 27, GB: 22, GE: 22, GI: 23, GL: 18, GR: 27, GT: 28, HN: 28, HR: 21, HU: 28,
  IE: 22, IL: 23, IQ: 23, IS: 26, IT: 27, JO: 30, KW: 30, KZ: 20, LB: 28, LC: 32, LI: 21, LT: 20,
  LU: 20, LV: 21, LY: 25, MC: 27, MD: 24, ME: 22, MK: 19, MN: 20, MR: 27, MT: 31, MU: 30, NI: 28,
  NL: 18, NO: 15, OM: 23, PK: 24, PL: 28, PS: 29, PT: 25, QA: 29, RO: 24, RS: 22, RU: 33, SA: 24,
  SC: 31, SD: 18, SE: 24, SI: 19, SK: 24, SM: 27, SO: 23, ST: 25, SV: 28, TL: 23, TN: 24, TR: 26,
  UA: 29, VA: 22, VG: 24, XK: 20, YE: 30,
};

export type CheckResult = { ok: true; value: string } | { ok: false; reason: string };

/** ISO 7064 MOD 97-10 over the rearranged IBAN (letters A=10..Z=35); valid when it is 1. */
function mod97(iban: string): number {
  const rearranged = iban.slice(4) + iban.slice(0, 4);
  let remainder = 0;
  for (const char of rearranged) {
    const digits = char >= 'A' ? String(char.charCodeAt(0) - 55) : char;
    for (const digit of digits) remainder = (remainder * 10 + Number(digit)) % 97;
  }
  return remainder;
}

/** Accepts spaces and lower case; answers the compact upper-case form. */
export function checkIban(input: string): CheckResult {
  const iban = input.replace(/\s+/g, '').toUpperCase();
  if (!/^[A-Z]{2}\d{2}[A-Z0-9]+$/.test(iban)) {
    return { ok: false, reason: 'iban must be a country code, two check digits and letters or digits' };
  }
  const length = IBAN_LENGTH[iban.slice(0, 2)];
  if (!length) return { ok: false, reason: `iban country ${iban.slice(0, 2)} does not use IBANs` };
  if (iban.length !== length) return { ok: false, reason: `an iban of ${iban.slice(0, 2)} has ${length} characters` };
  const check = Number(iban.slice(2, 4));
  if (check < 2 || check > 98 || mod97(iban) !== 1) return { ok: false, reason: 'iban check digits are wrong' };
  return { ok: true, value: iban };
}

/** A BIC's country: an assigned ISO 3166-1 alpha-2 code (src/platform/countries.ts), or XK, which SWIFT uses for Kosovo. */
const isBicCountry = (code: string): boolean => isCountryCode(code) || code === 'XK';

/** AAAABBCC or AAAABBCCDDD: institution, country (ISO 3166 alpha-2), location, branch. */
export function checkBic(input: string): CheckResult {
  const bic = input.toUpperCase();
  if (!/^[A-Z]{4}[A-Z]{2}[A-Z0-9]{2}([A-Z0-9]{3})?$/.test(bic)) {
    return { ok: false, reason: 'bic must have 8 or 11 characters: AAAABBCC or AAAABBCCDDD' };
  }
  if (!isBicCountry(bic.slice(4, 6))) return { ok: false, reason: `bic country ${bic.slice(4, 6)} is not a country code` };
  return { ok: true, value: bic };
}
