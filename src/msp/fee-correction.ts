// The recurring cost correction of MSP subscriptions (`recurring_cost_correction: true` on an update
// or a plan-or-customer correction): billing's fee source bills the periods already billed again,
// in the change's transaction. Billing is a floor above msp: the composition roots register its
// function here (src/item-sources.ts); without one (a root that runs no billing) nothing is billed.
import type { Em } from '../platform/orm.ts';

/** Bills the periods holding fees of `billedOf` that end after `from` again, for `subscriptionIds`. */
export type FeeRecollection = (em: Em, adminId: string, billedOf: string, subscriptionIds: string[], from: Date) => Promise<void>;

let recollection: FeeRecollection | null = null;

export function registerFeeRecollection(fn: FeeRecollection): void {
  recollection = fn;
}

export async function recollectFees(em: Em, adminId: string, billedOf: string, subscriptionIds: string[], from: Date): Promise<void> {
  await recollection?.(em, adminId, billedOf, subscriptionIds, from);
}
