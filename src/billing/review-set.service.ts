// Review-set use cases (extensions, decisions.md): closing collects the period's subscription
// fees first, then closes every open box of the set; approving approves its closed boxes that
// are not deferred. One transaction each, the set locked FOR UPDATE (a close after the
// administration's fee lock, fee-lock.ts).
//
// Over HTTP both run as a job (a set of 10,000 boxes takes longer than a request may wait for the
// database, decisions "Running the service"): the request records a pending operation and starts
// the job (`requestReviewSetOperation`); the worker runs the set's pending operations in the order
// asked for (`runReviewSetOperations`); the caller follows the operation until it is done or failed.
import { LockMode, UniqueConstraintViolationException } from '@mikro-orm/core';
import { runAs } from '../events/actor-context.ts';
import { DomainError } from '../platform/errors.ts';
import { addFollowUpJob } from '../platform/jobs.ts';
import { isUuid } from '../platform/ids.ts';
import type { Em, Orm } from '../platform/orm.ts';
import { plainData } from '../platform/plain-data.ts';
import { scopedEm } from '../access/admin-scope.ts';
import { BillingBox, type PaymentOptions } from './billing-box.entity.ts';
import { billingAdmin } from './billing-admin.ts';
import { approveLocked } from './box-transitions.service.ts';
import { lockFeeBillingOfReviewSet } from './fee-lock.ts';
import { lockReviewSet } from './lock-box.ts';
import { billPeriodFees } from './period-sources.ts';
import { periodAt } from './period-bounds.ts';
import { ReviewSet } from './review-set.entity.ts';
import { getReviewSet, type ReviewSetData, type ReviewSetOperationData } from './review-set.queries.ts';
import { ReviewSetOperation, type ReviewSetOperationKind } from './review-set-operation.entity.ts';
import { REVIEW_SET_OPERATIONS_JOB } from './review-set-operation-job.ts';

async function closeIn(tx: Em, id: string): Promise<void> {
  // The fee lock before the set's: a fee biller holding it may wait for the set (fee-lock.ts).
  await lockFeeBillingOfReviewSet(tx, id);
  const set = await lockReviewSet(tx, id);
  if (set.state === 'open') {
    const admin = await billingAdmin(tx, set.admin.id);
    await billPeriodFees(tx, {
      adminId: admin.adminId, country: admin.country, currency: admin.currency, timeZone: admin.timeZone, kind: admin.kind,
      period: await periodAt(tx, set.periodFrom, admin.timeZone, admin.kind),
    });
  }
  const now = new Date();
  set.close(now);
  const boxes = await tx.find(BillingBox, { reviewSet: set, state: 'open' }, { lockMode: LockMode.PESSIMISTIC_WRITE, orderBy: { id: 'asc' } });
  for (const box of boxes) box.close(now);
  await tx.flush();
}

async function approveIn(tx: Em, id: string, options: PaymentOptions): Promise<void> {
  const set = await lockReviewSet(tx, id);
  const boxes = await tx.find(BillingBox, { reviewSet: set, state: 'closed', deferred: false },
    { lockMode: LockMode.PESSIMISTIC_WRITE, orderBy: { id: 'asc' } });
  // The series read after, unlocked: a FOR UPDATE of the join locked the series row too, so a change
  // of the series, and every other set's approve of it, waited for this one.
  await tx.populate(boxes, ['series']);
  const now = new Date();
  for (const box of boxes) await approveLocked(tx, box, now, options);
  await tx.flush();
}

/** Closes the set at once (start-up work such as the demo instance; requests go through `requestReviewSetOperation`). */
export async function closeReviewSet(em: Em, id: string): Promise<ReviewSetData> {
  await em.transactional((tx) => closeIn(tx, id));
  return getReviewSet(em, id);
}

/** Approves the set's closed boxes at once (start-up work; requests go through `requestReviewSetOperation`). */
export async function approveReviewSet(em: Em, id: string, options: PaymentOptions = {}): Promise<ReviewSetData> {
  await em.transactional((tx) => approveIn(tx, id, options));
  return getReviewSet(em, id);
}

/**
 * The set's job, added in the transaction that asks for an operation. A job of the key not yet
 * started keeps its run at (a job failing meanwhile runs at once again, its attempts reset); one that
 * is running or has used up its attempts is set aside by graphile-worker and a new one added.
 */
