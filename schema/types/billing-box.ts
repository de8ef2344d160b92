import { BOX_STATES, type PaymentOptions } from '../../src/billing/billing-box.entity.ts';
import { PAYMENT_METHODS } from '../../src/billing/billing-settings.entity.ts';
import { boxesByIds, boxList, type BoxData } from '../../src/billing/billing-box.queries.ts';
import { approveBox, closeBox, deferBox, markBoxTransferred, reopenBox, undeferBox } from '../../src/billing/box-transitions.service.ts';
import { finalizeBox } from '../../src/billing/finalize-box.service.ts';
import { addDocument, removeDocument } from '../../src/billing/box-documents.service.ts';
import { oneOf, text, uuid } from '../../src/platform/input-schemas.ts';
import { validate } from '../../src/platform/input-validation.ts';
import { DATE_FORMAT, parseDate } from '../../src/platform/timestamp.ts';
import { isDataOf } from '../../src/platform/seek-page.ts';
import * as yup from 'yup';
import { builder } from '../builder.ts';
import { EMBEDDED_VALUE } from '../query-cost.ts';
import { listConnection } from '../connection.ts';
import { enumOf } from '../enum.ts';
import { administrationKey, idArg, refFromArg } from '../ids.ts';
import { FIELD_ARGUMENTS, mutate } from '../mutation.ts';
import { BASE64_PIECES, decodePieces } from '../base64-pieces.ts';
import { BillingRollup } from './billing-rollup.ts';
import { DateTime } from './date-time.ts';

const BillingDocument = builder.objectRef<BoxData['documents'][number]>('BillingDocument').implement({
  description: 'A document file of a box (REST: documents of /billing-box; the bytes: GET /billing-box/{id}/document/{filename}).',
  fields: (t) => ({
    filename: t.exposeString('filename'),
    contentType: t.exposeString('contentType'),
    size: t.exposeInt('size', { description: 'Bytes.' }),
    primary: t.exposeBoolean('primary', { description: 'The invoice or credit note itself (others are attachments).' }),
    draft: t.exposeBoolean('draft', { description: 'Rendered at approval, before the number: replaced when finalized.' }),
  }),
});

const VatBreakdownLine = builder.objectRef<BoxData['totals']['vatBreakdown'][number]>('BillingVatBreakdownLine').implement({
  description: 'The VAT of one VAT category and rate of a box (EN 16931 BG-23), computed once on the taxable amount.',
  fields: (t) => ({
    vatKind: t.exposeString('vatKind'),
    vatCategory: t.exposeString('vatCategory', { description: 'EN 16931 category: S, Z, E or AE.' }),
    vatPercentage: t.exposeString('vatPercent', { description: 'An exact decimal string.' }),
    taxableAmount: t.exposeString('taxableAmount', { description: 'An exact decimal string.' }),
    vatAmount: t.exposeString('vatAmount', { description: 'An exact decimal string.' }),
  }),
});

const ForeignCurrencyTotals = builder.objectRef<NonNullable<BoxData['foreignCurrencyTotals']>>('BillingForeignCurrencyTotals').implement({
  description: "The VAT total in the administration's VAT accounting currency (BT-6, BT-111).",
  fields: (t) => ({
    currency: t.exposeString('currency'),
    rate: t.exposeString('rate', { description: 'The exchange rate applied, an exact decimal string.' }),
    totalVatAmount: t.exposeString('totalVat', { description: 'An exact decimal string.' }),
  }),
});

export const BillingBoxState = enumOf('BillingBoxState', BOX_STATES, 'open → closed → approved → ready → finalized; reopen goes back to open.');

