// Authorizations of end users over MSP token subscriptions (the driver's view: the subscription
// and its sessions). Same rules as customer authorizations (authorization-state.ts, replace-authorizations.ts).
import { NotFoundError } from '../platform/errors.ts';
import { createUnlessTaken, flushUnique } from '../platform/flush-unique.ts';
import { isUuid } from '../platform/ids.ts';
import type { Em } from '../platform/orm.ts';
import { parseRef, findByRef } from '../platform/resource-ref.ts';
import { TokenSubscription } from '../msp/token-subscription.entity.ts';
import type { EndUser } from './end-user.entity.ts';
import { applyState, nextState, stateOf, type AuthorizationPatch } from './authorization-state.ts';
import { subscriptionAuthorizationData, type SubscriptionAuthorizationData } from './end-user.queries.ts';
import { replaceAuthorizations, type AuthorizationTargetKind } from './replace-authorizations.ts';
import { endUserToChange } from './save-end-user.service.ts';
import { SUBSCRIPTION_AUTHORIZATION_ROLES, SubscriptionAuthorization } from './subscription-authorization.entity.ts';

export type SubscriptionAuthorizationRole = (typeof SUBSCRIPTION_AUTHORIZATION_ROLES)[number];
export type SubscriptionAuthorizationPatch = AuthorizationPatch<SubscriptionAuthorizationRole>;

export interface SubscriptionAuthorizationItem {
  subscriptionId: string;
  role?: SubscriptionAuthorizationRole | null;
  validFrom?: Date | null;
  validUntil?: Date | null;
}

const PAIR_CONSTRAINT = 'end_user_subscription_authorization_valid_pair_unique';
const DEFAULT_ROLE: SubscriptionAuthorizationRole = 'driver';

/** Only subscriptions of the end user's own administration (id or ext_ref.); anything else is not found. */
async function authorizableSubscription(em: Em, endUser: EndUser, raw: string): Promise<TokenSubscription> {
  const ref = parseRef(raw, true);
  const subscription = 'id' in ref && !isUuid(ref.id) ? null : await findByRef(em, TokenSubscription, ref, 'token subscription');
  if (!subscription || subscription.admin.id.toLowerCase() !== endUser.admin.id.toLowerCase()) {
    throw new NotFoundError('token subscription');
  }
  return subscription;
}

/** POST /end-user/{id}/authorization-msp-token-subscription/{subscription_id}: create for the pair, or merge-update. */
export async function mergeSubscriptionAuthorization(
  em: Em, endUserId: string, subscriptionRef: string, patch: SubscriptionAuthorizationPatch,
): Promise<SubscriptionAuthorizationData> {
  const endUser = await endUserToChange(em, endUserId);
  const subscription = await authorizableSubscription(em, endUser, subscriptionRef);
  let existing = await em.findOne(SubscriptionAuthorization, { endUser, subscription, defunct: false });
  if (!existing) {
    const created = await createUnlessTaken(em, PAIR_CONSTRAINT, async (tx) => {
      const state = nextState(undefined, patch, [], DEFAULT_ROLE);
      const authorization = tx.create(SubscriptionAuthorization, { endUser, subscription, admin: endUser.admin, ...state });
      applyState(authorization, state);
      await tx.flush();
      return subscriptionAuthorizationData(authorization);
    });
    if (created) return created;
    // A request sent at the same moment created the pair's authorization first: this one merges into it.
    existing = await em.findOne(SubscriptionAuthorization, { endUser, subscription, defunct: false });
  }
  const state = nextState(existing ? stateOf(existing) : undefined, patch, [], DEFAULT_ROLE);
  const authorization = existing ?? em.create(SubscriptionAuthorization, { endUser, subscription, admin: endUser.admin, ...state });
  applyState(authorization, state);
  await flushUnique(em, { [PAIR_CONSTRAINT]: ['subscription_id'] });
  return subscriptionAuthorizationData(authorization);
}

const SUBSCRIPTIONS: AuthorizationTargetKind<TokenSubscription, SubscriptionAuthorization, SubscriptionAuthorizationRole> = {
  targetEntity: TokenSubscription, member: 'subscription_id', notFound: 'token subscription', listed: 'subscription',
  defaultRole: DEFAULT_ROLE, pairConstraint: PAIR_CONSTRAINT,
  current: (em, endUser) => em.find(SubscriptionAuthorization, { endUser }, { populate: ['subscription'], orderBy: { id: 'asc' } }),
  targetOf: (authorization) => authorization.subscription,
  create: (em, endUser, subscription, state) => em.create(SubscriptionAuthorization, { endUser, subscription, admin: endUser.admin, ...state }),
};

/** Deprecated PUT /end-user/{id}/authorization-msp-token-subscription: the items are the whole wanted set (replace-authorizations.ts). */
export async function replaceSubscriptionAuthorizations(
  em: Em, endUserId: string, items: SubscriptionAuthorizationItem[],
): Promise<SubscriptionAuthorizationData[]> {
  const authorizations = await replaceAuthorizations(
    em, SUBSCRIPTIONS, endUserId, items.map(({ subscriptionId, ...item }) => ({ ...item, target: parseRef(subscriptionId, true) })));
  return authorizations.map(subscriptionAuthorizationData);
}
