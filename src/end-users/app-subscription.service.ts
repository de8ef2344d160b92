// What an end user may change through the App API: cancel a subscription, switch its plan. Both
// need a managing authorization (customer owner/manager, subscription manager); anything else
// is 400 not_found, like a subscription that does not exist.
import { DomainError, InvalidInputError, NotFoundError } from '../platform/errors.ts';
import { isUuid } from '../platform/ids.ts';
import type { Em } from '../platform/orm.ts';
import { defunctTokenSubscriptionEntity } from '../msp/defunct-token-subscription.service.ts';
import { lockTokenSubscription } from '../msp/lock-token-subscription.ts';
import { correctPlanOrCustomerEntities } from '../msp/subscription-correction.service.ts';
import { SubscriptionPlan } from '../msp/subscription-plan.entity.ts';
import { TOKEN_SUBSCRIPTION } from '../msp/token-subscription-input.ts';
import { updateTokenSubscriptionEntity } from '../msp/update-token-subscription.service.ts';
import { inScope, type EndUserScope } from './end-user-scope.ts';
import { endUserSubscriptionData, subscriptionOfEndUser, type EndUserSubscriptionData } from './end-user-subscription.queries.ts';
import { SubscriptionAuthorization } from './subscription-authorization.entity.ts';

/**
 * Ends the subscription now: sessions that start from now on are not charged under it. One that
 * has not started yet becomes defunct; an ended or defunct one stays as it is (idempotent).
 */
export async function cancelEndUserSubscription(em: Em, scope: EndUserScope, id: string, now = new Date()): Promise<EndUserSubscriptionData> {
  const subscriptionId = inScope(scope.manageableSubscriptionIds, id, TOKEN_SUBSCRIPTION);
  const subscription = await subscriptionOfEndUser(em, subscriptionId);
  if (subscription.defunct || (subscription.validUntil && subscription.validUntil.getTime() <= now.getTime())) return subscription;
  if (subscription.validFrom.getTime() >= now.getTime()) return endUserSubscriptionData(await defunctTokenSubscriptionEntity(em, subscriptionId));
  return endUserSubscriptionData(await updateTokenSubscriptionEntity(em, subscriptionId, { validUntil: now }));
}

/** Plans offered now: publish_from <= now < publish_until (either end open). */
export function isPublishedAt(plan: SubscriptionPlan, at: Date): boolean {
  return (!plan.publishFrom || plan.publishFrom.getTime() <= at.getTime())
    && (!plan.publishUntil || plan.publishUntil.getTime() > at.getTime());
}

export interface PlanChoice { planId?: string | null; planExternalReference?: string | null }

/**
 * Switches the plan from now on: a plan-or-customer correction at this moment (the old
 * subscription ends now, a successor with the new plan runs on, token links and credit move), so
 * sessions from the switch on are priced under the new plan. Only plans of the administration
 * inside their publishing window can be chosen (others: 400 not_found at the plan member; its own
 * plan: 400 invalid_input there). Only a running subscription switches (not started or ended: 400
 * subscription_not_current; defunct: subscription_defunct). The end user's authorizations over the
 * old subscription carry over to the successor.
 */
export async function switchEndUserPlan(
  em: Em, scope: EndUserScope, id: string, choice: PlanChoice, now = new Date(),
): Promise<EndUserSubscriptionData> {
  if ((choice.planId == null) === (choice.planExternalReference == null)) {
    throw new InvalidInputError('give exactly one of plan_id and plan_external_reference', { path: choice.planId == null ? ['plan_id'] : ['plan_external_reference'] });
  }
  const subscriptionId = inScope(scope.manageableSubscriptionIds, id, TOKEN_SUBSCRIPTION);
  const path = choice.planId != null ? ['plan_id'] : ['plan_external_reference'];
  const where = choice.planId != null ? (isUuid(choice.planId) ? { id: choice.planId } : null) : { externalReference: choice.planExternalReference! };
  const plan = where ? await em.findOne(SubscriptionPlan, { ...where, admin: scope.adminId }) : null;
  if (!plan || !isPublishedAt(plan, now)) throw new NotFoundError('subscription plan', { path });
  const successor = await em.transactional(async (tx) => {
    // Checked here, at this request's members: the correction names its own (valid_from, new_plan_id).
    const current = await lockTokenSubscription(tx, subscriptionId);
    current.assertChangeable();
    if (!current.isValidAt(now)) {
      throw new DomainError('subscription_not_current', 'the subscription has not started yet or has ended: only a running subscription switches plan');
    }
    if (current.plan.id === plan.id) throw new InvalidInputError('the subscription has this plan already', { path });
    // The end user's administration's plans only: a subscription of the customer in another administration takes none of them.
    if (current.admin.id.toLowerCase() !== plan.admin.id.toLowerCase()) throw new NotFoundError('subscription plan', { path });
    const { oldSubscription, newSubscription } = await correctPlanOrCustomerEntities(tx, subscriptionId, { validFrom: now, newPlanId: plan.id });
    const authorizations = await tx.find(SubscriptionAuthorization, { subscription: oldSubscription, defunct: false });
    for (const a of authorizations) {
      tx.create(SubscriptionAuthorization, {
        endUser: a.endUser, subscription: newSubscription, admin: a.admin, role: a.role, validFrom: a.validFrom ?? null, validUntil: a.validUntil ?? null,
      });
    }
    await tx.flush();
    return newSubscription;
  });
  return endUserSubscriptionData(successor);
}
