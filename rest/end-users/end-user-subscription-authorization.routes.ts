import { subscriptionAuthorizationList, type SubscriptionAuthorizationData } from '../../src/end-users/end-user.queries.ts';
import {
  mergeSubscriptionAuthorization, replaceSubscriptionAuthorizations, type SubscriptionAuthorizationPatch, type SubscriptionAuthorizationRole,
} from '../../src/end-users/save-subscription-authorization.service.ts';
import { SUBSCRIPTION_AUTHORIZATION_ROLES } from '../../src/end-users/subscription-authorization.entity.ts';
import type { RouteDef } from '../rails/route.ts';
import { authorizationRoutes } from './authorization-routes.ts';

export const endUserSubscriptionAuthorizationRoutes: RouteDef[] = authorizationRoutes({
  graphql: 'updateEndUserSubscriptionAuthorization',
  segment: 'authorization-msp-token-subscription', one: 'an MSP token subscription', many: 'subscriptions',
  roles: SUBSCRIPTION_AUTHORIZATION_ROLES,
  rules: 'Validity is [valid_from, valid_until); valid_until must be after valid_from. role defaults to driver (sees the '
    + 'subscription and its sessions); a manager may also cancel it and switch its plan. A defunct authorization stays defunct. '
    + 'Only subscriptions of the end user\'s administration can be authorized.',
  name: 'SubscriptionAuthorization', target: 'subscription', targetOf: (a: SubscriptionAuthorizationData) => a.subscription, list: subscriptionAuthorizationList,
  merge: (em, endUserId, target, patch) => mergeSubscriptionAuthorization(em, endUserId, target, patch as SubscriptionAuthorizationPatch),
  replace: (em, endUserId, items) => replaceSubscriptionAuthorizations(em, endUserId, items.map(({ target, ...item }) => ({
    ...item, role: item.role as SubscriptionAuthorizationRole | null | undefined, subscriptionId: target,
  }))),
});
