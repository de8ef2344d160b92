// Billing what was priced before an administration had a series: a worker job added in the
// series' transaction, billed in batches (msp-session.source.ts billUnbilledSessions).
export const BILLING_BACKFILL = 'billing_backfill';

export interface BillingBackfillJob { admin_id: string }

export function isBillingBackfillJob(payload: unknown): payload is BillingBackfillJob {
  return typeof payload === 'object' && payload !== null && typeof (payload as BillingBackfillJob).admin_id === 'string';
}
