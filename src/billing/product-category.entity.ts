import { defineEntity, p } from '@mikro-orm/core';
import { adminScopeFilter } from '../access/admin-scope.ts';
import { createdAtProperty, idProperty, identifierProperty, updatedAtProperty } from '../platform/entity-properties.ts';
import { Administration } from '../parties/administration.entity.ts';

/** The categories every administration has; sources bill into them. */
export const BUILT_IN_PRODUCT_CATEGORIES: Record<string, string> = {
  charging: 'Charging sessions',
  subscription_fee: 'Subscription fees',
  cpo_subscription_fee: 'Charge point subscription fees',
  custom: 'Other items',
};

/** Whether `code` (any casing as given) is a built-in category's: own members only, `constructor` is none. */
export const isBuiltInCategory = (code: string): boolean => Object.hasOwn(BUILT_IN_PRODUCT_CATEGORIES, code);

/** A product category of an administration: roll-ups group items of one category. */
export const ProductCategorySchema = defineEntity({
  name: 'ProductCategory',
  tableName: 'billing_product_category',
  filters: adminScopeFilter('admin'),
  uniques: [{ properties: ['admin', 'code'] }],
  properties: {
    id: idProperty(),
    admin: () => p.manyToOne(Administration),
    code: identifierProperty(),
    description: p.string(),
    createdAt: createdAtProperty(),
    updatedAt: updatedAtProperty(),
  },
});

export class ProductCategory extends ProductCategorySchema.class {}
ProductCategorySchema.setClass(ProductCategory);
