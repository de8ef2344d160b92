import { LockMode } from '@mikro-orm/core';
import { callerScope } from '../access/admin-scope.ts';
import { Administration } from '../parties/administration.entity.ts';
import { DomainError, NotFoundError } from '../platform/errors.ts';
import type { Em } from '../platform/orm.ts';
import { administrationsPricingWith, isSharedWith, isVisible } from './rate-plan-access.ts';
import { RatePlan } from './rate-plan.entity.ts';

/**
 * A subscription plan may point only at a rate plan of its administration's currency that is
 * shared with that administration. An id naming no rate plan is kept as given (stored before
 * rate plans existed); it fails when a session is priced. For a credential limited to
 * administrations a plan it cannot see (shared with none of them) is like a missing one, and both
 * are 400 not_found: it may not point its plans at another administration's rates.
 */
export async function assertRatePlanUsableBy(em: Em, ratePlanId: string, admin: Administration): Promise<void> {
  // Shared lock: a narrowing of admin_ids (assertStaysSharedWithUsers) waits for this link, or this link for it.
  const ratePlan = await em.findOne(RatePlan, { id: ratePlanId }, { lockMode: LockMode.PESSIMISTIC_READ, refresh: true });
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

const LOCK_PLAN = 'select admin_ids from pricing_rate_plan where id = ? for update';

/**
 * The other side of assertRatePlanUsableBy: a stored plan's admin_ids may not drop an
 * administration (an empty list shares with all of the currency) whose subscription plan prices
 * with it, else that administration's sessions are priced with rates its sharers now change alone.
 * Locks the plan's row, so a link made at the same time is seen.
 */
export async function assertStaysSharedWithUsers(em: Em, plan: RatePlan, adminIds: string[]): Promise<void> {
  const [stored] = await em.execute<{ admin_ids: string[] }[]>(LOCK_PLAN, [plan.id]);
  if (!stored) return;
  const before = { currency: plan.currency, adminIds: stored.admin_ids };
  const after = { currency: plan.currency, adminIds };
  for (const id of await administrationsPricingWith(em, plan.id)) {
    const admin = { id, currency: plan.currency };
    if (isSharedWith(before, admin) && !isSharedWith(after, admin)) {
      throw new DomainError('rate_plan_not_shared', `a subscription plan of administration ${id} prices with the rate plan: it stays shared with that administration`, { path: ['admin_ids'] });
    }
  }
}
