// A backfill's batches and the billing of sessions being priced are serialized per administration.
// Without it a batch read a session in its statement's snapshot while a repricing billed the new
// version beside it (neither saw the other's uncommitted item, and the unique key holds the
// version): the session was billed twice, or at its old price. A batch holds its lane's lock
// exclusively; a pricing transaction holds every lane's lock of the administrations it bills,
// shared, from before it reads what to bill to its commit. So batches (of other lanes) run side by
// side, pricing batches too, and a batch reads only what the pricing transactions before it
// committed. Two-key form, a class of its own (the drop-out groups' is 736400120, the startup
// lock single-key 736400121).
import pg from 'pg';
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

// One run of an administration's backfill at a time (since 2026-11-29, found by probing): lanes of
// two runs bill overlapping ranges (the runs' batches fall differently), and the lane lock does not
// keep them apart (another lane's key). A batch of one run marked a session new while the other
// run's batch had not committed its item, then found that item committed and billed the session
// again as the next version beside it; both runs wrote the progress row. A run holds its
// administration's run lock from before it counts to its end: a session-level advisory lock on a
// connection of its own, not the pool's (the worker's pool is shared with session processing, and
// a run's two lanes use two of it), released when the run ends or the connection goes (a process
// killed meanwhile). Pricing never takes it. Two-key form, a class of its own (after the review-set
// turn's 736400133).
const RUN_LOCK_CLASS = 736400134;

/**
 * Runs `work` holding the administration's backfill run lock; when another run holds it, answers
 * `{ ran: false }` at once without running `work` (the caller tries again later: a job waiting for
 * the lock would hold up its runner's other jobs for the length of the other run).
 */
export async function asOnlyBackfillRun<T>(em: Em, adminId: string, work: () => Promise<T>): Promise<{ ran: true; value: T } | { ran: false }> {
  const client = new pg.Client({ connectionString: String(em.config.get('clientUrl')) });
  client.on('error', () => {});
  await client.connect();
  try {
    const { rows } = await client.query<{ locked: boolean }>('select pg_try_advisory_lock($1, hashtext(lower($2::text))) as locked', [RUN_LOCK_CLASS, adminId]);
    if (!rows[0]?.locked) return { ran: false };
    return { ran: true, value: await work() };
  } finally {
    await client.end().catch(() => {});
  }
}
