// Composition root: the item sources of the areas above billing, registered with billing's
// registry (billing defines the interface and imports nothing above it). Every root that may run
// a period (the app, the worker thread, the service, the CLI) calls `registerItemSources()` once.
import { registerBackfillSources } from './billing/backfill-sources.ts';
import { registerPeriodSources } from './billing/period-sources.ts';
import { CPO_REIMBURSEMENT_BACKFILL } from './cpo/cpo-reimbursement.source.ts';
import { billCpoSubscriptionFees, CPO_SUBSCRIPTION_FEE_SOURCE } from './cpo/cpo-subscription-fee.source.ts';
import { ROAMING_BACKFILL } from './roaming/roaming.source.ts';
import { billUnbilledSubscriptionFees, recollectSubscriptionFees, SUBSCRIPTION_FEE_SOURCE } from './billing/sources/subscription-fee.source.ts';
import { withdrawFees } from './billing/withdraw-fees.ts';
import { registerFeeRecollection } from './msp/fee-correction.ts';

export function registerItemSources(): void {
  registerPeriodSources([{ kind: CPO_SUBSCRIPTION_FEE_SOURCE, bill: billCpoSubscriptionFees }]);
  registerBackfillSources([CPO_REIMBURSEMENT_BACKFILL, ROAMING_BACKFILL]);
  registerFeeRecollection(recollectSubscriptionFees, billUnbilledSubscriptionFees,
    (em, adminId, subscriptionIds) => withdrawFees(em, SUBSCRIPTION_FEE_SOURCE, adminId, subscriptionIds));
}
