// Custom items billed at once (REST: POST /billing-custom-item[/{external_reference}]).
import * as yup from 'yup';
import { billCustomItem, type CustomItemResult } from '../../src/billing/sources/custom-item.source.ts';
import { normalize } from '../../src/money/decimal.ts';
import { countryCode, externalRef, text } from '../../src/platform/input-schemas.ts';
import { validate } from '../../src/platform/input-validation.ts';
import { builder } from '../builder.ts';
import { administrationKey, idArg } from '../ids.ts';
import { mutate } from '../mutation.ts';
import { BillingBox } from './billing-box.ts';

const BillingCustomItemResult = builder.objectRef<CustomItemResult>('BillingCustomItemResult').implement({
  description: 'The item billed, or with a repeated external reference the item billed before (duplicate).',
  fields: (t) => ({
    itemId: t.exposeString('itemId'),
    boxId: t.exposeString('boxId'),
    box: t.field({ type: BillingBox, nullable: true, resolve: (r) => r.boxId }),
    externalReference: t.string({ nullable: true, resolve: (r) => r.externalReference }),
    amountExclVat: t.string({ description: 'A decimal string: quantity × unitPriceExclVat, rounded once.', resolve: (r) => normalize(r.amountExclVat) }),
    vatPercentage: t.string({ description: 'A decimal string.', resolve: (r) => normalize(r.vatPercentage) }),
    vatCountry: t.exposeString('vatCountry'),
    duplicate: t.exposeBoolean('duplicate'),
  }),
});

const BillingCustomItemInput = builder.inputType('BillingCustomItemInput', {
  description: 'A custom item: quantity × unitPriceExclVat on date (local to timeZone) for the party (partyId or partyExternalReference).',
  fields: (t) => ({
    timeZone: t.string({ required: true, description: 'An IANA time zone: Europe/Amsterdam.' }),
    date: t.string({ required: true, description: 'YYYY-MM-DD.' }),
    partyId: t.id({ description: 'Global ID or REST id of the customer billed.' }),
    partyExternalReference: t.string({ description: 'Or the external reference of the customer billed.' }),
    adminId: t.id({ required: true, description: 'Slug or global ID of the administration.' }),
    description: t.string({ required: true }),
    quantity: t.string({ required: true, description: 'A decimal string; a negative quantity credits.' }),
    unit: t.string({ required: true }),
    unitPriceExclVat: t.string({ required: true, description: 'A decimal string, not negative.' }),
    vatKind: t.string({ required: true }),
    vatCountry: t.string({ description: "ISO 3166-1 alpha-2; defaults to the administration's country." }),
    productCategory: t.string({ description: 'Defaults to custom.' }),
    boxCategoryDescription: t.string(),
    seriesIndicatorCode: t.string({ description: 'Picks the series by code.' }),
    context: t.string(),
    boxDistinctCode: t.string({ description: 'Asks for a box of its own.' }),
    reference: t.string(),
  }),
});

/** What GraphQL types cannot say; the same rules as the REST body. */
const rules = yup.object({
  timeZone: text(64), date: text(10), partyId: text(64).nullable(), partyExternalReference: text().nullable(), adminId: text(64),
  description: text(1000), quantity: text(32), unit: text(32), unitPriceExclVat: text(32), vatKind: text(32), vatCountry: countryCode().nullable(),
  productCategory: text(64).nullable(), boxCategoryDescription: text().nullable(), seriesIndicatorCode: text(20).nullable(), context: text().nullable(),
  boxDistinctCode: text(64).nullable(), reference: text().nullable(),
});

const referenceRules = yup.object({ externalReference: externalRef().nullable() });

builder.mutationField('billCustomItem', (t) => t.field({
  type: BillingCustomItemResult, nullable: true,
  description: 'Experimental. Bills a custom item in the box of its period, or the next open one when that box is closed '
    + '(REST: POST /billing-custom-item, with externalReference POST /billing-custom-item/{external_reference}). The same externalReference with '
    + 'the same content answers the item billed before (duplicate: true); with other content conflicting_resubmission at the first difference.',
  args: {
    input: t.arg({ type: BillingCustomItemInput, required: true }),
    externalReference: t.arg.string({ description: 'Bills idempotently by this reference (unique per administration).' }),
  },
  resolve: (_root, args, context) => {
    // An argument beside the input: its place is $.externalReference.
    validate(referenceRules, { externalReference: args.externalReference });
    return mutate(context, 'input', (em) => {
      validate(rules, args.input);
      const { partyId, adminId, ...fields } = args.input;
      return billCustomItem(em, {
        ...fields, adminId: administrationKey(String(adminId)), partyId: partyId === undefined || partyId === null ? partyId : idArg(partyId, 'Customer'),
      }, args.externalReference ?? null);
    });
  },
}));
