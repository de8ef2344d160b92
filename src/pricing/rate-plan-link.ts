import { Administration } from '../parties/administration.entity.ts';
import { DomainError } from '../platform/errors.ts';
import type { Em } from '../platform/orm.ts';
import { isSharedWith } from './rate-plan-access.ts';
import { RatePlan } from './rate-plan.entity.ts';

/**
 * A subscription plan may point only at a rate plan of its administration's currency that is
 * shared with that administration. An id naming no rate plan is kept as given (stored before
 * rate plans existed); it fails when a session is priced.
 */
export async function assertRatePlanUsableBy(em: Em, ratePlanId: string, admin: Administration): Promise<void> {
  const ratePlan = await em.findOne(RatePlan, { id: ratePlanId });
  if (!ratePlan) return;
  const loaded = await em.findOneOrFail(Administration, { id: admin.id }, { filters: false });
  if (ratePlan.currency !== loaded.currency) {
    throw new DomainError('currency_mismatch', `the rate plan uses ${ratePlan.currency}, administration ${loaded.id} ${loaded.currency}`, { path: ['rate_plan_id'] });
  }
  if (!isSharedWith(ratePlan, loaded)) {
    throw new DomainError('rate_plan_not_shared', `the rate plan is not shared with administration ${loaded.id}`, { path: ['rate_plan_id'] });
  }
}
