import { TokenSeries as TokenSeriesEntity } from '../../src/msp/token-series.entity.ts';
import { builder } from '../builder.ts';
import { loadByIds } from '../load.ts';
import { Administration } from './administration.ts';
import { DateTime } from './date-time.ts';
import { FormFactor } from './form-factor.ts';
import { UidType } from './uid-type.ts';

export const TokenSeries = builder.loadableNode(TokenSeriesEntity, {
  name: 'TokenSeries',
  description: 'A numbered run of tokens: new tokens get EVCO ids from its prefix and next number.',
  id: { resolve: (series) => series.id },
  cacheResolved: (series) => series.id,
  load: (ids: string[], context) => loadByIds(context.em, TokenSeriesEntity, ids),
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
