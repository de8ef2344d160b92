// End-user reads (REST /end-user, /end-user-site and an end user's authorizations): plain data,
// filters, scope, seek paging. The App API reads through end-user-scope.ts and the queries
// modules of each resource.
import type { FilterQuery } from '@mikro-orm/core';
import { NotFoundError } from '../platform/errors.ts';
import type { Em } from '../platform/orm.ts';
import { plainData, type Data } from '../platform/plain-data.ts';
import { markData, dataByIds, dataByRef, refs, type RowShape } from '../platform/plain-reads.ts';
import { SeekList } from '../platform/seek-page.ts';
import { isCurrentlyValid } from '../platform/validity.ts';
import { CustomerAuthorization } from './customer-authorization.entity.ts';
import { EndUserSite } from './end-user-site.entity.ts';
import { EndUser } from './end-user.entity.ts';
import { SubscriptionAuthorization } from './subscription-authorization.entity.ts';

/** An end user: administration and site as `{ id }`. */
export type EndUserData = Data<EndUser>;
/** An end-user site: administration as `{ id }`. */
export type EndUserSiteData = Data<EndUserSite>;

/** The target of an authorization as its answers name it. */
export interface AuthorizationTarget { id: string; externalReference: string | null }

/**
 * An end user's authorization over a customer or subscription (`target`), with whether it holds
 * now (the validity rule of src/platform/validity.ts).
 */
export type AuthorizationData<A extends CustomerAuthorization | SubscriptionAuthorization, K extends 'customer' | 'subscription'> =
  Omit<Data<A>, K> & { [key in K]: AuthorizationTarget } & { isCurrentlyValid: boolean };
export type CustomerAuthorizationData = AuthorizationData<CustomerAuthorization, 'customer'>;
export type SubscriptionAuthorizationData = AuthorizationData<SubscriptionAuthorization, 'subscription'>;

const END_USER: RowShape<EndUserData> = { entity: EndUser, map: (row) => refs(row, 'admin', 'site') as EndUserData };
const SITE: RowShape<EndUserSiteData> = { entity: EndUserSite, map: (row) => refs(row, 'admin') as EndUserSiteData };

export interface EndUserFilter {
  adminId?: string;
  username?: string;
  email?: string;
  externalReference?: string;
}

export function endUserList(em: Em, filter: EndUserFilter = {}): SeekList<EndUserData> {
  const where: FilterQuery<EndUser> = {
    ...(filter.adminId ? { admin: filter.adminId } : {}),
    ...(filter.username ? { username: filter.username } : {}),
    ...(filter.email ? { email: filter.email } : {}),
    ...(filter.externalReference ? { externalReference: filter.externalReference } : {}),
  };
  return new SeekList<EndUserData>(em, { ...END_USER, where });
}

/** An end user the caller sees (an id that is no UUID names none), or null. */
export function findEndUser(em: Em, id: string): Promise<EndUserData | null> {
  return dataByRef(em, END_USER, { id });
}

export async function getEndUser(em: Em, id: string): Promise<EndUserData> {
  const endUser = await findEndUser(em, id);
  if (!endUser) throw new NotFoundError('end user');
  return endUser;
}

/** End users by id, in the order asked (GraphQL's dataloader). */
export function endUsersByIds(em: Em, ids: readonly string[]): Promise<EndUserData[]> {
  return dataByIds(em, END_USER, ids);
}

/** End-user sites by id, in the order asked (GraphQL's dataloader). */
export function endUserSitesByIds(em: Em, ids: readonly string[]): Promise<EndUserSiteData[]> {
  return dataByIds(em, SITE, ids);
}

/** End-user sites by id. */
export function endUserSiteList(em: Em): SeekList<EndUserSiteData> {
  return new SeekList<EndUserSiteData>(em, SITE);
}

const target = (row: Record<string, any>): AuthorizationTarget => ({ id: row.id, externalReference: row.externalReference ?? null });

type Shaped<T> = Omit<T, 'isCurrentlyValid'>;

/** Adds whether the authorization (its validFrom, validUntil, defunct) holds now. */
function withValidity<T extends Pick<CustomerAuthorization, 'validFrom' | 'validUntil' | 'defunct'>>(authorization: T): T & { isCurrentlyValid: boolean } {
  return Object.assign(authorization, { isCurrentlyValid: isCurrentlyValid(authorization) });
}

/** An end user's authorizations over customers, by id (an end user the caller does not see: not_found). */
export async function customerAuthorizationList(em: Em, endUserId: string): Promise<SeekList<CustomerAuthorizationData>> {
  const endUser = await getEndUser(em, endUserId);
  return new SeekList<CustomerAuthorizationData>(em, {
    entity: CustomerAuthorization, where: { endUser: endUser.id }, join: ['customer'],
    map: (row) => withValidity({ ...refs(row, 'endUser', 'admin'), customer: target(row.customer) } as Shaped<CustomerAuthorizationData>),
  });
}

/** An end user's authorizations over MSP token subscriptions, by id (an end user the caller does not see: not_found). */
export async function subscriptionAuthorizationList(em: Em, endUserId: string): Promise<SeekList<SubscriptionAuthorizationData>> {
  const endUser = await getEndUser(em, endUserId);
  return new SeekList<SubscriptionAuthorizationData>(em, {
    entity: SubscriptionAuthorization, where: { endUser: endUser.id }, join: ['subscription'],
    map: (row) => withValidity({ ...refs(row, 'endUser', 'admin'), subscription: target(row.subscription) } as Shaped<SubscriptionAuthorizationData>),
  });
}

/** An end user a service created or changed, as the answers show it. */
export function endUserData(endUser: EndUser): EndUserData {
  return plainData(endUser);
}

/** A site a service created, as the answers show it. */
export function endUserSiteData(site: EndUserSite): EndUserSiteData {
  return plainData(site);
}

/** An authorization a service created or changed (its customer loaded), as the answers show it. */
export function customerAuthorizationData(authorization: CustomerAuthorization): CustomerAuthorizationData {
  const { customer } = authorization;
  return markData(withValidity({
    ...plainData(authorization), customer: { id: customer.id, externalReference: customer.externalReference ?? null },
  }), 'CustomerAuthorization');
}

/** An authorization a service created or changed (its subscription loaded), as the answers show it. */
export function subscriptionAuthorizationData(authorization: SubscriptionAuthorization): SubscriptionAuthorizationData {
  const { subscription } = authorization;
  return markData(withValidity({
    ...plainData(authorization), subscription: { id: subscription.id, externalReference: subscription.externalReference ?? null },
  }), 'SubscriptionAuthorization');
}
