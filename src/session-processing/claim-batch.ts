// Claiming a batch: the received sessions whose time has come (a CPO session waiting for its next
// matching attempt has a retry_at), FOR UPDATE SKIP LOCKED, so several workers never take the same
// session; read as plain rows with what every step needs of the body. Also the claimed session as
// the pricing core sees it, and its validity checks (src/sessions/validity-checks.ts).
import { mulDivDecimal, normalize } from '../money/decimal.ts';
import { boundQuery } from '../platform/bound-sql.ts';
import type { Em } from '../platform/orm.ts';
import type { OcpiTariff } from '../pricing/ocpi/tariff.ts';
import type { PricingSession } from '../pricing/price-session.ts';
import type { ReportedChargePeriod } from '../sessions/session-energy.ts';
import { failedCheck, type ValidityThresholds } from '../sessions/validity-checks.ts';
import { Dropped } from './dropout-reasons.ts';

export interface ClaimedSession {
  id: string;
  source: 'charge_session' | 'cpo_charge_session';
  session_id: string;
  evco_id: string;
  cpo_id: string | null;
  start_at: Date;
  end_at: Date;
  received_at: Date;
  energy_kwh: string;
  idle_seconds: number;
  time_zone: string;
  country: string;
  evse_id: string | null;
  evse_uid: string | null;
  tariff_code: string | null;
  power_type: string | null;
  max_power_kw: string | null;
  cpo_cost_excl_vat: string | null;
  /** The currency the session states its amounts in (an OCPI CDR's); null: its administration's. */
  reported_currency: string | null;
  historical_tariff: OcpiTariff | null;
  charge_periods: ReportedChargePeriod[] | null;
  bypass_checks: string[];
  pricing_version: number;
  /** The administrations it belongs to so far (record-outcomes.ts): the CPO side's, the driver's side's. */
  admin_id: string | null;
  driver_admin_id: string | null;
  match_attempts: number;
  location_id: string | null;
  connector_id: string | null;
  connector_standard: string | null;
  cpms_reimbursement_excl_vat: string | null;
  /** The administrations of the credential that submitted it (null: every). */
  submitter_admin_ids: string[] | null;
  /** Whether credit movements name the session (an earlier pricing used credit). */
  credit_moved: boolean;
  /** Whether an earlier processing stored a roaming cost on it (roaming-costs.ts withdraws one no longer due). */
  had_roaming: boolean;
  /** The batch transaction's now(): what its statements write as the moment of their change. */
  transaction_at: Date;
}

const CLAIM_COLUMNS = `select id, source, session_id, evco_id, cpo_id, start_at, end_at, received_at, energy_kwh::text as energy_kwh, idle_seconds,
    time_zone, country, evse_id, evse_uid, payload->>'tariff_code' as tariff_code, lower(payload->>'power_type') as power_type,
    payload->>'max_power_kw' as max_power_kw,
    coalesce(payload->>'total_roaming_amount_excl_vat',
      case source when 'cpo_charge_session' then payload->>'total_sales_amount_excl_vat' else payload->>'total_cost_excl_vat' end) as cpo_cost_excl_vat,
    case source when 'charge_session' then payload->>'currency' end as reported_currency,
    case source when 'charge_session' then payload->'historical_tariff' end as historical_tariff, payload->'charge_periods' as charge_periods, bypass_checks, pricing_version, admin_id, driver_admin_id,
    match_attempts, payload->>'location_id' as location_id, payload->>'connector_id' as connector_id,
    payload->>'connector_standard' as connector_standard, payload->>'total_reimbursement_amount_excl_vat' as cpms_reimbursement_excl_vat, submitter_admin_ids,
    exists (select 1 from msp_monetary_credit m where m.session_id = s.id) as credit_moved, roaming_cost_excl_vat is not null as had_roaming,
    now() as transaction_at
  from msp_charge_session s`;
const CLAIM = `${CLAIM_COLUMNS} where status = 'received' and (retry_at is null or retry_at <= now())
  order by id limit $1 for update skip locked`;
const CLAIM_ONE = `${CLAIM_COLUMNS} where id = $1 and status = 'received' for update skip locked`;

/** Claims up to `limit` sessions, in id order, for the caller's transaction; or the one session `id` when it still waits (`[]` when not). */
export async function claimBatch(em: Em, limit: number, id?: string): Promise<ClaimedSession[]> {
  const sessions = await boundQuery<ClaimedSession>(em, id === undefined ? CLAIM : CLAIM_ONE, [id ?? limit]);
  for (const s of sessions) {
    s.start_at = new Date(s.start_at);
    s.end_at = new Date(s.end_at);
    s.received_at = new Date(s.received_at);
  }
  return sessions;
}

/** The session as the pricing core (and reimbursement, roaming) sees it. */
export function pricingFacts(session: ClaimedSession): PricingSession {
  return {
    start: session.start_at, end: session.end_at, energyKwh: normalize(session.energy_kwh),
    parkingMinutes: mulDivDecimal(String(session.idle_seconds), '1', '60'), timeZone: session.time_zone, country: session.country,
    cpoPartyId: session.cpo_id ?? undefined, tariffCode: session.tariff_code ?? undefined,
    currentType: session.power_type === null ? undefined : session.power_type === 'dc' ? 'DC' : 'AC',
    powerKw: session.max_power_kw ?? undefined, cpoCostExclVat: session.cpo_cost_excl_vat ?? undefined,
  };
}

/** The first failing validity check the session does not bypass is its drop-out. */
export function checkValidity(session: ClaimedSession, limits: ValidityThresholds): void {
  const failed = failedCheck({ startAt: session.start_at, endAt: session.end_at, energyKwh: session.energy_kwh, receivedAt: session.received_at },
    limits, session.bypass_checks);
  if (failed) throw new Dropped(`validity_${failed.check}`, failed.message, failed.check);
}
