// The CPO side of a session: a session of POST /cpo-charge-session is matched to its EVSE, location
// and connector (src/cpo/match-session.ts; a miss waits for a later attempt, then drops out) and
// reimbursed to the EVSE owners (src/cpo/reimburse-session.ts; the records are written with the
// batch's outcomes). An EVSE being configured (dropout_all_chargesessions) takes no session of either side.
import type { Evse } from '../cpo/evse.entity.ts';
import { matchSession, nextMatchAttempt, type MatchRetryPolicy } from '../cpo/match-session.ts';
import { ReimbursementFailure, reimburseSession, type ReimbursementDraft } from '../cpo/reimburse-session.ts';
import type { ReimbursedSession } from '../cpo/save-session-reimbursements.ts';
import type { BatchContext } from './batch-context.ts';
import { pricingFacts, type ClaimedSession } from './claim-batch.ts';
import { Dropped } from './dropout-reasons.ts';
import type { SessionOutcome } from './record-outcomes.ts';

/** A CPO session's matching, retried with back-off (outcome stays `received`, null) until the last attempt drops it out. */
export function matchCpoSession(session: ClaimedSession, evse: Evse | undefined, outcome: SessionOutcome, policy: MatchRetryPolicy, now: Date) {
  const match = matchSession(session, evse);
  if (match.matched) {
    Object.assign(outcome, { matched_evse_id: match.evse.id, location_id: match.location.locationId, connector_id: match.connector?.id ?? null });
    return match;
  }
  outcome.match_attempts = session.match_attempts + 1;
  const next = nextMatchAttempt(policy, outcome.match_attempts, now);
  if (next) {
    Object.assign(outcome, { status: 'received', retry_at: next.toISOString() });
    return null;
  }
  throw new Dropped(match.reason, `${match.message} (after ${outcome.match_attempts} attempts)`, match.evseUid);
}

export type Match = NonNullable<ReturnType<typeof matchCpoSession>>;

/** An EVSE being configured (dropout_all_chargesessions) drops out every session at it. */
export function checkEvse(evse: Evse | undefined): void {
  if (evse?.dropoutAllChargesessions) {
    throw new Dropped('evse_dropout_all_chargesessions', `EVSE ${evse.evseUid} is being configured (dropout_all_chargesessions)`, evse.evseUid);
  }
}

/** The reimbursements of a matched session; a failure is its drop-out. */
export function reimburse(context: BatchContext, session: ClaimedSession, match: Match): ReimbursementDraft[] {
  try {
    return reimburseSession(context.reimbursement, match.evse, pricingFacts(session), session.cpms_reimbursement_excl_vat);
  } catch (error) {
    if (error instanceof ReimbursementFailure) throw new Dropped(error.reason, error.message, match.evse.evseUid);
    throw error;
  }
}

/** What the reimbursement records of a matched session are written from. */
export function reimbursedSession(session: ClaimedSession, match: Match, drafts: ReimbursementDraft[]): ReimbursedSession {
  const { evse, location, connector } = match;
  return {
    sessionId: session.id, startAt: session.start_at, endAt: session.end_at, tariffCode: session.tariff_code, chargingPeriods: session.charge_periods ?? [],
    drafts,
    evse: {
      evse_uid: evse.evseUid, evse_id: evse.evseId ?? null, location_id: location.locationId, connector_id: connector?.id ?? null,
      address: { street: location.street ?? null, postal_code: location.postalCode ?? null, city: location.city ?? null, country: location.country ?? null },
    },
  };
}
