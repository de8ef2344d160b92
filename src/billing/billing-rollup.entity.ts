import { defineEntity, p } from '@mikro-orm/core';
import { adminScopeFilter } from '../access/admin-scope.ts';
import { createdAtProperty, idProperty } from '../platform/entity-properties.ts';
import { Administration } from '../parties/administration.entity.ts';
import { BillingBox } from './billing-box.entity.ts';

/**
 * A line of a box's document: the items of one product category, VAT kind and percentage (and
 * group value, by the customer's billing_rollup_group_by). Its amounts are sums over its items,
 * computed when read (billing.queries.ts), never stored.
 */
export const BillingRollupSchema = defineEntity({
  name: 'BillingRollup',
  tableName: 'billing_rollup',
  filters: adminScopeFilter('admin'),
  uniques: [{ properties: ['box', 'rollupKey'] }],
  properties: {
    id: idProperty(),
    admin: () => p.manyToOne(Administration),
    box: () => p.manyToOne(BillingBox),
    rollupKey: p.string(),
    productCategory: p.string(),
    vatKind: p.string(),
    vatPercent: p.decimal('string').precision(12).scale(6),
    groupValue: p.string().nullable(),
    context: p.string().nullable(),
    createdAt: createdAtProperty(),
  },
});

export class BillingRollup extends BillingRollupSchema.class {}
BillingRollupSchema.setClass(BillingRollup);
