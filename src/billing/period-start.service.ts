// When a period starts: every series gets the review-set of the current period, and the
// period's subscription fees are billed (idempotent: the worker runs this at start and hourly;
// closing a review-set bills its period's fees again before closing). Under the administration's
// fee lock (fee-lock.ts), as every path that bills fees. Each administration starts in a
// transaction of its own and on its own: one whose start fails (its country without a standard VAT
// rate: vat_rate_missing) is logged with it and holds up no other; the start fails at the end, naming
// the administrations that failed, so the job is retried (since 2026-11-29, found by probing: the
// first failure stopped every administration after it in id order, every hour).
import { logger } from '../platform/log.ts';
import type { Em } from '../platform/orm.ts';
import { billingAdmin } from './billing-admin.ts';
import { periodAt } from './period-bounds.ts';
import { billPeriodFees } from './period-sources.ts';
import { lockFeeBilling } from './fee-lock.ts';

export const PERIOD_START = 'billing_period_start';

const ENSURE_REVIEW_SET = `insert into billing_review_set (id, admin_id, series_id, code, period_from, period_until, state, created_at, updated_at)
  values (svc_uuidv7(), ?, ?, ?, ?, ?, 'open', now(), now()) on conflict (series_id, period_from) do nothing`;

/** The period start of every administration with a series; fails at the end when one or more failed (AggregateError). */
export async function startCurrentPeriods(em: Em, now = new Date()): Promise<void> {
  const series = await em.execute<{ id: string; code: string; admin_id: string }[]>('select id, code, admin_id from billing_series order by admin_id, id');
  const admins = [...new Set(series.map((s) => s.admin_id))];
  const failures: { adminId: string; error: unknown }[] = [];
  for (const adminId of admins) {
    try {
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
    } catch (error) {
      failures.push({ adminId, error });
      logger().child({ admin_id: adminId, job: PERIOD_START }).error({ err: error },
        `billing period start of ${adminId} failed (the others go on; the job is tried again)`);
    }
  }
  if (failures.length > 0) {
    throw new AggregateError(failures.map((f) => f.error),
      `billing period start failed for ${failures.length} of ${admins.length} administrations: ${failures.map((f) => f.adminId).join(', ')}`
      + ` (first: ${failures[0]!.error instanceof Error ? failures[0]!.error.message : String(failures[0]!.error)})`);
  }
}
