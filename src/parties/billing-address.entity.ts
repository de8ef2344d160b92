import { defineEntity, p } from '@mikro-orm/core';
import { adminScopeFilter } from '../access/admin-scope.ts';
import { createdAtProperty, idProperty, identifierProperty, updatedAtProperty } from '../platform/entity-properties.ts';
import { Administration } from './administration.entity.ts';
import { BILLING_PHONE_MAX_LENGTH, Customer } from './customer.entity.ts';
import { recordsEvents } from '../events/event-kinds.ts';

export { BILLING_PHONE_MAX_LENGTH };

export const BillingAddressSchema = defineEntity({
  name: 'BillingAddress',
  tableName: 'billing_address',
  filters: adminScopeFilter('admin'),
  properties: {
    id: idProperty(),
    customer: () => p.manyToOne(Customer).index(),
    /** Copied from the customer so the administration filter needs no join. */
    admin: () => p.manyToOne(Administration),
    addressee: p.string().nullable(),
    addressLine1: p.string().nullable(),
    addressLine2: p.string().nullable(),
    postalCode: p.string().nullable(),
    city: p.string().nullable(),
    region: p.string().nullable(),
    country: p.string().length(2).nullable(),
    billingPhone: p.string().length(BILLING_PHONE_MAX_LENGTH).nullable(),
    externalReference: identifierProperty().nullable().unique(),
    externalUpdatedAt: p.datetime().nullable(),
    createdAt: createdAtProperty(),
    updatedAt: updatedAtProperty(),
  },
});

export class BillingAddress extends BillingAddressSchema.class {}
BillingAddressSchema.setClass(BillingAddress);
recordsEvents(BillingAddress, 'billing_address');
