// The item sources billed per period (recurring fees): run when a period starts and again when
// its review-set closes. Billing's own (MSP subscription fees) is built in; the areas above billing
// register theirs (a `PeriodSource`): the composition roots call `registerItemSources()`
// (src/item-sources.ts), and a period refuses to run until they have, so no source goes missing
// silently. A new periodic source of an area adds one line there.
import type { Em } from '../platform/orm.ts';
import { billSubscriptionFees, SUBSCRIPTION_FEE_SOURCE, type FeePeriod } from './sources/subscription-fee.source.ts';
import { lockFeeBilling } from './fee-lock.ts';

/** A source that bills per invoicing period (idempotent: it runs again at the review-set's close). */
export interface PeriodSource {
  /** The source kind of its items. */
  kind: string;
  bill(em: Em, fp: FeePeriod): Promise<void>;
}

const BUILT_IN: PeriodSource[] = [{ kind: SUBSCRIPTION_FEE_SOURCE, bill: billSubscriptionFees }];
let registered: PeriodSource[] | null = null;

/** The periodic sources of the areas above billing, in the order they bill (replaces an earlier registration). */
export function registerPeriodSources(sources: PeriodSource[]): void {
  const kinds = [...BUILT_IN, ...sources].map((source) => source.kind);
  const twice = kinds.find((kind, i) => kinds.indexOf(kind) !== i);
  if (twice) throw new Error(`the item source ${twice} is registered twice`);
  registered = [...sources];
}

export async function billPeriodFees(em: Em, fp: FeePeriod): Promise<void> {
  if (!registered) throw new Error('no periodic item sources registered: a composition root calls registerItemSources() (src/item-sources.ts)');
  // Held already by the period start and the close, which take it before their review-set locks.
  await lockFeeBilling(em, fp.adminId);
  for (const source of [...BUILT_IN, ...registered]) await source.bill(em, fp);
}
