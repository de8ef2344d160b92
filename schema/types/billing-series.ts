// Billing series of an administration (REST: /billing-series): create and merge-update.
import * as yup from 'yup';
import { createSeries, updateSeries, type SeriesInput } from '../../src/billing/billing-series.service.ts';
import type { SeriesData } from '../../src/billing/billing-series.queries.ts';
import { externalRef, text } from '../../src/platform/input-schemas.ts';
import { validate } from '../../src/platform/input-validation.ts';
import { builder } from '../builder.ts';
import { administrationKey } from '../ids.ts';
import { mutate } from '../mutation.ts';
import { DateTime } from './date-time.ts';

const BillingSeries = builder.objectRef<SeriesData>('BillingSeries').implement({
  description: 'A billing series: its documents, numbers and the item sources it bills (REST: /billing-series/{id}).',
  fields: (t) => ({
    databaseId: t.exposeString('id'),
    adminId: t.exposeString('adminId'),
    code: t.exposeString('code'),
    name: t.string({ nullable: true, resolve: (s) => s.name ?? null }),
    externalReference: t.string({ nullable: true, resolve: (s) => s.externalReference ?? null }),
    primaryDocumentType: t.exposeString('primaryDocumentType', { description: 'invoice, debit_note, credit_note, purchase_order or self_billing_invoice.' }),
    documentSource: t.exposeString('documentSource', { description: 'service (the service renders the documents) or external (uploaded at finalize).' }),
    itemSources: t.exposeStringList('itemSources', { description: 'The item sources it bills; none: the default series.' }),
    negateDocumentAmounts: t.exposeBoolean('negateDocumentAmounts'),
    createdAt: t.field({ type: DateTime, resolve: (s) => s.createdAt }),
    updatedAt: t.field({ type: DateTime, resolve: (s) => s.updatedAt }),
  }),
});

const BillingSeriesInput = builder.inputType('BillingSeriesInput', {
  description: 'JSON Merge Patch semantics: an absent field keeps its value, null clears it. Creating needs adminId and code.',
  fields: (t) => ({
    adminId: t.id({ description: 'Slug or global ID of the administration. Set on creation only; ignored on update.' }),
    code: t.string({ description: '1 to 20 letters, digits, _ . or -; unique in the administration.' }),
    name: t.string(),
    externalReference: t.string({ description: 'Unique in the instance.' }),
    primaryDocumentType: t.string({ description: 'invoice (the default), debit_note, credit_note, purchase_order or self_billing_invoice.' }),
    documentSource: t.string({ description: 'service (the default) or external.' }),
    itemSources: t.stringList({ description: 'msp_session, msp_subscription_fee, custom, ...; replaced as a whole.' }),
  }),
});

/** What GraphQL types cannot say; the same rules as the REST body. */
const rules = yup.object({
  adminId: text(64).nullable(), code: text(20).nullable(), name: text().nullable(), externalReference: externalRef().nullable(),
  primaryDocumentType: text(32).nullable(), documentSource: text(32).nullable(), itemSources: yup.array(text(64).defined()).max(20).nullable(),
});

function seriesInput(input: typeof BillingSeriesInput.$inferInput): SeriesInput {
  validate(rules, input);
  const { adminId, ...fields } = input;
  return { ...fields, ...(typeof adminId === 'string' ? { adminId: administrationKey(adminId) } : {}) } as SeriesInput;
}

builder.mutationFields((t) => ({
  createBillingSeries: t.field({
    type: BillingSeries, nullable: true,
    description: 'Creates a billing series of an administration (REST: POST /billing-series). Sessions priced before the administration '
      + 'had a series are billed when its first series is created.',
    args: { input: t.arg({ type: BillingSeriesInput, required: true }) },
    resolve: (_root, args, context) => mutate(context, 'input', (em) => createSeries(em, seriesInput(args.input))),
  }),
  updateBillingSeries: t.field({
    type: BillingSeries, nullable: true,
    description: 'Merge-updates a billing series; its administration is fixed (REST: POST /billing-series/{id}).',
    args: {
      id: t.arg.id({ required: true, description: 'REST id, external reference, or ext_ref.<external_reference>.' }),
      input: t.arg({ type: BillingSeriesInput, required: true }),
    },
    resolve: (_root, args, context) => mutate(context, 'input', (em) => updateSeries(em, String(args.id), seriesInput(args.input))),
  }),
}));
