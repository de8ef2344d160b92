import { defineEntity, p } from '@mikro-orm/core';
import { adminScopeFilter } from '../access/admin-scope.ts';
import { createdAtProperty, idProperty, updatedAtProperty } from '../platform/entity-properties.ts';
import { isContractValidAt } from '../platform/validity.ts';
import { Administration } from '../parties/administration.entity.ts';
import { Customer } from '../parties/customer.entity.ts';
import { EndUser } from './end-user.entity.ts';
import { recordsEvents } from '../events/event-kinds.ts';

export const AUTHORIZATION_ROLES = ['owner', 'manager', 'viewer'] as const;

/** An end user's authorization over a customer, valid in [valid_from, valid_until). */
export const CustomerAuthorizationSchema = defineEntity({
  name: 'CustomerAuthorization',
  tableName: 'end_user_customer_authorization',
  filters: adminScopeFilter('admin'),
  uniques: [{ name: 'end_user_customer_authorization_valid_pair_unique', properties: ['endUser', 'customer'], where: { defunct: false } }],
  properties: {
    id: idProperty(),
    endUser: () => p.manyToOne(EndUser),
    customer: () => p.manyToOne(Customer).index(),
    admin: () => p.manyToOne(Administration),
    role: p.enum(AUTHORIZATION_ROLES).default('owner'),
    validFrom: p.datetime().nullable(),
    validUntil: p.datetime().nullable(),
    defunct: p.boolean().default(false),
    createdAt: createdAtProperty(),
    updatedAt: updatedAtProperty(),
  },
});

export class CustomerAuthorization extends CustomerAuthorizationSchema.class {
  /** valid_from null: valid since always. */
  isValidAt(at: Date): boolean {
    return isContractValidAt(this, at);
  }
}
CustomerAuthorizationSchema.setClass(CustomerAuthorization);
recordsEvents(CustomerAuthorization, 'end_user_authorization_customer');
