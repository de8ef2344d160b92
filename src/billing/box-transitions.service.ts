// The state changes of a single box, one per use case: each locks the box, lets the entity
// refuse an illegal move (400 invalid_state), flushes once and answers the box as data.
import type { Em } from '../platform/orm.ts';
import { addFollowUpJob } from '../platform/jobs.ts';
import type { BillingBox, PaymentOptions } from './billing-box.entity.ts';
import { getBox, type BoxData } from './billing-box.queries.ts';
import { deleteDrafts } from './document-store.ts';
import { lockBox } from './lock-box.ts';
import { RENDER_DRAFT } from './render-draft-job.ts';

async function transition(em: Em, id: string, change: (box: BillingBox, tx: Em) => void | Promise<void>): Promise<BoxData> {
  await em.transactional(async (tx) => {
    const box = await lockBox(tx, id);
    await change(box, tx);
    await tx.flush();
  });
  return getBox(em, id);
}

/** Approval starts invoicing: the draft is rendered by the worker unless an external system supplies the documents. */
export async function approveLocked(tx: Em, box: BillingBox, now: Date, options: PaymentOptions = {}): Promise<void> {
  box.approve(now, options);
  if (box.series.documentSource === 'service') await addFollowUpJob(tx, RENDER_DRAFT, { box_id: box.id });
}

export const closeBox = (em: Em, id: string, options: PaymentOptions = {}) => transition(em, id, (box) => box.close(new Date(), options));
export const approveBox = (em: Em, id: string, options: PaymentOptions = {}) =>
  transition(em, id, (box, tx) => approveLocked(tx, box, new Date(), options));
/** A reopened box's draft shows what it held before: it goes (approval renders a new one). */
export const reopenBox = (em: Em, id: string) => transition(em, id, async (box, tx) => {
  box.reopen();
  await deleteDrafts(tx, box.id);
});
export const deferBox = (em: Em, id: string) => transition(em, id, async (box, tx) => {
  await tx.populate(box, ['reviewSet']);
  box.defer();
});
export const undeferBox = (em: Em, id: string) => transition(em, id, (box) => box.undefer());
export const markBoxTransferred = (em: Em, id: string) => transition(em, id, (box) => box.markTransferred(new Date()));
