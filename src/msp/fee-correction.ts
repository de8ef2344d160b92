// The recurring cost correction of MSP subscriptions (`recurring_cost_correction: true` on an update
// or a plan-or-customer correction): billing's fee source bills the periods already billed again,
// in the change's transaction. And, with or without it, the started periods a subscription created
// or changed covers that hold no fee of it yet are billed (since 2026-11-28: a period closed before
// the subscription reached into it had billed none of its fees). A subscription made defunct has its
// fees withdrawn from every period (src/billing/withdraw-fees.ts). Billing is a floor above msp: the composition
// roots register its functions here (src/item-sources.ts); without them (a root that runs no billing)
// nothing is billed.
import type { Em } from '../platform/orm.ts';

/** Bills the periods holding fees of `billedOf` that end after `from` again, for `subscriptionIds`. */
export type FeeRecollection = (em: Em, adminId: string, billedOf: string, subscriptionIds: string[], from: Date) => Promise<void>;

/**
 * Bills the started periods `subscriptionIds` cover that hold no fee of theirs yet; `predecessors`:
 * per subscription, those whose fees in a period count as its own (a correction's old subscription).
 */
export type UnbilledFeeBilling = (em: Em, adminId: string, subscriptionIds: string[], predecessors?: Record<string, string[]>) => Promise<void>;

/** Withdraws the fees billed to `subscriptionIds` in any period (a defunct subscription bills nothing). */
export type FeeWithdrawal = (em: Em, adminId: string, subscriptionIds: string[]) => Promise<void>;

let recollection: FeeRecollection | null = null;
let unbilled: UnbilledFeeBilling | null = null;
let withdrawal: FeeWithdrawal | null = null;

export function registerFeeRecollection(fn: FeeRecollection, unbilledFees?: UnbilledFeeBilling, withdrawFees?: FeeWithdrawal): void {
  recollection = fn;
  unbilled = unbilledFees ?? null;
  withdrawal = withdrawFees ?? null;
}

export async function recollectFees(em: Em, adminId: string, billedOf: string, subscriptionIds: string[], from: Date): Promise<void> {
  await recollection?.(em, adminId, billedOf, subscriptionIds, from);
}

export async function billUnbilledFees(em: Em, adminId: string, subscriptionIds: string[], predecessors?: Record<string, string[]>): Promise<void> {
  await unbilled?.(em, adminId, subscriptionIds, predecessors);
}

export async function withdrawSubscriptionFees(em: Em, adminId: string, subscriptionIds: string[]): Promise<void> {
  await withdrawal?.(em, adminId, subscriptionIds);
}
