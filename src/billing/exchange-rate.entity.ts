import { defineEntity, p } from '@mikro-orm/core';
import { adminScopeFilter } from '../access/admin-scope.ts';
import { createdAtProperty, idProperty } from '../platform/entity-properties.ts';
import { Administration } from '../parties/administration.entity.ts';

/**
 * A daily rate from an administration's currency to its VAT accounting currency: one unit of
 * the administration's currency is `rate` units of `currency` on `date` (a local date).
 */
export const ExchangeRateSchema = defineEntity({
  name: 'ExchangeRate',
  tableName: 'billing_exchange_rate',
  filters: adminScopeFilter('admin'),
  uniques: [{ properties: ['admin', 'currency', 'date'] }],
  properties: {
    id: idProperty(),
    admin: () => p.manyToOne(Administration),
    currency: p.string().length(3),
    date: p.string().length(10),
    rate: p.decimal('string').precision(20).scale(6),
    createdAt: createdAtProperty(),
  },
});

export class ExchangeRate extends ExchangeRateSchema.class {}
ExchangeRateSchema.setClass(ExchangeRate);