export const BillingBox = builder.loadableNode('BillingBox', {
  description: 'The content of one billing document: one party, period, series, VAT country and currency (REST: /billing-box).',
  id: { resolve: (box: BoxData) => box.id },
  cacheResolved: (box) => box.id,
  isTypeOf: (value) => isDataOf(value, 'BillingBox'),
  load: (ids: string[], context) => boxesByIds(context.em, ids) as Promise<BoxData[]>,
  fields: (t) => ({
    databaseId: t.exposeString('id', { description: 'The id of this box in the REST API.' }),
    adminId: t.exposeString('adminId'),
    state: t.field({ type: BillingBoxState, resolve: (b) => b.state as (typeof BOX_STATES)[number] }),
    deferred: t.exposeBoolean('deferred'),
    transferred: t.exposeBoolean('transferred'),
    partyId: t.exposeString('partyId'),
    partyName: t.string({ nullable: true, resolve: (b) => b.partyName }),
    partyExternalReference: t.string({ nullable: true, resolve: (b) => b.partyExternalReference }),
    periodFrom: t.field({ type: DateTime, resolve: (b) => b.periodFrom }),
    periodUntil: t.field({ type: DateTime, resolve: (b) => b.periodUntil }),
    vatCountry: t.exposeString('vatCountry'),
    currencyCode: t.exposeString('currency'),
    seriesCode: t.exposeString('seriesCode'),
    reviewSetId: t.exposeString('reviewSetId'),
    reviewSetSequence: t.exposeInt('reviewSetSequence'),
    billingReference: t.string({ nullable: true, resolve: (b) => b.billingReference }),
    paymentMethod: t.string({ nullable: true, resolve: (b) => b.paymentMethod }),
    paymentPeriod: t.int({ nullable: true, resolve: (b) => b.paymentPeriodDays }),
    negateDocumentAmounts: t.exposeBoolean('negateDocumentAmounts'),
    rollupGroupBy: t.exposeString('rollupGroupBy'),
    rollups: t.field({
      type: [BillingRollup], extensions: { listEstimate: 20 },
      description: 'Its roll-ups (product category × VAT × group value: a few; counted as 20 by the cost limit).', resolve: (b) => b.rollups,
    }),
    totalAmountExclVat: t.string({ resolve: (b) => b.totals.totalExclVat }),
    totalVatAmount: t.string({ resolve: (b) => b.totals.totalVat }),
    totalAmountInclVat: t.string({ resolve: (b) => b.totals.totalInclVat }),
    vatBreakdown: t.field({ type: [VatBreakdownLine], extensions: EMBEDDED_VALUE, description: 'Per VAT category and rate: taxable amount and VAT.', resolve: (b) => b.totals.vatBreakdown }),
    foreignCurrencyTotals: t.field({ type: ForeignCurrencyTotals, extensions: EMBEDDED_VALUE, nullable: true, resolve: (b) => b.foreignCurrencyTotals }),
    documentKind: t.string({ nullable: true, resolve: (b) => b.documentKind }),
    invoiceCode: t.string({ nullable: true, resolve: (b) => b.invoiceCode }),
    invoiceDate: t.string({ nullable: true, resolve: (b) => b.invoiceDate }),
    documents: t.field({ type: [BillingDocument], extensions: EMBEDDED_VALUE, description: 'Its document files, the primary first.', resolve: (b) => b.documents }),
    createdAt: t.field({ type: DateTime, resolve: (b) => b.createdAt }),
    updatedAt: t.field({ type: DateTime, resolve: (b) => b.updatedAt }),
  }),
});

export const BillingBoxConnection = builder.connectionObject({ type: BillingBox, name: 'BillingBoxConnection' }, { name: 'BillingBoxEdge' });

export const boxId = (id: string | number) => {
  const ref = refFromArg(String(id), 'BillingBox', false);
  return 'id' in ref ? ref.id : '';
};

const PaymentInput = builder.inputType('BillingPaymentInput', {
  description: 'Optional inputs of close and approve.',
  fields: (t) => ({
    paymentMethod: t.string({ description: `One of ${PAYMENT_METHODS.join(', ')}.` }),
    paymentPeriod: t.int({ description: 'Days.' }),
    billingReference: t.string(),
  }),
});

const paymentRules = yup.object({
  paymentMethod: oneOf(PAYMENT_METHODS).nullable(), paymentPeriod: yup.number().integer().min(0).max(365).nullable(), billingReference: text().nullable(),
});