async function addOperationsJob(tx: Em, reviewSetId: string): Promise<void> {
  await addFollowUpJob(tx, REVIEW_SET_OPERATIONS_JOB, { review_set_id: reviewSetId }, { jobKey: `billing_review_set:${reviewSetId}`, jobKeyMode: 'preserve_run_at' });
}

/**
 * A close or approve asked for over HTTP: checked against what the caller may see and the set's
 * state, recorded as pending with the job that carries it out, in one short transaction. A close
 * asked for again while one is pending answers the pending one and adds the set's job again: a
 * close whose job used up its attempts (a fault mended since) runs again when asked for again
 * (since 2026-11-29, found by probing: it stayed pending for good).
 */
export async function requestReviewSetOperation(
  em: Em, id: string, operation: ReviewSetOperationKind, requestedBy: string, payment: PaymentOptions = {},
): Promise<ReviewSetOperationData> {
  const set = isUuid(id) ? await em.findOne(ReviewSet, { id }) : null;
  if (!set) throw new DomainError('not_found', `billing review-set ${id} does not exist`);
  const pendingClose = () => em.findOne(ReviewSetOperation, { reviewSetId: set.id, operation: 'close', state: 'pending' });
  /** The pending close, its job added again (a job that finds nothing pending ends at once). */
  const answerPending = async (pending: ReviewSetOperation) => {
    await em.transactional((tx) => addOperationsJob(tx, set.id));
    return plainData(pending);
  };
  if (operation === 'close') {
    const pending = await pendingClose();
    if (pending) return answerPending(pending);
    if (set.state !== 'open') throw new DomainError('invalid_state', `the review-set is ${set.state}`);
  }
  try {
    return await em.transactional(async (tx) => {
      const recorded = tx.create(ReviewSetOperation, {
        admin: set.admin, reviewSetId: set.id, operation, payment: operation === 'approve' ? payment : null, requestedBy,
      });
      await tx.flush();
      await addOperationsJob(tx, set.id);
      return plainData(recorded);
    });
  } catch (error) {
    // Another request recorded a close of this set at the same moment: answer that one.
    const pending = error instanceof UniqueConstraintViolationException ? await pendingClose() : null;
    if (pending) return answerPending(pending);
    throw error;
  }
}

/**
 * The worker: the set's pending operations, oldest first, each in one transaction with its work
 * under the set's lock (two workers on one set take turns). A refusal (the set was closed by
 * other means meanwhile) fails the operation with its code; any other error leaves it pending
 * for the job's next attempt.
 */
export async function runReviewSetOperations(orm: Orm, reviewSetId: string): Promise<void> {
  for (;;) {
    const current: { operation: ReviewSetOperation | null } = { operation: null };
    try {
      await scopedEm(orm).transactional(async (tx) => {
        // A close bills fees: the administration's fee lock goes before the set's (fee-lock.ts).
        const closing = await tx.count(ReviewSetOperation, { reviewSetId, operation: 'close', state: 'pending' }) > 0;
        if (closing) await lockFeeBillingOfReviewSet(tx, reviewSetId);
        await lockReviewSet(tx, reviewSetId);
        const operation = await tx.findOne(ReviewSetOperation, { reviewSetId, state: 'pending' }, { orderBy: { createdAt: 'asc', id: 'asc' } });
        current.operation = operation;
        if (!operation) return;
        // A close asked for since the count: the next turn takes it with the fee lock.
        if (operation.operation === 'close' && !closing) return;
        await runAs(operation.requestedBy, async () => {
          if (operation.operation === 'close') await closeIn(tx, reviewSetId);
          else await approveIn(tx, reviewSetId, operation.payment ?? {});
        });
        operation.state = 'done';
        operation.finishedAt = new Date();
        await tx.flush();
      });
    } catch (error) {
      if (!(error instanceof DomainError)) throw error;
      const failed = current.operation;
      if (!failed) return;
      await scopedEm(orm).nativeUpdate(ReviewSetOperation, { id: failed.id, state: 'pending' },
        { state: 'failed', errorCode: error.code, errorMessage: error.message, finishedAt: new Date() });
      continue;
    }
    if (!current.operation) return;
  }
}
