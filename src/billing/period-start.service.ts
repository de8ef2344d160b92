// When a period starts: every series gets the review-set of the current period, and the
// period's subscription fees are billed (idempotent: the worker runs this at start and hourly;
// closing a review-set bills its period's fees again before closing). Under the administration's
// fee lock (fee-lock.ts), as every path that bills fees.
import type { Em } from '../platform/orm.ts';
import { billingAdmin } from './billing-admin.ts';
import { periodAt } from './period-bounds.ts';
import { billPeriodFees } from './period-sources.ts';
import { lockFeeBilling } from './fee-lock.ts';

export const PERIOD_START = 'billing_period_start';

const ENSURE_REVIEW_SET = `insert into billing_review_set (id, admin_id, series_id, code, period_from, period_until, state, created_at, updated_at)
  values (svc_uuidv7(), ?, ?, ?, ?, ?, 'open', now(), now()) on conflict (series_id, period_from) do nothing`;

export async function startCurrentPeriods(em: Em, now = new Date()): Promise<void> {
  const series = await em.execute<{ id: string; code: string; admin_id: string }[]>('select id, code, admin_id from billing_series order by admin_id, id');
  const admins = [...new Set(series.map((s) => s.admin_id))];
  for (const adminId of admins) {
    await em.transactional(async (tx) => {
      // Before its review-sets are inserted: a contract change billing fees may wait for them (fee-lock.ts).
      await lockFeeBilling(tx, adminId);
      const admin = await billingAdmin(tx, adminId);
      const period = await periodAt(tx, now, admin.timeZone, admin.kind);
      for (const s of series.filter((x) => x.admin_id === adminId)) {
        await tx.execute(ENSURE_REVIEW_SET, [adminId, s.id, `${s.code}-${period.label}`, period.from, period.until]);
      }
      await billPeriodFees(tx, { adminId, country: admin.country, currency: admin.currency, timeZone: admin.timeZone, kind: admin.kind, period });
    });
  }
}
