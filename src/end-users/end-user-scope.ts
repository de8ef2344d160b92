// What one end user may see and change, read afresh for every request (so a revoked or expired
// authorization takes effect on the next one). Every App API read (REST /{end_user_id}/... and
// the GraphQL viewer) takes this scope into its queries module; nothing outside it exists for
// the end user: 400 not_found.
import type { Actor } from '../access/actor.ts';
import { NotFoundError } from '../platform/errors.ts';
import { isUuid } from '../platform/ids.ts';
import type { Em } from '../platform/orm.ts';
import { validAtOpenStart } from '../platform/validity.ts';
import { TokenSubscription } from '../msp/token-subscription.entity.ts';
import { CustomerAuthorization } from './customer-authorization.entity.ts';
import { findEndUser, type EndUserData } from './end-user.queries.ts';
import { SubscriptionAuthorization } from './subscription-authorization.entity.ts';

export interface EndUserScope {
  endUserId: string;
  adminId: string;
  /** Customers authorized over (any role): they, their subscriptions, sessions, billing boxes and documents. */
  customerIds: string[];
  /** Every visible subscription: those of the customers and those authorized directly. */
  subscriptionIds: string[];
  /** The subscriptions the end user may cancel or switch (customer owner/manager, subscription manager). */
  manageableSubscriptionIds: string[];
}

/** The end user named in the path, seen through the credential (its administrations and site), or 400 not_found. */
export async function loadEndUser(em: Em, actor: Actor, endUserId: string): Promise<EndUserData> {
  const endUser = await findEndUser(em, endUserId);
  if (!endUser || (actor.siteId && endUser.site?.id !== actor.siteId)) throw new NotFoundError('end user');
  return endUser;
}

export async function endUserScope(em: Em, actor: Actor, endUserId: string, at = new Date()): Promise<EndUserScope> {
  return scopeOf(em, await loadEndUser(em, actor, endUserId), at);
}

/** The end user (loadEndUser) and their scope, read once (the GraphQL viewer shows both). */
export async function endUserWithScope(em: Em, actor: Actor, endUserId: string, at = new Date()): Promise<{ endUser: EndUserData; scope: EndUserScope }> {
  const endUser = await loadEndUser(em, actor, endUserId);
  return { endUser, scope: await scopeOf(em, endUser, at) };
}

async function scopeOf(em: Em, endUser: EndUserData, at: Date): Promise<EndUserScope> {
  const valid = { endUser: endUser.id, defunct: false, ...validAtOpenStart(at) };
  const [customerAuthorizations, subscriptionAuthorizations] = await Promise.all([
    em.find(CustomerAuthorization, valid, { fields: ['customer', 'role'] }),
    em.find(SubscriptionAuthorization, valid, { fields: ['subscription', 'role'] }),
  ]);
  const customerIds = [...new Set(customerAuthorizations.map((a) => a.customer.id))];
  const managingCustomers = new Set(customerAuthorizations.filter((a) => a.role !== 'viewer').map((a) => a.customer.id));
  // The customers' subscriptions of the end user's administration: a customer may hold subscriptions in
  // others, which are not the end user's to see or change, whatever the credential's limits.
  const ofCustomers = customerIds.length
    ? await em.find(TokenSubscription, { customer: { $in: customerIds }, admin: endUser.admin.id }, { fields: ['customer'] })
    : [];
  const subscriptionIds = new Set([...ofCustomers.map((s) => s.id), ...subscriptionAuthorizations.map((a) => a.subscription.id)]);
  const manageable = new Set([
    ...ofCustomers.filter((s) => managingCustomers.has(s.customer.id)).map((s) => s.id),
    ...subscriptionAuthorizations.filter((a) => a.role === 'manager').map((a) => a.subscription.id),
  ]);
  return {
    endUserId: endUser.id,
    adminId: endUser.admin.id,
    customerIds,
    subscriptionIds: [...subscriptionIds],
    manageableSubscriptionIds: [...manageable],
  };
}

/** The id when the scope holds it, else 400 not_found (the same answer as for a record that does not exist). */
export function inScope(ids: string[], id: string, what: string): string {
  if (!isUuid(id) || !ids.includes(id.toLowerCase())) throw new NotFoundError(what);
  return id.toLowerCase();
}
