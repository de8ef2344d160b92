import { defineEntity, p } from '@mikro-orm/core';
import { adminScopeFilter } from '../access/admin-scope.ts';
import { createdAtProperty, idProperty, identifierProperty, updatedAtProperty } from '../platform/entity-properties.ts';
import { Administration } from '../parties/administration.entity.ts';
import { FORM_FACTOR_IDS, UID_TYPE_IDS } from './token-reference-data.ts';

/**
 * A numbered run of tokens: new tokens get EVCO ids `<evco_prefix><next number>` (instance
 * part zero-padded to the series' width) plus the check digit.
 */
export const TokenSeriesSchema = defineEntity({
  name: 'TokenSeries',
  tableName: 'msp_token_series',
  filters: adminScopeFilter('admin'),
  properties: {
    id: idProperty(),
    admin: () => p.manyToOne(Administration).index(),
    name: p.string(),
    /** Country code + provider id + instance prefix, e.g. `NLVOLC` (normalized, no separators). */
    evcoPrefix: p.string().columnType('citext'),
    instanceWidth: p.integer().default(9),
    nextNumber: p.bigint('number').default(1),
    formFactor: p.enum(FORM_FACTOR_IDS).default('card'),
    uidType: p.enum(UID_TYPE_IDS).nullable(),
    brandCode: p.string().nullable(),
    externalReference: identifierProperty().nullable().unique(),
    createdAt: createdAtProperty(),
    updatedAt: updatedAtProperty(),
  },
});

export class TokenSeries extends TokenSeriesSchema.class {}
TokenSeriesSchema.setClass(TokenSeries);
