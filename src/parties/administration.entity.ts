import { defineEntity, p } from '@mikro-orm/core';
import { adminScopeFilter } from '../access/admin-scope.ts';
import { createdAtProperty, updatedAtProperty } from '../platform/entity-properties.ts';
import { Seller } from './seller.entity.ts';

/** A segment of an instance's data, with one currency. Its id is an operator-chosen slug. */
export const AdministrationSchema = defineEntity({
  name: 'Administration',
  tableName: 'administration',
  filters: adminScopeFilter('id'),
  properties: {
    id: p.string().columnType('citext').primary(),
    name: p.string(),
    currency: p.string().length(3),
    country: p.string().length(2),
    localeId: p.string().nullable(),
    /** IANA zone of invoicing periods and local dates. */
    timeZone: p.string().default('UTC'),
    seller: () => p.manyToOne(Seller).nullable(),
    createdAt: createdAtProperty(),
    updatedAt: updatedAtProperty(),
  },
});

export class Administration extends AdministrationSchema.class {}
AdministrationSchema.setClass(Administration);
