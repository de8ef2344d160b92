// End-user reads (REST /end-user and an end user's authorizations): filters, scope, seek paging.
// The App API reads through end-user-scope.ts and the queries modules of each resource.
import type { FilterQuery } from '@mikro-orm/core';
import type { Em } from '../platform/orm.ts';
import { SeekList } from '../platform/seek-page.ts';
import { CustomerAuthorization } from './customer-authorization.entity.ts';
import { EndUser } from './end-user.entity.ts';
import { SubscriptionAuthorization } from './subscription-authorization.entity.ts';

export interface EndUserFilter {
  adminId?: string;
  username?: string;
  email?: string;
  externalReference?: string;
}

export function endUserList(em: Em, filter: EndUserFilter = {}): SeekList<EndUser> {
  const where: FilterQuery<EndUser> = {
    ...(filter.adminId ? { admin: filter.adminId } : {}),
    ...(filter.username ? { username: filter.username } : {}),
    ...(filter.email ? { email: filter.email } : {}),
    ...(filter.externalReference ? { externalReference: filter.externalReference } : {}),
  };
  return new SeekList<EndUser>(em, { entity: EndUser, where, entities: true });
}

export function customerAuthorizationList(em: Em, endUser: EndUser): SeekList<CustomerAuthorization> {
  return new SeekList<CustomerAuthorization>(em, { entity: CustomerAuthorization, where: { endUser }, entities: true, populate: ['customer'] });
}

export function subscriptionAuthorizationList(em: Em, endUser: EndUser): SeekList<SubscriptionAuthorization> {
  return new SeekList<SubscriptionAuthorization>(em, { entity: SubscriptionAuthorization, where: { endUser }, entities: true, populate: ['subscription'] });
}
