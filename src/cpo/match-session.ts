// Matching a CPO session to its EVSE, location and connector (spec, "Charge session processing").
// The EVSE is found by the batch (its uid, else the EVSE ID's holder at the start); this decides
// location and connector. A failure is retried with back-off while the configuration may still
// arrive (SVC_MATCH_RETRIES attempts, SVC_MATCH_RETRY_SECONDS doubling), then becomes a drop-out.
import type { Connector, Evse } from './evse.entity.ts';
import type { EvseLocation } from './evse-location.entity.ts';

/** The drop-out reasons of matching (after the last attempt). */
export const MATCH_FAILURE_REASONS = ['evse_not_found', 'location_not_found', 'connector_not_found'] as const;
export type MatchFailureReason = (typeof MATCH_FAILURE_REASONS)[number];

export interface SessionToMatch {
  evse_uid: string | null;
  evse_id: string | null;
  location_id: string | null;
  connector_id: string | null;
  connector_standard: string | null;
}

export type MatchOutcome =
  | { matched: true; evse: Evse; location: EvseLocation; connector: Connector | null }
  | { matched: false; reason: MatchFailureReason; message: string; evseUid: string };

export function matchSession(session: SessionToMatch, evse: Evse | undefined): MatchOutcome {
  const named = session.evse_uid ?? session.evse_id ?? '';
  if (!evse) return { matched: false, reason: 'evse_not_found', message: `no EVSE ${named} is known`, evseUid: named };
  const location = evse.location;
  if (!location) return { matched: false, reason: 'location_not_found', message: `EVSE ${evse.evseUid} belongs to no location`, evseUid: evse.evseUid };
  if (session.location_id && session.location_id.toLowerCase() !== location.locationId.toLowerCase()) {
    return { matched: false, reason: 'location_not_found', message: `EVSE ${evse.evseUid} is not at location ${session.location_id}`, evseUid: evse.evseUid };
  }
  const connectors = evse.connectors ?? [];
  let connector: Connector | null = null;
  if (session.connector_id) {
    connector = connectors.find((c) => c.id.toLowerCase() === session.connector_id!.toLowerCase()) ?? null;
    if (!connector) return { matched: false, reason: 'connector_not_found', message: `EVSE ${evse.evseUid} has no connector ${session.connector_id}`, evseUid: evse.evseUid };
  } else if (session.connector_standard) {
    connector = connectors.find((c) => c.standard?.toLowerCase() === session.connector_standard!.toLowerCase()) ?? null;
    if (!connector) {
      return { matched: false, reason: 'connector_not_found', message: `EVSE ${evse.evseUid} has no ${session.connector_standard} connector`, evseUid: evse.evseUid };
    }
  } else if (connectors.length === 0) {
    return { matched: false, reason: 'connector_not_found', message: `EVSE ${evse.evseUid} has no connectors`, evseUid: evse.evseUid };
  } else if (connectors.length === 1) {
    [connector] = connectors;
  }
  return { matched: true, evse, location, connector };
}

export interface MatchRetryPolicy { retries: number; baseSeconds: number }

export function matchRetryPolicyFromEnv(env: NodeJS.ProcessEnv = process.env): MatchRetryPolicy {
  const retries = Number(env.SVC_MATCH_RETRIES ?? 3);
  const baseSeconds = Number(env.SVC_MATCH_RETRY_SECONDS ?? 60);
  return {
    retries: Number.isInteger(retries) && retries >= 0 && retries <= 20 ? retries : 3,
    baseSeconds: Number.isFinite(baseSeconds) && baseSeconds > 0 && baseSeconds <= 86_400 ? baseSeconds : 60,
  };
}

/** When attempt `attempts` (1 = the first) failed: the moment of the next one, or null when it was the last. */
export function nextMatchAttempt(policy: MatchRetryPolicy, attempts: number, now: Date): Date | null {
  if (attempts > policy.retries) return null;
  return new Date(now.getTime() + policy.baseSeconds * 1000 * 2 ** (attempts - 1));
}
