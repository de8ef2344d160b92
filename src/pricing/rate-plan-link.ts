import { callerScope } from '../access/admin-scope.ts';
import { Administration } from '../parties/administration.entity.ts';
import { DomainError, NotFoundError } from '../platform/errors.ts';
import type { Em } from '../platform/orm.ts';
import { isSharedWith, isVisible } from './rate-plan-access.ts';
import { RatePlan } from './rate-plan.entity.ts';

/**
 * A subscription plan may point only at a rate plan of its administration's currency that is
 * shared with that administration. An id naming no rate plan is kept as given (stored before
 * rate plans existed); it fails when a session is priced. For a credential limited to
 * administrations a plan it cannot see (shared with none of them) is like a missing one, and both
 * are 400 not_found: it may not point its plans at another administration's rates.
 */
export async function assertRatePlanUsableBy(em: Em, ratePlanId: string, admin: Administration): Promise<void> {
  const ratePlan = await em.findOne(RatePlan, { id: ratePlanId });
  if (!callerScope(em).all && !(ratePlan && await isVisible(em, ratePlan))) throw new NotFoundError('rate plan', { path: ['rate_plan_id'] });
  if (!ratePlan) return;
  const loaded = await em.findOneOrFail(Administration, { id: admin.id }, { filters: false });
  if (ratePlan.currency !== loaded.currency) {
    throw new DomainError('currency_mismatch', `the rate plan uses ${ratePlan.currency}, administration ${loaded.id} ${loaded.currency}`, { path: ['rate_plan_id'] });
  }
  if (!isSharedWith(ratePlan, loaded)) {
    throw new DomainError('rate_plan_not_shared', `the rate plan is not shared with administration ${loaded.id}`, { path: ['rate_plan_id'] });
  }
}