export function paymentOptions(input: typeof PaymentInput.$inferInput | null | undefined): PaymentOptions {
  if (!input) return {};
  validate(paymentRules, input);
  return { paymentMethod: input.paymentMethod, paymentPeriodDays: input.paymentPeriod, billingReference: input.billingReference };
}

export { PaymentInput };

const listRules = yup.object({ reviewSetId: uuid().nullable(), partyId: uuid().nullable() });
const periodRules = yup.object({
  periodUntil: yup.date().nullable().test('after', '${path} must be after periodFrom', function (until) {
    const from = this.parent.periodFrom as Date | null | undefined;
    return !from || !until || until > from;
  }),
});

builder.queryFields((t) => ({
  billingBoxes: t.connection({
    type: BillingBox,
    description: 'Billing boxes by id (REST: GET /billing-box).',
    args: {
      adminId: t.arg.id({ description: 'Only boxes of this administration (slug or global ID).' }),
      reviewSetId: t.arg.id(),
      partyId: t.arg.id({ description: 'Only boxes of this party: a customer (global ID or REST id) or a roaming partner (REST id).' }),
      state: t.arg({ type: BillingBoxState }),
      periodFrom: t.arg({ type: DateTime, description: 'Only boxes whose period starts at or after this moment.' }),
      periodUntil: t.arg({ type: DateTime, description: 'Only boxes whose period ends at or before this moment.' }),
    },
    resolve: (_root, args, context) => {
      const reviewSetId = args.reviewSetId ? (refFromArg(String(args.reviewSetId), 'BillingReviewSet', false) as { id: string }).id : undefined;
      const partyId = args.partyId ? idArg(args.partyId, 'Customer') : undefined;
      validate(listRules, { reviewSetId, partyId });
      validate(periodRules, { periodFrom: args.periodFrom, periodUntil: args.periodUntil });
      return listConnection<BoxData>(boxList(context.em, {
        adminId: args.adminId ? administrationKey(String(args.adminId)) : undefined,
        reviewSetId, partyIds: partyId ? [partyId] : undefined, state: args.state ?? undefined,
        periodFrom: args.periodFrom ?? undefined, periodUntil: args.periodUntil ?? undefined,
      }), args);
    },
  }, BillingBoxConnection),
  billingBox: t.field({
    type: BillingBox, nullable: true, description: 'A billing box; null when there is none the caller may see.',
    args: { id: t.arg.id({ required: true, description: 'Global ID or REST id.' }) },
    resolve: (_root, args) => boxId(args.id),
  }),
}));

const transition = (name: string, description: string, run: (em: Parameters<typeof closeBox>[0], id: string, payment: PaymentOptions) => Promise<BoxData>, withPayment = false) =>
  builder.mutationField(name, (t) => t.field({
    type: BillingBox, nullable: true, description,
    args: { id: t.arg.id({ required: true, description: 'Global ID or REST id.' }), ...(withPayment ? { payment: t.arg({ type: PaymentInput }) } : {}) },
    resolve: (_root, args, context) => mutate(context, 'payment', (em) => run(em, boxId(args.id), paymentOptions((args as { payment?: typeof PaymentInput.$inferInput | null }).payment))),
  }));

transition('closeBillingBox', 'Closes an open box (REST: POST /billing-box/{id}/close).', (em, id, p) => closeBox(em, id, p), true);
transition('approveBillingBox', 'Approves a closed box that is not deferred (REST: POST /billing-box/{id}/approve).', (em, id, p) => approveBox(em, id, p), true);
transition('reopenBillingBox', 'Reopens a closed, approved or ready box (REST: POST /billing-box/{id}/reopen).', (em, id) => reopenBox(em, id));
transition('deferBillingBox', 'Marks a closed box deferred (REST: POST /billing-box/{id}/defer).', (em, id) => deferBox(em, id));
transition('undeferBillingBox', 'Clears the deferred mark (REST: POST /billing-box/{id}/undefer).', (em, id) => undeferBox(em, id));
transition('markBillingBoxTransferred', 'Marks a finalized box transferred (REST: POST /billing-box/{id}/transferred).', (em, id) => markBoxTransferred(em, id));

