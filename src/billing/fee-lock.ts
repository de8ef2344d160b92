// Recurring fees of an administration are billed by one transaction at a time (since 2026-11-29,
// found by probing). The period start, a review-set's close (both bill the period's fees), and a
// contract change (its unbilled started periods, unbilled-fees.ts; the recurring cost correction)
// each read what is billed, then insert what is not. Side by side neither saw the other's
// uncommitted item, both inserted it, and the second failed on billing_item's unique key (HTTP 500,
// or a failed start or close). Each holds this lock from before it reads what is billed to its
// commit, so it reads what the one before it committed, and finds the lines billed.
// Order: a fee biller holding it may wait for a review-set or box the core locks FOR SHARE, so a
// close takes it before it locks its review-set FOR UPDATE, and the period start before it inserts
// its review-sets. Two-key form, a class of its own (after the tokens' 736400124).
import type { Em } from '../platform/orm.ts';
import { isUuid } from '../platform/ids.ts';

const LOCK_CLASS = 736400125;

function assertTransaction(em: Em): void {
  if (!em.isInTransaction()) throw new Error('the fee lock is held by the transaction that bills fees');
}

/** In the transaction that bills the administration's fees, before it reads what is billed. */
export async function lockFeeBilling(em: Em, adminId: string): Promise<void> {
  assertTransaction(em);
  await em.execute(`select pg_advisory_xact_lock(${LOCK_CLASS}, hashtext(lower(?::text)))`, [adminId]);
}

/** The fee lock of the review-set's administration (none when there is no such set), before the set is locked. */
export async function lockFeeBillingOfReviewSet(em: Em, reviewSetId: string): Promise<void> {
  assertTransaction(em);
  if (!isUuid(reviewSetId)) return;
  await em.execute(`select pg_advisory_xact_lock(${LOCK_CLASS}, hashtext(lower(r.admin_id::text))) from billing_review_set r where r.id = ?`, [reviewSetId]);
}
