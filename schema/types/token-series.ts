import { tokenSeriesByIds, type TokenSeriesData } from '../../src/msp/token.queries.ts';
import { isDataOf } from '../../src/platform/seek-page.ts';
import { builder } from '../builder.ts';
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
