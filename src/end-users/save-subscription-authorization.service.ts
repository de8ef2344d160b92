// Authorizations of end users over MSP token subscriptions (the driver's view: the subscription
// and its sessions). Same rules as customer authorizations (save-customer-authorization.service.ts).
import { DomainError, NotFoundError } from '../platform/errors.ts';
import type { FieldPath } from '../platform/field-path.ts';
import { flushUnique } from '../platform/flush-unique.ts';
import { isUuid } from '../platform/ids.ts';
import type { Em } from '../platform/orm.ts';
import { parseRef, findByRef } from '../platform/resource-ref.ts';
import { TokenSubscription } from '../msp/token-subscription.entity.ts';
import type { EndUser } from './end-user.entity.ts';
import { applyState, nextState, stateOf, type AuthorizationPatch } from './save-customer-authorization.service.ts';
import { getEndUser } from './save-end-user.service.ts';
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
async function authorizableSubscription(em: Em, endUser: EndUser, raw: string, path?: FieldPath): Promise<TokenSubscription> {
  const ref = parseRef(raw, true);
  const subscription = 'id' in ref && !isUuid(ref.id) ? null : await findByRef(em, TokenSubscription, ref, 'token subscription');
  if (!subscription || subscription.admin.id.toLowerCase() !== endUser.admin.id.toLowerCase()) {
    throw new NotFoundError('token subscription', { path });
  }
  return subscription;
}

/** POST /end-user/{id}/authorization-msp-token-subscription/{subscription_id}: create for the pair, or merge-update. */
export async function mergeSubscriptionAuthorization(em: Em, endUserId: string, subscriptionRef: string, patch: SubscriptionAuthorizationPatch): Promise<SubscriptionAuthorization> {
  const endUser = await getEndUser(em, endUserId);
  const subscription = await authorizableSubscription(em, endUser, subscriptionRef);
  const existing = await em.findOne(SubscriptionAuthorization, { endUser, subscription, defunct: false });
  const state = nextState(existing ? stateOf(existing) : undefined, patch, [], DEFAULT_ROLE);
  const authorization = existing ?? em.create(SubscriptionAuthorization, { endUser, subscription, admin: endUser.admin, ...state });
  applyState(authorization, state);
  await flushUnique(em, { [PAIR_CONSTRAINT]: ['subscription_id'] });
  return authorization;
}

/** Deprecated PUT /end-user/{id}/authorization-msp-token-subscription: the items are the whole wanted set. */
export async function replaceSubscriptionAuthorizations(em: Em, endUserId: string, items: SubscriptionAuthorizationItem[]): Promise<SubscriptionAuthorization[]> {
  const endUser = await getEndUser(em, endUserId);
  const subscriptions: TokenSubscription[] = [];
  for (const [i, item] of items.entries()) {
    const path = ['items', i, 'subscription_id'];
    const subscription = await authorizableSubscription(em, endUser, item.subscriptionId, path);
    if (subscriptions.includes(subscription)) throw new DomainError('duplicate', 'the subscription is listed more than once', { path });
    subscriptions.push(subscription);
  }
  const current = await em.find(SubscriptionAuthorization, { endUser }, { populate: ['subscription'], orderBy: { id: 'asc' } });
  const planned = items.map((item, i) => ({
    existing: current.find((a) => a.subscription === subscriptions[i] && !a.defunct),
    subscription: subscriptions[i],
    state: nextState<SubscriptionAuthorizationRole>(undefined, { role: item.role, validFrom: item.validFrom, validUntil: item.validUntil }, ['items', i], DEFAULT_ROLE),
  }));
  const result = [...current];
  for (const { existing, subscription, state } of planned) {
    if (existing) applyState(existing, state);
    else result.push(em.create(SubscriptionAuthorization, { endUser, subscription, admin: endUser.admin, ...state }));
  }
  for (const authorization of current) {
    if (!subscriptions.includes(authorization.subscription)) authorization.defunct = true;
  }
  await flushUnique(em, { [PAIR_CONSTRAINT]: ['items'] });
  return result;
}
