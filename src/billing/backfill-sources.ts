// The sources a backfill bills (backfill-ranges.ts): billing's own (priced MSP sessions) is built
// in; the areas above billing register theirs (CPO reimbursements, roaming) from the composition
// roots (`registerItemSources()`, src/item-sources.ts), and a backfill refuses to run until they
// have, so no source goes missing silently.
import type { BackfillSource } from './backfill-ranges.ts';
import { MSP_SESSION_BACKFILL } from './sources/msp-session.source.ts';

const BUILT_IN: BackfillSource[] = [MSP_SESSION_BACKFILL];
let registered: BackfillSource[] | null = null;

/** The backfill sources of the areas above billing (replaces an earlier registration). */
export function registerBackfillSources(sources: BackfillSource[]): void {
  const kinds = [...BUILT_IN, ...sources].map((source) => source.kind);
  const twice = kinds.find((kind, i) => kinds.indexOf(kind) !== i);
  if (twice) throw new Error(`the backfill source ${twice} is registered twice`);
  registered = [...sources];
}

/** Every source a backfill bills, in order. */
export function backfillSources(): BackfillSource[] {
  if (!registered) throw new Error('no backfill sources registered: a composition root calls registerItemSources() (src/item-sources.ts)');
  return [...BUILT_IN, ...registered];
}
