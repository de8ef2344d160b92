// Lists polled by `after` whose rows commit out of id order (processing batches side by side,
// ingestion statements of several processes): a page shows only ids below the feed's horizon, so
// that no row can still commit behind a poller's stored id (migration feed_horizon says how).
import type { Em } from './orm.ts';

export const FEEDS = { sessions: 1, pricingResults: 2, sessionReimbursements: 3 } as const;
export type Feed = keyof typeof FEEDS;

/**
 * `count` ids for a feed's new rows, in the writer's transaction (its floor is held to its end).
 * Its ids only: an id made otherwise could be older than a horizon a page has already passed.
 */
export async function feedIds(em: Em, feed: Feed, count: number): Promise<string[]> {
  if (!em.isInTransaction()) throw new Error('feed ids are taken in the transaction that writes their rows');
  const rows = await em.execute<{ id: string }[]>('select id::text as id from svc_feed_ids(?, ?) as id', [FEEDS[feed], count]);
  return rows.map((row) => row.id);
}

/** The bound below which a page may list the feed's rows (an id), read before the page's own statement. */
export async function feedHorizon(em: Em, feed: Feed): Promise<string> {
  const [{ horizon }] = await em.execute<{ horizon: string }[]>('select svc_feed_horizon(?)::text as horizon', [FEEDS[feed]]);
  return horizon;
}
