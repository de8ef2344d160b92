import { customerAuthorizationList, type CustomerAuthorizationData } from '../../src/end-users/end-user.queries.ts';
import { AUTHORIZATION_ROLES } from '../../src/end-users/customer-authorization.entity.ts';
import {
  mergeCustomerAuthorization, replaceCustomerAuthorizations, type AuthorizationPatch, type AuthorizationRole,
} from '../../src/end-users/save-customer-authorization.service.ts';
import { parseRef } from '../../src/platform/resource-ref.ts';
import type { RouteDef } from '../rails/route.ts';
import { authorizationRoutes } from './authorization-routes.ts';

export const endUserAuthorizationRoutes: RouteDef[] = authorizationRoutes({
  graphql: 'updateEndUserCustomerAuthorization',
  segment: 'authorization-customer', one: 'a customer', many: 'customers', roles: AUTHORIZATION_ROLES,
  rules: 'Validity is [valid_from, valid_until); valid_until must be after valid_from. role defaults to owner. '
    + 'A defunct authorization stays defunct. Only customers of the end user\'s administration can be authorized.',
  name: 'CustomerAuthorization', target: 'customer', targetOf: (a: CustomerAuthorizationData) => a.customer, list: customerAuthorizationList,
  merge: (em, endUserId, target, patch) => mergeCustomerAuthorization(em, endUserId, parseRef(target, true), patch as AuthorizationPatch),
  replace: (em, endUserId, items) => replaceCustomerAuthorizations(em, endUserId, items.map(({ target, ...item }) => ({
    ...item, role: item.role as AuthorizationRole | null | undefined, customer: parseRef(target, true),
  }))),
});
