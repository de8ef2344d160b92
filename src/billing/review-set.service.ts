// Review-set use cases (extensions, decisions.md): closing collects the period's subscription
// fees first, then closes every open box of the set; approving approves its closed boxes that
// are not deferred. One transaction each, the set locked FOR UPDATE.
import type { Em } from '../platform/orm.ts';
import { BillingBox } from './billing-box.entity.ts';
import { billingAdmin } from './billing-admin.ts';
import { approveLocked } from './box-transitions.service.ts';
import { lockReviewSet } from './lock-box.ts';
import { getReviewSet, type ReviewSetData } from './review-set.queries.ts';
import { billPeriodFees } from './period-sources.ts';
import { LockMode } from '@mikro-orm/core';
import type { PaymentOptions } from './billing-box.entity.ts';

export async function closeReviewSet(em: Em, id: string): Promise<ReviewSetData> {
  await em.transactional(async (tx) => {
    const set = await lockReviewSet(tx, id);
    if (set.state === 'open') {
      const admin = await billingAdmin(tx, set.admin.id);
      await billPeriodFees(tx, {
        adminId: admin.adminId, country: admin.country, currency: admin.currency, timeZone: admin.timeZone, kind: admin.kind,
        period: { from: set.periodFrom, until: set.periodUntil },
      });
    }
    const now = new Date();
    set.close(now);
    const boxes = await tx.find(BillingBox, { reviewSet: set, state: 'open' }, { lockMode: LockMode.PESSIMISTIC_WRITE, orderBy: { id: 'asc' } });
    for (const box of boxes) box.close(now);
    await tx.flush();
  });
  return getReviewSet(em, id);
}

export async function approveReviewSet(em: Em, id: string, options: PaymentOptions = {}): Promise<ReviewSetData> {
  await em.transactional(async (tx) => {
    const set = await lockReviewSet(tx, id);
    const boxes = await tx.find(BillingBox, { reviewSet: set, state: 'closed', deferred: false },
      { lockMode: LockMode.PESSIMISTIC_WRITE, orderBy: { id: 'asc' }, populate: ['series'] });
    const now = new Date();
    for (const box of boxes) await approveLocked(tx, box, now, options);
    await tx.flush();
  });
  return getReviewSet(em, id);
}
