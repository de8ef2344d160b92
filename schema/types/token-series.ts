import * as yup from 'yup';
import { createTokenSeries } from '../../src/msp/save-token-series.service.ts';
import { tokenSeriesByIds, type TokenSeriesData } from '../../src/msp/token.queries.ts';
import { externalRef, text } from '../../src/platform/input-schemas.ts';
import { validate } from '../../src/platform/input-validation.ts';
import { isDataOf } from '../../src/platform/seek-page.ts';
import { builder } from '../builder.ts';
import { administrationKey } from '../ids.ts';
import { mutate } from '../mutation.ts';
import { Administration } from './administration.ts';
import { DateTime } from './date-time.ts';
import { FormFactor } from './form-factor.ts';
import { UidType } from './uid-type.ts';

export const TokenSeries = builder.loadableNode('TokenSeries', {
  description: 'A numbered run of tokens: new tokens get EVCO ids from its prefix and next number.',
  id: { resolve: (series: TokenSeriesData) => series.id },
  cacheResolved: (series) => series.id,
  isTypeOf: (value) => isDataOf(value, 'TokenSeries'),
  load: (ids: string[], context) => tokenSeriesByIds(context.em, ids) as Promise<TokenSeriesData[]>,
  fields: (t) => ({
    databaseId: t.exposeString('id', { description: 'The id of this series in the REST API.' }),
    administration: t.field({ type: Administration, resolve: (series) => series.admin.id }),
    name: t.exposeString('name'),
    evcoPrefix: t.exposeString('evcoPrefix'),
    instanceWidth: t.exposeInt('instanceWidth'),
    nextNumber: t.int({ resolve: (series) => Number(series.nextNumber) }),
    formFactor: t.field({ type: FormFactor, resolve: (series) => series.formFactor }),
    uidType: t.field({ type: UidType, nullable: true, resolve: (series) => series.uidType ?? null }),
    brandCode: t.string({ nullable: true, resolve: (series) => series.brandCode ?? null }),
    externalReference: t.string({ nullable: true, resolve: (series) => series.externalReference ?? null }),
    createdAt: t.field({ type: DateTime, resolve: (series) => series.createdAt }),
    updatedAt: t.field({ type: DateTime, resolve: (series) => series.updatedAt }),
  }),
});

const TokenSeriesInput = builder.inputType('TokenSeriesInput', {
  description: 'A new series: adminId, name and evcoPrefix are required.',
  fields: (t) => ({
    adminId: t.id({ description: 'Slug or global ID of the administration.' }),
    name: t.string(),
    evcoPrefix: t.string({ description: 'Country code, 3-character provider id and at most 8 characters of the instance; separators are dropped.' }),
    instanceWidth: t.int({ description: 'What the prefix leaves of the 9-character instance; checked when given.' }),
    formFactor: t.field({ type: FormFactor, description: 'Defaults to CARD.' }),
    uidType: t.field({ type: UidType }),
    brandCode: t.string({ description: 'The code of an existing token brand.' }),
    externalReference: t.string({ description: 'Unique in the instance.' }),
  }),
});

/** What GraphQL types cannot say; the same rules as the REST body. */
const seriesRules = yup.object({
  adminId: text(64).nullable(),
  name: text().nullable(),
  evcoPrefix: text(20).nullable(),
  instanceWidth: yup.number().integer().min(1).max(9).nullable(),
  brandCode: text(64).nullable(),
  externalReference: externalRef().nullable(),
});

builder.mutationFields((t) => ({
  createTokenSeries: t.field({
    type: TokenSeries,
    nullable: true,
    description: 'Creates a token series (REST: POST /msp-token-series).',
    args: { input: t.arg({ type: TokenSeriesInput, required: true }) },
    resolve: (_root, { input }, context) => mutate(context, 'input', (em) => {
      validate(seriesRules, input);
      return createTokenSeries(em, { ...input, adminId: input.adminId == null ? input.adminId : administrationKey(String(input.adminId)) });
    }),
  }),
}));
