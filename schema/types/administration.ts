import { Administration as AdministrationEntity } from '../../src/parties/administration.entity.ts';
import { administrationList } from '../../src/parties/administration.queries.ts';
import { isDataOf } from '../../src/platform/seek-page.ts';
import { builder } from '../builder.ts';
import { administrationKey } from '../ids.ts';
import { loadByIds } from '../load.ts';
import { DateTime } from './date-time.ts';

const POPULATE = ['seller'];

export const Administration = builder.loadableNode(AdministrationEntity, {
  name: 'Administration',
  description: 'A segment of the instance with one currency. Its local id (databaseId) is an operator-chosen slug.',
  id: { resolve: (administration) => administration.id },
  cacheResolved: (administration) => administration.id,
  isTypeOf: (value) => value instanceof AdministrationEntity || isDataOf(value, 'Administration'),
  load: (ids: string[], context) => loadByIds(context.em, AdministrationEntity, ids, { isId: () => true, populate: POPULATE }),
  fields: (t) => ({
    databaseId: t.exposeString('id', { description: 'The slug, the id of this administration in the REST API.' }),
    name: t.exposeString('name'),
    currency: t.exposeString('currency', { description: 'ISO 4217 currency code.' }),
    country: t.exposeString('country', { description: 'ISO 3166-1 alpha-2 country code.' }),
    localeId: t.string({ nullable: true, resolve: (administration) => administration.localeId ?? null }),
    sellerName: t.string({ nullable: true, resolve: (administration) => administration.seller?.name ?? null }),
    createdAt: t.field({ type: DateTime, resolve: (administration) => administration.createdAt }),
    updatedAt: t.field({ type: DateTime, resolve: (administration) => administration.updatedAt }),
  }),
});

builder.queryFields((t) => ({
  administrations: t.field({
    type: [Administration],
    description: 'The administrations the caller may see, by slug (not paged).',
    resolve: (_root, _args, context) => administrationList(context.em).all() as Promise<AdministrationEntity[]>,
  }),
  administration: t.field({
    type: Administration,
    nullable: true,
    description: 'An administration by slug or global ID; null when the caller may not see it.',
    args: { id: t.arg.id({ required: true }) },
    resolve: (_root, args) => administrationKey(String(args.id)),
  }),
}));
