// Composition root: the item sources of the areas above billing, registered with billing's
// registry (billing defines the interface and imports nothing above it). Every root that may run
// a period (the app, the worker thread, the service, the CLI) calls `registerItemSources()` once.
import { registerPeriodSources } from './billing/period-sources.ts';
import { billCpoSubscriptionFees, CPO_SUBSCRIPTION_FEE_SOURCE } from './cpo/cpo-subscription-fee.source.ts';

export function registerItemSources(): void {
  registerPeriodSources([{ kind: CPO_SUBSCRIPTION_FEE_SOURCE, bill: billCpoSubscriptionFees }]);
}
