// Rate plans are shared by currency and an optional list of administrations, so the admin
// scope filter cannot apply: a plan is visible when it is shared with an administration the
// caller sees (em.find on Administration is scoped).
import { ADMIN_SCOPE, UNSCOPED, type AdminScope } from '../access/admin-scope.ts';
import { Administration } from '../parties/administration.entity.ts';
import { DomainError } from '../platform/errors.ts';
import type { Em } from '../platform/orm.ts';
import type { RatePlan } from './rate-plan.entity.ts';

export function callerScope(em: Em): AdminScope {
  return (em.getFilterParams(ADMIN_SCOPE) as AdminScope | undefined) ?? UNSCOPED;
}

export function isSharedWith(plan: RatePlan, admin: { id: string; currency: string }): boolean {
  if (plan.currency !== admin.currency) return false;
  return plan.adminIds.length === 0 || plan.adminIds.some((id) => id.toLowerCase() === admin.id.toLowerCase());
}

export async function isVisible(em: Em, plan: RatePlan): Promise<boolean> {
  if (callerScope(em).all) return true;
  const admins = await em.find(Administration, { currency: plan.currency });
  return admins.some((admin) => isSharedWith(plan, admin));
}

/** The plans among `plans` the caller may see. */
export async function filterVisible(em: Em, plans: RatePlan[]): Promise<RatePlan[]> {
  if (callerScope(em).all) return plans;
  const admins = await em.find(Administration, {});
  return plans.filter((plan) => admins.some((admin) => isSharedWith(plan, admin)));
}

/** A credential limited to administrations changes only plans shared with nothing but its own. */
export async function assertChangeable(em: Em, plan: RatePlan): Promise<void> {
  if (callerScope(em).all) return;
  const visible = plan.adminIds.length > 0 && (await em.count(Administration, { id: { $in: plan.adminIds } })) === plan.adminIds.length;
  if (!visible) throw new DomainError('forbidden', 'the rate plan is shared with administrations this credential cannot see');
}
