import { defineEntity, p } from '@mikro-orm/core';
import { adminScopeFilter } from '../access/admin-scope.ts';
import { createdAtProperty, updatedAtProperty } from '../platform/entity-properties.ts';
import { Administration } from '../parties/administration.entity.ts';

/** An administration's logo on its documents (PNG or SVG, at most 1 MB; billing-logo.service.ts reads and writes it). */
export const BillingLogoSchema = defineEntity({
  name: 'BillingLogo',
  tableName: 'billing_logo',
  filters: adminScopeFilter('admin'),
  properties: {
    admin: () => p.oneToOne(Administration).primary().owner(),
    contentType: p.string(),
    size: p.integer(),
    bytes: p.blob().lazy(),
    createdAt: createdAtProperty(),
    updatedAt: updatedAtProperty(),
  },
});

export class BillingLogo extends BillingLogoSchema.class {}
BillingLogoSchema.setClass(BillingLogo);
