// A reported charge session (a feed body its transport has checked) as ingestion stores it: the
// sender that is part of its identity, instants, the energy (session-energy.ts), the country in
// upper case and no idle time unless reported; one that contradicts itself (session-consistency.ts)
// is refused. Whatever transport receives sessions reads them here.
import { DomainError } from '../platform/errors.ts';
import { fieldLabel, type FieldPath } from '../platform/field-path.ts';
import { checkedTimestamp } from '../platform/timestamp.ts';
import type { SessionSource, SessionStatus } from './charge-session.entity.ts';
import { contradictionOf, type Contradiction } from './session-consistency.ts';
import { sessionEnergyKwh, type ReportedEnergy } from './session-energy.ts';

/** A session as ingestion stores it (ingest-session.service.ts). */
export interface SessionSubmission {
  source: SessionSource;
  sessionId: string;
  /** Who sent it: the CPO party (charge-session) or the EVSE (cpo-charge-session). */
  sender: string;
  cpoId: string | null;
  evcoId: string;
  startAt: Date;
  endAt: Date;
  energyKwh: string;
  idleSeconds: number;
  timeZone: string;
  country: string;
  evseId: string | null;
  evseUid: string | null;
  payload: Record<string, unknown>;
  /**
   * The roaming connection a peer's transport (OCPI) received it through: sent again, it replaces
   * only a session reported through that connection (resubmit-session.service.ts, under the row lock).
   */
  roamingConnectionId?: string;
}

export interface IngestedSession { id: string; status: SessionStatus; receivedAt: Date; duplicate: boolean }

export interface ReportedSession extends ReportedEnergy {
  session_id: string;
  evco_id: string;
  cpo_id?: string | null;
  evse_uid?: string | null;
  evse_id?: string | null;
  /** RFC 3339, already checked (checkedTimestamp). */
  start_date_time: string;
  end_date_time: string;
  total_idle_seconds?: number | null;
  time_zone: string;
  address: { country: string };
}

/** Who sent it: the CPO party (charge-session) or the EVSE (cpo-charge-session). */
export function senderOf(source: SessionSource, reported: Pick<ReportedSession, 'cpo_id' | 'evse_uid'>): string {
  return (source === 'charge_session' ? reported.cpo_id : reported.evse_uid)!;
}

/** Where a contradiction lies in a session body of the feed. */
function pathOf(contradiction: Contradiction): FieldPath {
  switch (contradiction.member) {
    case 'idle_time': return ['total_idle_seconds'];
    case 'period_start': return ['charge_periods', contradiction.index, 'start_date_time'];
    case 'total_energy': return ['total_energy_kwh'];
  }
}

/**
 * The submission, or null when the session reports no energy (neither a total nor charge periods);
 * a DomainError (validation_failed, naming the member) when it contradicts itself.
 */
export function submissionOf(source: SessionSource, reported: ReportedSession, payload: Record<string, unknown>): SessionSubmission | null {
  const energyKwh = sessionEnergyKwh(reported);
  if (energyKwh === undefined) return null;
  const startAt = checkedTimestamp(reported.start_date_time);
  const endAt = checkedTimestamp(reported.end_date_time);
  const idleSeconds = reported.total_idle_seconds ?? 0;
  const periods = reported.charge_periods ?? [];
  const contradiction = contradictionOf({
    startAt, endAt, idleSeconds, periodStarts: periods.map((period) => checkedTimestamp(period.start_date_time)),
    totalEnergyKwh: reported.total_energy_kwh ?? null, periodEnergyVolumes: periods.flatMap((period) => period.dimensions.map((d) => d.volume)),
  });
  if (contradiction) {
    const path = pathOf(contradiction);
    throw new DomainError('validation_failed', `${fieldLabel(path)} ${contradiction.message}`, { path });
  }
  return {
    source, sessionId: reported.session_id, sender: senderOf(source, reported), cpoId: reported.cpo_id ?? null, evcoId: reported.evco_id,
    startAt, endAt, energyKwh, idleSeconds, timeZone: reported.time_zone, country: reported.address.country.toUpperCase(),
    evseId: reported.evse_id ?? null, evseUid: reported.evse_uid ?? null, payload,
  };
}
