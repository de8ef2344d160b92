// A review-set numbers its boxes max + 1, so creating boxes in one review-set is serialized by a
// transaction-level advisory lock on it. Collections that only add items to existing boxes hold
// the review-set FOR SHARE and run side by side (a backfill's parallel batches).
import type { Em } from '../platform/orm.ts';

// The two-key form with a class of its own (next to the events' 736400117 and 736400118).
const KEY = `736400119, hashtext(id::text)`;

/** Locks box numbering of the review-sets `idsSql` selects (a query with an `id` column), in id order against deadlocks. */
export async function lockBoxNumbering(em: Em, idsSql: string, params: unknown[] = []): Promise<void> {
  await em.execute(`select count(pg_advisory_xact_lock(${KEY})) from (select id from (${idsSql}) ids order by id) ordered`, params);
}

/** Locks box numbering of one review-set. */
export async function lockBoxNumberingOf(em: Em, reviewSetId: string): Promise<void> {
  await lockBoxNumbering(em, 'select ?::uuid as id', [reviewSetId]);
}
