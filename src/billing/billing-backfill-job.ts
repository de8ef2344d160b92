// Billing what was priced before an administration had a series: a worker job added in the
// series' transaction, billed in batches (msp-session.source.ts billUnbilledSessions).
export const BILLING_BACKFILL = 'billing_backfill';

/**
 * One job waiting per administration: asked for again before it started, it is the same job (a job
 * of the key already running is left to finish, and a new one added: backfill-lock.ts keeps the two
 * runs apart).
 */
export function backfillJobKey(adminId: string): string {
  return `billing_backfill:${adminId.toLowerCase()}`;
}

export interface BillingBackfillJob { admin_id: string }

export function isBillingBackfillJob(payload: unknown): payload is BillingBackfillJob {
  return typeof payload === 'object' && payload !== null && typeof (payload as BillingBackfillJob).admin_id === 'string';
}
