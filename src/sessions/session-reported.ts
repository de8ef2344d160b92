// What the sender reported with a session, as every representation shows it (REST session and
// pricing result, one derivation each): known fields of the stored body only, decimals by value.
import { normalize } from '../money/decimal.ts';
import type { ChargeSession } from './charge-session.entity.ts';
import { deprecatedNameOf, knownField } from './session-content.ts';

type Reported = Pick<ChargeSession, 'source' | 'sessionId' | 'payload'>;

/** A reported field by its current name, else its deprecated one (v3.50.0); null when absent or unknown to the session's endpoint. */
export function reportedField(s: Reported, name: string): unknown {
  const deprecated = deprecatedNameOf(s.source, name);
  return knownField(s.source, s.payload, name) ?? (deprecated ? knownField(s.source, s.payload, deprecated) : null);
}

const decimal = (value: unknown) => (typeof value === 'string' ? normalize(value) : null);

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
