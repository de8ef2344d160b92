// A backfill's batches and the billing of sessions being priced are serialized per administration.
// Without it a batch read a session in its statement's snapshot while a repricing billed the new
// version beside it (neither saw the other's uncommitted item, and the unique key holds the
// version): the session was billed twice, or at its old price. A batch holds its lane's lock
// exclusively; a pricing transaction holds every lane's lock of the administrations it bills,
// shared, from before it reads what to bill to its commit. So batches (of other lanes) run side by
// side, pricing batches too, and a batch reads only what the pricing transactions before it
// committed. Two-key form, a class of its own (the drop-out groups' is 736400120, the startup
// lock single-key 736400121).
import type { Em } from '../platform/orm.ts';

const LOCK_CLASS = 736400122;
/** Lane i of a backfill takes key i % LOCK_LANES: more lanes than keys only wait for each other. */
const LOCK_LANES = 2;

/** In a backfill batch's transaction, before it reads what to bill. */
export async function lockBackfillLane(tx: Em, adminId: string, lane: number): Promise<void> {
  await tx.execute(`select pg_advisory_xact_lock(${LOCK_CLASS}, hashtext(?::text || '/' || ?::text))`, [adminId.toLowerCase(), lane % LOCK_LANES]);
}

/**
 * Waits for the backfill batches in flight of the administrations `adminsSql` selects (a query
 * with an `admin_id` column), and holds new ones off until the commit. In the billing transaction,
 * a statement of its own before the one that reads what to bill: that one must see what committed
 * while this one waited.
 */
export async function holdBackfillsOff(em: Em, adminsSql: string, params: unknown[]): Promise<void> {
  await em.execute(`select count(pg_advisory_xact_lock_shared(${LOCK_CLASS}, h)) from (select distinct hashtext(lower(a.admin_id::text) || '/' || l::text) as h
      from (${adminsSql}) a cross join generate_series(0, ${LOCK_LANES - 1}) as l where a.admin_id is not null order by h) ordered`, params);
}

/** The administrations of a JSON array of ids, for holdBackfillsOff. */
export const ADMINS_OF_JSON = 'select value as admin_id from json_array_elements_text(?::json)';
