import { NotFoundError } from '../platform/errors.ts';
import { createUnlessTaken } from '../platform/flush-unique.ts';
import type { Em } from '../platform/orm.ts';
import { findByRef, type ResourceRef } from '../platform/resource-ref.ts';
import { Customer } from '../parties/customer.entity.ts';
import { applyState, nextState, stateOf, type AuthorizationPatch, type AuthorizationRole } from './authorization-state.ts';
import { CustomerAuthorization } from './customer-authorization.entity.ts';
import type { EndUser } from './end-user.entity.ts';
import { endUserToChange } from './save-end-user.service.ts';
import { flushUnique } from '../platform/flush-unique.ts';
import { customerAuthorizationData, type CustomerAuthorizationData } from './end-user.queries.ts';
import { replaceAuthorizations, type AuthorizationTargetKind } from './replace-authorizations.ts';

export type { AuthorizationPatch, AuthorizationRole };

/** One entry of the deprecated PUT: the complete wanted set of authorizations. */
export interface AuthorizationItem {
  customer: ResourceRef;
  role?: AuthorizationRole | null;
  validFrom?: Date | null;
  validUntil?: Date | null;
}

const PAIR_CONSTRAINT = 'end_user_customer_authorization_valid_pair_unique';

/** Only customers of the end user's own administration; anything else is not found. */
async function authorizableCustomer(em: Em, endUser: EndUser, ref: ResourceRef): Promise<Customer> {
  const customer = await findByRef(em, Customer, ref, 'customer');
  if (!customer || customer.admin.id.toLowerCase() !== endUser.admin.id.toLowerCase()) {
    throw new NotFoundError('customer');
  }
  return customer;
}

/** POST /end-user/{id}/authorization-customer/{customer_id}: create for the pair, or merge-update. */
export async function mergeCustomerAuthorization(em: Em, endUserId: string, customerRef: ResourceRef, patch: AuthorizationPatch): Promise<CustomerAuthorizationData> {
  const endUser = await endUserToChange(em, endUserId);
  const customer = await authorizableCustomer(em, endUser, customerRef);
  // A defunct authorization stays as it was; granting the pair again starts a new one.
  let existing = await em.findOne(CustomerAuthorization, { endUser, customer, defunct: false });
  if (!existing) {
    const created = await createUnlessTaken(em, PAIR_CONSTRAINT, async (tx) => {
      const state = nextState(undefined, patch);
      const authorization = tx.create(CustomerAuthorization, { endUser, customer, admin: endUser.admin, ...state });
      applyState(authorization, state);
      await tx.flush();
      return customerAuthorizationData(authorization);
    });
    if (created) return created;
    // A request sent at the same moment created the pair's authorization first: this one merges
    // into it, as a request right after it would.
    existing = await em.findOne(CustomerAuthorization, { endUser, customer, defunct: false });
  }
  const state = nextState(existing ? stateOf(existing) : undefined, patch);
  const authorization = existing ?? em.create(CustomerAuthorization, { endUser, customer, admin: endUser.admin, ...state });
  applyState(authorization, state);
  await flushUnique(em, { [PAIR_CONSTRAINT]: ['customer_id'] });
  return customerAuthorizationData(authorization);
}

const CUSTOMERS: AuthorizationTargetKind<Customer, CustomerAuthorization, AuthorizationRole> = {
  targetEntity: Customer, member: 'customer_id', notFound: 'customer', listed: 'customer', defaultRole: 'owner', pairConstraint: PAIR_CONSTRAINT,
  current: (em, endUser) => em.find(CustomerAuthorization, { endUser }, { populate: ['customer'], orderBy: { id: 'asc' } }),
  targetOf: (authorization) => authorization.customer,
  create: (em, endUser, customer, state) => em.create(CustomerAuthorization, { endUser, customer, admin: endUser.admin, ...state }),
};

/** Deprecated PUT /end-user/{id}/authorization-customer: the items are the whole wanted set (replace-authorizations.ts). */
export async function replaceCustomerAuthorizations(em: Em, endUserId: string, items: AuthorizationItem[]): Promise<CustomerAuthorizationData[]> {
  const authorizations = await replaceAuthorizations(em, CUSTOMERS, endUserId, items.map(({ customer, ...item }) => ({ ...item, target: customer })));
  return authorizations.map(customerAuthorizationData);
}
