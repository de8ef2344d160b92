import * as yup from 'yup';
import { normalize } from '../../src/money/decimal.ts';
import type { Patch } from '../../src/platform/merge-patch.ts';
import { VAT_KINDS } from '../../src/pricing/vat-rate.entity.ts';
import { createVatRate, updateVatRate, type VatRateFields } from '../../src/pricing/vat-rate.service.ts';
import { countryCode } from '../../src/platform/input-schemas.ts';
import { validate } from '../../src/platform/input-validation.ts';
import { builder } from '../builder.ts';
import { listConnection } from '../connection.ts';
import { vatRateList, vatRatesByIds, type VatRateData } from '../../src/pricing/vat-rate.queries.ts';
import { isDataOf } from '../../src/platform/seek-page.ts';
import { enumOf } from '../enum.ts';
import { refFromArg } from '../ids.ts';
import { mutate } from '../mutation.ts';
import { DateTime } from './date-time.ts';

export const VatKind = enumOf('VatKind', VAT_KINDS, 'The kind of VAT a line is under; EXEMPT and REVERSE_CHARGE always apply 0 %.');

export const VatRate = builder.loadableNode('VatRate', {
  description: 'A VAT percentage of a country and kind, valid from validFrom until (excluding) validUntil. Instance-wide.',
  id: { resolve: (rate: VatRateData) => rate.id },
  cacheResolved: (rate) => rate.id,
  isTypeOf: (value) => isDataOf(value, 'VatRate'),
  load: (ids: string[], context) => vatRatesByIds(context.em, ids),
  fields: (t) => ({
    databaseId: t.exposeString('id', { description: 'The id of this VAT rate in the REST API.' }),
    country: t.exposeString('country', { description: 'ISO 3166-1 alpha-2 country code.' }),
    vatKind: t.field({ type: VatKind, resolve: (rate) => rate.vatKind }),
    percentage: t.string({ description: 'An exact decimal string, e.g. "21.00".', resolve: (rate) => normalize(rate.percentage) }),
    validFrom: t.field({ type: DateTime, resolve: (rate) => rate.validFrom }),
    validUntil: t.field({ type: DateTime, nullable: true, resolve: (rate) => rate.validUntil ?? null }),
    createdAt: t.field({ type: DateTime, resolve: (rate) => rate.createdAt }),
    updatedAt: t.field({ type: DateTime, resolve: (rate) => rate.updatedAt }),
  }),
});

export const VatRateConnection = builder.connectionObject({ type: VatRate, name: 'VatRateConnection' }, { name: 'VatRateEdge' });

const VatRateInput = builder.inputType('VatRateInput', {
  description: 'JSON Merge Patch semantics: an absent field keeps its value, null clears it. Creating needs country, vatKind, '
    + 'percentage and validFrom. Rates of the same country and kind may not overlap (overlapping_vat_rate).',
  fields: (t) => ({
    country: t.string({ description: 'ISO 3166-1 alpha-2 country code.' }),
    vatKind: t.field({ type: VatKind }),
    percentage: t.string({ description: 'An exact decimal string from "0" to "100", at most 6 decimals.' }),
    validFrom: t.field({ type: DateTime }),
    validUntil: t.field({ type: DateTime, description: 'Exclusive; null: open-ended.' }),
  }),
});

const inputRules = yup.object({ country: countryCode().nullable() });
const listRules = yup.object({ country: countryCode().nullable() });

function vatRatePatch(input: typeof VatRateInput.$inferInput): Patch<VatRateFields> {
  validate(inputRules, { country: input.country });
  return input as Patch<VatRateFields>;
}

const vatRateId = (id: string | number) => {
  const ref = refFromArg(String(id), 'VatRate', false);
  return 'id' in ref ? ref.id : '';
};
const ID_DESCRIPTION = 'Global ID or REST id.';

builder.queryFields((t) => ({
  vatRates: t.connection({
    type: VatRate,
    description: 'The VAT rates, by id (REST: GET /vat-rate).',
    args: { country: t.arg.string({ description: 'Only rates of this country (ISO 3166-1 alpha-2).' }) },
    resolve: (_root, args, context) => {
      validate(listRules, { country: args.country });
      return listConnection<VatRateData>(vatRateList(context.em, { country: args.country || undefined }), args);
    },
  }, VatRateConnection),
  vatRate: t.field({
    type: VatRate,
    nullable: true,
    description: 'A VAT rate; null when there is none.',
    args: { id: t.arg.id({ required: true, description: ID_DESCRIPTION }) },
    resolve: (_root, args) => vatRateId(args.id),
  }),
}));

builder.mutationFields((t) => ({
  createVatRate: t.field({
    type: VatRate,
    nullable: true,
    description: 'Creates a VAT rate (REST: POST /vat-rate); needs a credential not limited to administrations.',
    args: { input: t.arg({ type: VatRateInput, required: true }) },
    resolve: (_root, args, context) => mutate(context, 'input', (em) => createVatRate(em, vatRatePatch(args.input))),
  }),
  updateVatRate: t.field({
    type: VatRate,
    nullable: true,
    description: 'Merge-updates a VAT rate (REST: POST /vat-rate/{id}); needs a credential not limited to administrations.',
    args: { id: t.arg.id({ required: true, description: ID_DESCRIPTION }), input: t.arg({ type: VatRateInput, required: true }) },
    resolve: (_root, args, context) => mutate(context, 'input', (em) => updateVatRate(em, vatRateId(args.id), vatRatePatch(args.input))),
  }),
}));