const ExternalDocumentInput = builder.inputType('BillingExternalDocumentInput', {
  description: 'The primary document of a box whose series takes its documents from an external system (REST: the body of the finalize, '
    + 'its query invoice_code and invoice_date). A request is at most 1 MiB: a document of up to about 750 KB here (REST takes 10 MB).',
  fields: (t) => ({
    contentType: t.string({ required: true, description: 'application/pdf or application/xml' }),
    data: t.stringList({ required: true, description: BASE64_PIECES }),
    invoiceCode: t.string({ required: true }),
    invoiceDate: t.string({ required: true, description: 'YYYY-MM-DD.' }),
  }),
});

const externalDocumentRules = yup.object({
  contentType: oneOf(['application/pdf', 'application/xml'] as const), invoiceCode: text(64),
  // The date reader REST's finalize uses (a real calendar date); finalizeBox refuses any other as well.
  invoiceDate: yup.string().test('date', `\${path} must be ${DATE_FORMAT}`, (value) => value === undefined || parseDate(value) !== null),
});

builder.mutationField('finalizeBillingBox', (t) => t.field({
  type: BillingBox, nullable: true,
  description: 'Finalizes a ready box: number, date and final documents (REST: POST /billing-box/{id}/finalize); an approved box of a series '
    + 'with external documents takes its document.',
  args: {
    id: t.arg.id({ required: true }), markTransferred: t.arg.boolean({ defaultValue: false }),
    document: t.arg({ type: ExternalDocumentInput, description: 'Only for a series whose documents come from an external system.' }),
  },
  resolve: (_root, args, context) => mutate(context, 'document', (em) => {
    const document = args.document;
    if (document) validate(externalDocumentRules, { contentType: document.contentType, invoiceCode: document.invoiceCode, invoiceDate: document.invoiceDate });
    return finalizeBox(em, boxId(args.id), {
      markTransferred: args.markTransferred ?? false,
      upload: document ? {
        contentType: document.contentType, bytes: decodePieces(document.data), invoiceCode: document.invoiceCode, invoiceDate: document.invoiceDate,
      } : undefined,
    });
  }),
}));

// --- a box's non-primary documents (REST: POST and DELETE /billing-box/{id}/document/{filename}) ---

const DOCUMENT_TYPES = ['application/pdf', 'application/xml'] as const;
const documentRules = yup.object({ contentType: oneOf(DOCUMENT_TYPES) });

builder.mutationFields((t) => ({
  addBillingBoxDocument: t.field({
    type: BillingBox, nullable: true,
    description: 'Adds (or replaces) a non-primary document of a box (REST: POST /billing-box/{id}/document/{filename} with the raw bytes). '
      + 'A request is at most 1 MiB: a document of up to about 750 KB here (REST takes 10 MB).',
    args: {
      boxId: t.arg.id({ required: true, description: 'Global ID or REST id.' }),
      filename: t.arg.string({ required: true, description: '1 to 100 letters, digits, . _ or -.' }),
      contentType: t.arg.string({ required: true, description: DOCUMENT_TYPES.join(' or ') }),
      data: t.arg.stringList({ required: true, description: BASE64_PIECES }),
    },
    resolve: (_root, args, context) => mutate(context, FIELD_ARGUMENTS, (em) => {
      validate(documentRules, { contentType: args.contentType });
      return addDocument(em, boxId(args.boxId), args.filename, { contentType: args.contentType, bytes: decodePieces(args.data) });
    }),
  }),
  removeBillingBoxDocument: t.field({
    type: BillingBox, nullable: true,
    description: 'Removes a non-primary document of a box (REST: DELETE /billing-box/{id}/document/{filename}).',
    args: {
      boxId: t.arg.id({ required: true, description: 'Global ID or REST id.' }),
      filename: t.arg.string({ required: true }),
    },
    resolve: (_root, args, context) => mutate(context, FIELD_ARGUMENTS, (em) => removeDocument(em, boxId(args.boxId), args.filename)),
  }),
}));
