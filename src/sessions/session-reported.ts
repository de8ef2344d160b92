// What the sender reported with a session, as every representation shows it (REST session and
// pricing result, one derivation each): known fields of the stored body only, decimals by value.
import { normalize } from '../money/decimal.ts';
import type { ChargeSession } from './charge-session.entity.ts';
import { DEPRECATED_ALIASES, deprecatedNameOf, knownField, SESSION_FIELDS } from './session-content.ts';

type Reported = Pick<ChargeSession, 'source' | 'sessionId' | 'payload'>;

/** A reported field by its current name, else its deprecated one (v3.50.0); null when absent or unknown to the session's endpoint. */
export function reportedField(s: Reported, name: string): unknown {
  const deprecated = deprecatedNameOf(s.source, name);
  return knownField(s.source, s.payload, name) ?? (deprecated ? knownField(s.source, s.payload, deprecated) : null);
}

const decimal = (value: unknown) => (typeof value === 'string' ? normalize(value) : null);

/**
 * The fields of a stored body the REST session representation reads (this module's readers and the
 * address); a CPO session's also its tariff code and charge periods. A list that shows only these
 * reads its bodies without the other fields either endpoint knows (`unreadFields`), so a page does
 * not parse what it does not show (charge periods are most of a large body). A field these
 * representations read must be named here.
 */
export const SESSION_REPORTED_FIELDS: readonly string[] = ['cpo_session_id', 'cpo_cdr_id', 'connector_standard', 'connector_format', 'address', 'remark',
  'total_roaming_amount_excl_vat', 'total_roaming_flat_amount_excl_vat', 'total_roaming_energy_amount_excl_vat', 'total_roaming_time_amount_excl_vat',
  'total_roaming_reservation_amount_excl_vat', 'total_roaming_amount_incl_vat'];
export const CPO_SESSION_REPORTED_FIELDS: readonly string[] = [...SESSION_REPORTED_FIELDS, 'tariff_code', 'charge_periods'];

/** The fields either endpoint knows (their deprecated names included) that a reader of `read` does not read. */
export function unreadFields(read: readonly string[]): string[] {
  const known = new Set(Object.values(SESSION_FIELDS).flatMap((shape) => Object.keys(shape)));
  const wanted = new Set(read.flatMap((name) => [name, ...Object.keys(DEPRECATED_ALIASES).filter((old) => DEPRECATED_ALIASES[old] === name)]));
  return [...known].filter((name) => !wanted.has(name));
}

/** The CPO's id of the session: `cpo_session_id` when the sender names it, else the session id it sent. */
export function cpoSessionIdOf(s: Reported): string {
  const named = knownField(s.source, s.payload, 'cpo_session_id');
  return typeof named === 'string' && named !== '' ? named : s.sessionId;
}

/** Roaming amounts as reported by the CPMS or in a CDR (stored as reported, shown as exact decimals). */
export function reportedRoamingAmounts(s: Reported) {
  return {
    total_roaming_amount_excl_vat: decimal(reportedField(s, 'total_roaming_amount_excl_vat')),
    total_roaming_flat_amount_excl_vat: decimal(reportedField(s, 'total_roaming_flat_amount_excl_vat')),
    total_roaming_energy_amount_excl_vat: decimal(reportedField(s, 'total_roaming_energy_amount_excl_vat')),
    total_roaming_time_amount_excl_vat: decimal(reportedField(s, 'total_roaming_time_amount_excl_vat')),
    total_roaming_reservation_amount_excl_vat: decimal(reportedField(s, 'total_roaming_reservation_amount_excl_vat')),
    total_roaming_amount_incl_vat: decimal(reportedField(s, 'total_roaming_amount_incl_vat')),
  };
}
