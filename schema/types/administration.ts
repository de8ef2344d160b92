import * as yup from 'yup';
import { createAdministrationData, updateAdministration } from '../../src/parties/create-administration.service.ts';
import { text } from '../../src/platform/input-schemas.ts';
import { validate } from '../../src/platform/input-validation.ts';
import { administrationList, administrationsByIds, type AdministrationData } from '../../src/parties/administration.queries.ts';
import { isDataOf } from '../../src/platform/seek-page.ts';
import { builder } from '../builder.ts';
import { administrationKey } from '../ids.ts';
import { mutate } from '../mutation.ts';
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

const AdministrationInput = builder.inputType('AdministrationInput', {
  description: 'Creating needs id (a slug such as nl-main), name, currency and country; an update changes name, localeId and sellerId only '
    + '(absent: kept). Administrations serve the instance: only a credential without an administration limit may create or change them.',
  fields: (t) => ({
    id: t.string({ description: 'The slug: letters, digits and "-" (2 to 63). Set on creation only.' }),
    name: t.string(),
    currency: t.string({ description: 'ISO 4217 currency code. Set on creation only.' }),
    country: t.string({ description: 'ISO 3166-1 alpha-2 country code. Set on creation only.' }),
    localeId: t.string(),
    sellerId: t.string({ description: 'The seller\'s id (CLI `seller create`).' }),
  }),
});

/** What GraphQL types cannot say (the service checks slug, currency and country as for the CLI). */
const rules = yup.object({ id: text(64).nullable(), name: text().nullable(), localeId: text(35).nullable(), sellerId: text(64).nullable() });

builder.mutationFields((t) => ({
  createAdministration: t.field({
    type: Administration, nullable: true,
    description: 'Creates an administration (no REST write; CLI: administration create). Needs a credential without an administration limit.',
    args: { input: t.arg({ type: AdministrationInput, required: true }) },
    resolve: (_root, args, context) => mutate(context, 'input', (em) => {
      const { id, name, currency, country, localeId, sellerId } = args.input;
      validate(rules, args.input);
      return createAdministrationData(em, { id: id ?? '', name: name ?? '', currency: currency ?? '', country: country ?? '', localeId, sellerId });
    }),
  }),
  updateAdministration: t.field({
    type: Administration, nullable: true,
    description: 'Merge-updates the name, locale and seller of an administration (no REST write). Needs a credential without an administration limit.',
    args: { id: t.arg.id({ required: true, description: 'Slug or global ID.' }), input: t.arg({ type: AdministrationInput, required: true }) },
    resolve: (_root, args, context) => mutate(context, 'input', (em) => {
      validate(rules, args.input);
      const { name, localeId, sellerId } = args.input;
      return updateAdministration(em, administrationKey(String(args.id)), { name, localeId, sellerId });
    }),
  }),
}));
