import { LockMode } from '@mikro-orm/core';
import type { Em } from '../platform/orm.ts';
import { DomainError } from '../platform/errors.ts';
import { isUuid } from '../platform/ids.ts';
import { BillingBox } from './billing-box.entity.ts';
import { ReviewSet } from './review-set.entity.ts';

/**
 * The box, locked FOR UPDATE for the rest of the transaction: of two clients changing its state
 * at once, the second waits and then sees the first one's state (and is refused by the entity).
 * Only the box's row: its series is read after, unlocked (a join in the locking query would lock
 * the series' row too, and so serialize every transition of the series: a finalize laying out a
 * large document held the others of its series).
 */
export async function lockBox(em: Em, id: string): Promise<BillingBox> {
  const box = isUuid(id) ? await em.findOne(BillingBox, { id }, { lockMode: LockMode.PESSIMISTIC_WRITE }) : null;
  if (!box) throw new DomainError('not_found', `billing box ${id} does not exist`);
  await em.populate(box, ['series']);
  return box;
}

/**
 * A review-set's turn, taken before its row lock: exclusive by its close and approval, shared by the
 * collections that bill into it (collect-items.ts, next-open-box.ts). Row locks let new FOR SHARE
 * holders in ahead of a waiting FOR UPDATE, so collections that kept opening boxes held a close off
 * for as long as they came, the administration's fee lock held by it meanwhile (found by probing,
 * 2026-11-29); an advisory lock's queue is fair. Its own class, after the series numbering's 736400132.
 */
const REVIEW_SET_TURN = 736400133;
export const SHARE_REVIEW_SET_TURN = `pg_advisory_xact_lock_shared(${REVIEW_SET_TURN}, hashtext(lower(r.id::text)))`;

export async function lockReviewSet(em: Em, id: string): Promise<ReviewSet> {
  if (isUuid(id)) await em.execute(`select pg_advisory_xact_lock(${REVIEW_SET_TURN}, hashtext(lower(?::text)))`, [id]);
  const set = isUuid(id) ? await em.findOne(ReviewSet, { id }, { lockMode: LockMode.PESSIMISTIC_WRITE }) : null;
  if (!set) throw new DomainError('not_found', `billing review-set ${id} does not exist`);
  return set;
}
