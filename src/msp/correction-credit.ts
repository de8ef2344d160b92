// A plan-or-customer correction's credit moves to the successor at the correction's moment
// (credit-succession.ts): in the correction's transaction when the moment has passed, else by a job
// at the moment, added in that transaction. The job may run late, twice, or after a pricing batch
// made the move: each move is made once, under its subscriptions' locks.
import { runAs } from '../events/actor-context.ts';
import { addFollowUpJob } from '../platform/jobs.ts';
import type { Em } from '../platform/orm.ts';
import { validityNow } from '../platform/validity.ts';
import { loadSuccession } from './credit-succession.ts';
import { lockSubscriptions, moveDueCredit } from './monetary-credit.service.ts';
import { SubscriptionCorrection } from './subscription-correction.entity.ts';

export const CORRECTION_CREDIT = 'correction_credit';

export interface CorrectionCreditJob {
  /** The committed correction whose credit moves at its moment. */
  correction_id: string;
}

export function isCorrectionCreditJob(payload: unknown): payload is CorrectionCreditJob {
  return typeof payload === 'object' && payload !== null && typeof (payload as CorrectionCreditJob).correction_id === 'string';
}

/** The move of `correction`, and of the corrections before it in its lineage not made yet. */
async function moveCorrectionCredit(em: Em, correction: SubscriptionCorrection): Promise<void> {
  const scope = { payers: [], subscriptions: [correction.oldSubscription.id, correction.newSubscription.id], upTo: correction.correctedFrom };
  const succession = await loadSuccession(em, scope);
  if (!succession.corrections.length) return;
  const locked = await lockSubscriptions(em, succession.subscriptionIds());
  moveDueCredit(em, await loadSuccession(em, { ...scope, refresh: true }), locked, scope.upTo);
}

/** In the correction's transaction, once it is flushed: the credit moves now when its moment has passed, else at it. */
export async function moveCreditAtCorrection(em: Em, correction: SubscriptionCorrection): Promise<void> {
  if (correction.correctedFrom.getTime() <= validityNow().getTime()) {
    await moveCorrectionCredit(em, correction);
    return;
  }
  await addFollowUpJob(em, CORRECTION_CREDIT, { correction_id: correction.id } satisfies CorrectionCreditJob, { runAt: correction.correctedFrom });
}

/** The job at the correction's moment, in a transaction of its own. */
export async function runCorrectionCreditJob(em: Em, job: CorrectionCreditJob): Promise<void> {
  await runAs('worker', () => em.transactional(async (tx) => {
    const correction = await tx.findOne(SubscriptionCorrection, { id: job.correction_id }, { filters: false });
    if (correction) await moveCorrectionCredit(tx, correction);
  }));
}
