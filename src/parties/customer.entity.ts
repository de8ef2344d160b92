import { defineEntity, p } from '@mikro-orm/core';
import { adminScopeFilter } from '../access/admin-scope.ts';
import { createdAtProperty, idProperty, identifierProperty, updatedAtProperty } from '../platform/entity-properties.ts';
import { Administration } from './administration.entity.ts';
import { recordsEvents } from '../events/event-kinds.ts';

export const ENTITY_TYPES = ['person', 'organisation'] as const;
export const REIMBURSEMENT_VAT = ['Applies', 'Exempt', 'Unknown'] as const;
export const ROLLUP_GROUP_BY = ['product', 'subscription', 'token'] as const;

/** The spec's limit for billing_phone (free text, no validation). */
export const BILLING_PHONE_MAX_LENGTH = 40;

export type CustomFields = Record<string, string | number | boolean>;

/** A party that holds contracts. The party columns (billing_email, locale...) live here too. */
export const CustomerSchema = defineEntity({
  name: 'Customer',
  tableName: 'customer',
  filters: adminScopeFilter('admin'),
  // The name search of customerList (`name ilike '%part%'`) reads trigrams (pg_trgm).
  indexes: [
    { name: 'customer_name_trgm_index', expression: 'create index "customer_name_trgm_index" on "customer" using gin ("name" gin_trgm_ops)' },
    { properties: ['admin', 'id'] },
  ],
  properties: {
    id: idProperty(),
    admin: () => p.manyToOne(Administration),
    name: p.string(),
    country: p.string().length(2),
    entityType: p.enum(ENTITY_TYPES).default('person'),
    externalReference: identifierProperty().nullable().unique(),
    companyRegNum: p.string().nullable(),
    localeId: p.string().nullable(),
    billingEmail: p.string().nullable(),
    billingPhone: p.string().length(BILLING_PHONE_MAX_LENGTH).nullable(),
    reimbursementVat: p.enum(REIMBURSEMENT_VAT).default('Unknown'),
    billingRollupGroupBy: p.enum(ROLLUP_GROUP_BY).nullable(),
    customFields: p.json<CustomFields>().onCreate(() => ({})),
    chargeAuthBlocked: p.boolean().default(false),
    externalUpdatedAt: p.datetime().nullable(),
    createdAt: createdAtProperty(),
    updatedAt: updatedAtProperty(),
  },
});

export class Customer extends CustomerSchema.class {
  blockChargeAuthRequests(): void {
    this.chargeAuthBlocked = true;
  }

  unblockChargeAuthRequests(): void {
    this.chargeAuthBlocked = false;
  }
}
CustomerSchema.setClass(Customer);
recordsEvents(Customer, 'customer');
