import { defineEntity, p } from '@mikro-orm/core';
import { adminScopeFilter } from '../access/admin-scope.ts';
import { createdAtProperty, idProperty, identifierProperty, updatedAtProperty } from '../platform/entity-properties.ts';
import { Administration } from '../parties/administration.entity.ts';
import { BillingBox } from './billing-box.entity.ts';

export const DELIVERY_CHANNELS = ['email', 'post', 'peppol', 'portal', 'other'] as const;
export const DELIVERY_STATES = ['pending', 'sent', 'delivered', 'failed'] as const;

/** How a box's documents reached the party. */
export const BoxDeliverySchema = defineEntity({
  name: 'BoxDelivery',
  tableName: 'billing_box_delivery',
  filters: adminScopeFilter('admin'),
  properties: {
    id: idProperty(),
    admin: () => p.manyToOne(Administration),
    box: () => p.manyToOne(BillingBox).index(),
    channel: p.enum(DELIVERY_CHANNELS),
    state: p.enum(DELIVERY_STATES).default('pending'),
    externalReference: identifierProperty().nullable().unique(),
    detail: p.text().nullable(),
    createdAt: createdAtProperty(),
    updatedAt: updatedAtProperty(),
  },
});

export class BoxDelivery extends BoxDeliverySchema.class {}
BoxDeliverySchema.setClass(BoxDelivery);
