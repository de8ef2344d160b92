import { administrationList, administrationsByIds, type AdministrationData } from '../../src/parties/administration.queries.ts';
import { isDataOf } from '../../src/platform/seek-page.ts';
import { builder } from '../builder.ts';
import { administrationKey } from '../ids.ts';
import { DateTime } from './date-time.ts';

export const Administration = builder.loadableNode('Administration', {
  description: 'A segment of the instance with one currency. Its local id (databaseId) is an operator-chosen slug.',
  id: { resolve: (administration: AdministrationData) => administration.id },
  cacheResolved: (administration) => administration.id,
  isTypeOf: (value) => isDataOf(value, 'Administration'),
  load: (ids: string[], context) => administrationsByIds(context.em, ids),
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
    resolve: (_root, _args, context) => administrationList(context.em).all(),
  }),
  administration: t.field({
    type: Administration,
    nullable: true,
    description: 'An administration by slug or global ID; null when the caller may not see it.',
    args: { id: t.arg.id({ required: true }) },
    resolve: (_root, args) => administrationKey(String(args.id)),
  }),
}));
