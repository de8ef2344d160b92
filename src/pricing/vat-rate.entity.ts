import { defineEntity, p } from '@mikro-orm/core';
import { createdAtProperty, idProperty, updatedAtProperty } from '../platform/entity-properties.ts';

export const VAT_KINDS = ['standard', 'reduced', 'exempt', 'reverse_charge'] as const;
export type VatKind = (typeof VAT_KINDS)[number];

/** A VAT percentage of a country and kind, valid in [valid_from, valid_until). Instance-wide. */
export const VatRateSchema = defineEntity({
  name: 'VatRate',
  tableName: 'pricing_vat_rate',
  indexes: [{ properties: ['country', 'vatKind', 'validFrom'] }],
  properties: {
    id: idProperty(),
    country: p.string().length(2),
    vatKind: p.enum(VAT_KINDS),
    percentage: p.decimal('string').precision(12).scale(6),
    validFrom: p.datetime(),
    validUntil: p.datetime().nullable(),
    createdAt: createdAtProperty(),
    updatedAt: updatedAtProperty(),
  },
});

export class VatRate extends VatRateSchema.class {}
VatRateSchema.setClass(VatRate);
