// The last commit position up to which every position is settled: visible, or never to be (its
// transaction failed at commit). Commits take positions side by side, so a larger one can show
// before a smaller one; whoever reads events in position order reads up to this one (migration
// `event_positions`: it waits for the commits in progress, and new ones wait for it).
import type { Em } from '../platform/orm.ts';

/** Outside a transaction only: the lock it takes is held to the end of the caller's transaction. */
export async function settledPosition(em: Em): Promise<string> {
  if (em.isInTransaction()) throw new Error('settledPosition is called outside a transaction');
  const [{ settled }] = await em.execute<{ settled: string }[]>('select svc_event_settled_position()::text as settled');
  return settled;
}
