import { DomainError, InvalidInputError, NotFoundError } from '../platform/errors.ts';
import type { FieldPath } from '../platform/field-path.ts';
import type { Patch } from '../platform/merge-patch.ts';
import type { Em } from '../platform/orm.ts';
import { findByRef, type ResourceRef } from '../platform/resource-ref.ts';
import { Customer } from '../parties/customer.entity.ts';
import { AUTHORIZATION_ROLES, CustomerAuthorization } from './customer-authorization.entity.ts';
import type { EndUser } from './end-user.entity.ts';
import { getEndUser } from './save-end-user.service.ts';
import { flushUnique } from '../platform/flush-unique.ts';

export type AuthorizationRole = (typeof AUTHORIZATION_ROLES)[number];

export interface AuthorizationState<R extends string = AuthorizationRole> {
  role: R;
  validFrom: Date | null;
  validUntil: Date | null;
  defunct: boolean;
}

export type AuthorizationPatch<R extends string = AuthorizationRole> = Patch<AuthorizationState<R>>;

/** One entry of the deprecated PUT: the complete wanted set of authorizations. */
export interface AuthorizationItem {
  customer: ResourceRef;
  role?: AuthorizationRole | null;
  validFrom?: Date | null;
  validUntil?: Date | null;
}

const PAIR_CONSTRAINT = 'end_user_customer_authorization_valid_pair_unique';

export function stateOf<R extends string>(a: { role: R; validFrom?: Date | null; validUntil?: Date | null; defunct: boolean }): AuthorizationState<R> {
  return { role: a.role, validFrom: a.validFrom ?? null, validUntil: a.validUntil ?? null, defunct: a.defunct };
}

/** The authorization after the patch (null resets to the default), checked but not applied. */
export function nextState<R extends string = AuthorizationRole>(
  current: AuthorizationState<R> | undefined, patch: AuthorizationPatch<R>, at: FieldPath = [], defaultRole: R = 'owner' as R,
): AuthorizationState<R> {
  const pick = <K extends keyof AuthorizationState<R>>(key: K): AuthorizationState<R>[K] | null =>
    (patch[key] === undefined ? (current?.[key] ?? null) : patch[key]) as AuthorizationState<R>[K] | null;
  const state: AuthorizationState<R> = {
    role: pick('role') ?? defaultRole,
    validFrom: pick('validFrom'),
    validUntil: pick('validUntil'),
    defunct: pick('defunct') ?? false,
  };
  if (current?.defunct && !state.defunct) {
    throw new DomainError('authorization_defunct', 'a defunct authorization cannot be made valid again', { path: [...at, 'defunct'] });
  }
  if (state.validFrom && state.validUntil && state.validUntil.getTime() <= state.validFrom.getTime()) {
    throw new InvalidInputError('valid_until must be after valid_from', { path: [...at, 'valid_until'] });
  }
  return state;
}

export function applyState<R extends string>(
  authorization: { role: R; validFrom?: Date | null; validUntil?: Date | null; defunct: boolean }, state: AuthorizationState<R>,
): void {
  if (authorization.role !== state.role) authorization.role = state.role;
  if (authorization.validFrom?.getTime() !== state.validFrom?.getTime()) authorization.validFrom = state.validFrom;
  if (authorization.validUntil?.getTime() !== state.validUntil?.getTime()) authorization.validUntil = state.validUntil;
  if (authorization.defunct !== state.defunct) authorization.defunct = state.defunct;
}

/** Only customers of the end user's own administration; anything else is not found. */
async function authorizableCustomer(em: Em, endUser: EndUser, ref: ResourceRef, path?: FieldPath): Promise<Customer> {
  const customer = await findByRef(em, Customer, ref, 'customer');
  if (!customer || customer.admin.id.toLowerCase() !== endUser.admin.id.toLowerCase()) {
    throw new NotFoundError('customer', { path });
  }
  return customer;
}

/** POST /end-user/{id}/authorization-customer/{customer_id}: create for the pair, or merge-update. */
export async function mergeCustomerAuthorization(em: Em, endUserId: string, customerRef: ResourceRef, patch: AuthorizationPatch): Promise<CustomerAuthorization> {
  const endUser = await getEndUser(em, endUserId);
  const customer = await authorizableCustomer(em, endUser, customerRef);
  // A defunct authorization stays as it was; granting the pair again starts a new one.
  const existing = await em.findOne(CustomerAuthorization, { endUser, customer, defunct: false });
  const state = nextState(existing ? stateOf(existing) : undefined, patch);
  const authorization = existing ?? em.create(CustomerAuthorization, { endUser, customer, admin: endUser.admin, ...state });
  applyState(authorization, state);
  await flushUnique(em, { [PAIR_CONSTRAINT]: ['customer_id'] });
  return authorization;
}

/**
 * Deprecated PUT /end-user/{id}/authorization-customer: the items are the whole wanted set.
 * Listed pairs are created or replaced (omitted fields reset), every other authorization of the
 * end user becomes defunct; everything is checked first and written in one flush.
 */
export async function replaceCustomerAuthorizations(em: Em, endUserId: string, items: AuthorizationItem[]): Promise<CustomerAuthorization[]> {
  const endUser = await getEndUser(em, endUserId);
  const customers: Customer[] = [];
  for (const [i, item] of items.entries()) {
    const path = ['items', i, 'customer_id'];
    const customer = await authorizableCustomer(em, endUser, item.customer, path);
    if (customers.includes(customer)) throw new DomainError('duplicate', 'the customer is listed more than once', { path });
    customers.push(customer);
  }
  const current = await em.find(CustomerAuthorization, { endUser }, { populate: ['customer'], orderBy: { id: 'asc' } });
  const planned = items.map((item, i) => {
    const existing = current.find((a) => a.customer === customers[i] && !a.defunct);
    const state = nextState(undefined, { role: item.role, validFrom: item.validFrom, validUntil: item.validUntil }, ['items', i]);
    return { existing, customer: customers[i], state };
  });

  const result = [...current];
  for (const { existing, customer, state } of planned) {
    if (existing) applyState(existing, state);
    else result.push(em.create(CustomerAuthorization, { endUser, customer, admin: endUser.admin, ...state }));
  }
  for (const authorization of current) {
    if (!customers.includes(authorization.customer)) authorization.defunct = true;
  }
  await flushUnique(em, { [PAIR_CONSTRAINT]: ['items'] });
  return result;
}
