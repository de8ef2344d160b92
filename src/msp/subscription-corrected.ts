// A plan-or-customer correction changes what the old subscription's sessions since its moment
// should have cost: it adds this job in its own transaction, and the session worker reprices them
// (src/sessions/reprocess.service.ts, repriceCorrectedSessions).
export const SUBSCRIPTION_CORRECTED = 'subscription_corrected';

export interface SubscriptionCorrectedJob {
  /** The committed correction: its old subscription and its moment say which sessions. */
  correction_id: string;
}

export function isSubscriptionCorrectedJob(payload: unknown): payload is SubscriptionCorrectedJob {
  return typeof payload === 'object' && payload !== null && typeof (payload as SubscriptionCorrectedJob).correction_id === 'string';
}
