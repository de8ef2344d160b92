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

export async function lockReviewSet(em: Em, id: string): Promise<ReviewSet> {
  const set = isUuid(id) ? await em.findOne(ReviewSet, { id }, { lockMode: LockMode.PESSIMISTIC_WRITE }) : null;
  if (!set) throw new DomainError('not_found', `billing review-set ${id} does not exist`);
  return set;
}
