import { defineEntity, p } from '@mikro-orm/core';
import { createdAtProperty, idProperty, identifierProperty, updatedAtProperty } from '../platform/entity-properties.ts';

export const SellerSchema = defineEntity({
  name: 'Seller',
  tableName: 'seller',
  properties: {
    id: idProperty(),
    name: p.string(),
    country: p.string().length(2),
    externalReference: identifierProperty().nullable().unique(),
    createdAt: createdAtProperty(),
    updatedAt: updatedAtProperty(),
  },
});

export class Seller extends SellerSchema.class {}
SellerSchema.setClass(Seller);
