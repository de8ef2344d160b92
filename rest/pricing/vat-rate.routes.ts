import * as yup from 'yup';
import { normalize } from '../../src/money/decimal.ts';
import { VAT_KINDS } from '../../src/pricing/vat-rate.entity.ts';
import { getVatRate, vatRateList, type VatRateData } from '../../src/pricing/vat-rate.queries.ts';
import { createVatRate, updateVatRate, type VatRateFields } from '../../src/pricing/vat-rate.service.ts';
import type { Patch } from '../../src/platform/merge-patch.ts';
import { seekPage } from '../rails/pagination.ts';
import { patchFrom, type FieldMapping } from '../rails/patch.ts';
import { defineRoute, type RouteDef } from '../rails/route.ts';
import { countryCode, iso, isoDate, oneOf, timestamp } from '../../src/platform/input-schemas.ts';
import { representation, t, type Infer } from '../rails/shape.ts';

const TAG = 'Pricing: VAT rates';

export const vatRateShape = representation('VatRate', {
  id: t.string(),
  country: t.string(),
  vat_kind: t.enum(VAT_KINDS),
  percentage: t.decimal(),
  valid_from: t.timestamp(),
  valid_until: t.nullable(t.timestamp()),
  created_at: t.timestamp(),
  updated_at: t.timestamp(),
});

export function serializeVatRate(r: VatRateData): Infer<typeof vatRateShape> {
  return {
    id: r.id,
    country: r.country,
    vat_kind: r.vatKind,
    percentage: normalize(r.percentage),
    valid_from: iso(r.validFrom),
    valid_until: iso(r.validUntil),
    created_at: iso(r.createdAt),
    updated_at: iso(r.updatedAt),
  };
}

const body = yup.object({
  country: countryCode().nullable(),
  vat_kind: oneOf(VAT_KINDS).nullable(),
  percentage: yup.string().nullable(),
  valid_from: timestamp().nullable(),
  valid_until: timestamp().nullable(),
});

const MAPPING: FieldMapping = {
  country: 'country',
  vat_kind: 'vatKind',
  percentage: 'percentage',
  valid_from: { to: 'validFrom', convert: isoDate },
  valid_until: { to: 'validUntil', convert: isoDate },
};

const patch = (b: Record<string, unknown>) => patchFrom(b, MAPPING) as Patch<VatRateFields>;

const RULES = 'percentage is an exact decimal string (0 to 100, at most 6 decimals). Validity is [valid_from, valid_until); '
  + 'rates of the same country and vat_kind may not overlap (400 overlapping_vat_rate). exempt and reverse_charge '
  + 'always apply 0 %. Changing needs a credential not limited to administrations.';

export const vatRateRoutes: RouteDef[] = [
  defineRoute({
    method: 'get', path: '/vat-rate', tag: TAG, summary: 'List VAT rates', paged: true, extension: true, response: vatRateShape,
    query: yup.object({ country: countryCode() }),
    handler: ({ ctx, em, rawQuery, query }) => seekPage(ctx, {
      list: vatRateList(em, { country: query.country || undefined }), rawQuery, path: '/main/v1/vat-rate',
      serialize: serializeVatRate,
    }),
  }),
  defineRoute({
    method: 'post', path: '/vat-rate', graphql: 'createVatRate', tag: TAG, summary: 'Create a VAT rate', extension: true,
    description: `Needs country, vat_kind, percentage and valid_from. ${RULES}`, body, response: vatRateShape,
    handler: async ({ em, body: b }) => serializeVatRate(await createVatRate(em, patch(b))),
  }),
  defineRoute({
    method: 'get', path: '/vat-rate/:id', tag: TAG, summary: 'Get a VAT rate', extension: true, response: vatRateShape,
    handler: async ({ em, params }) => serializeVatRate(await getVatRate(em, params.id)),
  }),
  defineRoute({
    method: 'post', path: '/vat-rate/:id', graphql: 'updateVatRate', tag: TAG, summary: 'Merge-update a VAT rate', extension: true,
    description: RULES, body, response: vatRateShape,
    handler: async ({ em, body: b, params }) => serializeVatRate(await updateVatRate(em, params.id, patch(b))),
  }),
];
