import { defineEntity, p } from '@mikro-orm/core';
import { createdAtProperty } from '../platform/entity-properties.ts';

/** A brand printed on tokens (instance-wide), keyed by its code. */
export const TokenBrandSchema = defineEntity({
  name: 'TokenBrand',
  tableName: 'msp_token_brand',
  properties: {
    code: p.string().columnType('citext').primary(),
    name: p.string(),
    createdAt: createdAtProperty(),
  },
});

export class TokenBrand extends TokenBrandSchema.class {}
TokenBrandSchema.setClass(TokenBrand);
