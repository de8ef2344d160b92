// Roaming party ids (spec decisions: "a country code and three characters with an optional
// separator", `NL-TDR` = `NLTDR` = `NL*TDR`): stored and compared as five upper-case characters.
import { isCountryCode } from './countries.ts';
import { InvalidInputError } from './errors.ts';
import type { FieldPath } from './field-path.ts';

const PARTY_ID = /^([A-Za-z]{2})[-* ]?([A-Za-z0-9]{3})$/;

/**
 * A party id a client gives (a partner's cpo_ids and msp_ids, a session's cpo_id): its country part
 * an officially assigned ISO 3166-1 alpha-2 code (src/platform/countries.ts), so `XX-TDR` is refused.
 */
export function isPartyId(value: string): boolean {
  const match = PARTY_ID.exec(value.trim());
  return match !== null && isCountryCode(match[1]);
}

/** The stored form of a party id, or null when it is not one (look-ups: any two letters). */
export function normalizePartyId(value: string): string | null {
  const match = PARTY_ID.exec(value.trim());
  return match ? `${match[1]}${match[2]}`.toUpperCase() : null;
}

/** Normalized ids of a list (duplicates once); a malformed one is 400 at its index. */
export function normalizePartyIds(values: string[], path: FieldPath): string[] {
  const ids: string[] = [];
  values.forEach((value, i) => {
    const id = isPartyId(value) ? normalizePartyId(value) : null;
    if (!id) throw new InvalidInputError(`${value} is not a roaming party id (an assigned country code and three characters, e.g. NL*TDR)`, { path: [...path, i] });
    if (!ids.includes(id)) ids.push(id);
  });
  return ids;
}
