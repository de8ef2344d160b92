import * as yup from 'yup';
import { BOX_STATES } from '../../src/billing/billing-box.entity.ts';
import { paymentBody, paymentOptions } from './payment-body.ts';
import { boxListOf, getBox } from '../../src/billing/billing-box.queries.ts';
import { itemList, type ItemData } from '../../src/billing/billing-item.queries.ts';
import { addDocument, removeDocument } from '../../src/billing/box-documents.service.ts';
import { namedDocument, previewDocument, primaryDocument } from '../../src/billing/box-documents.queries.ts';
import { approveBox, closeBox, deferBox, markBoxTransferred, reopenBox, undeferBox } from '../../src/billing/box-transitions.service.ts';
import { finalizeBox } from '../../src/billing/finalize-box.service.ts';
import { CUSTOM_ITEM_SOURCE } from '../../src/billing/sources/custom-item.source.ts';
import { CPO_REIMBURSEMENT_SOURCE } from '../../src/cpo/cpo-reimbursement.source.ts';
import { ROAMING_SOURCE } from '../../src/roaming/roaming.source.ts';
import { MSP_SESSION_SOURCE } from '../../src/billing/sources/msp-session.source.ts';
import type { StoredDocument } from '../../src/billing/document-store.ts';
import { normalize } from '../../src/money/decimal.ts';
import { DomainError } from '../../src/platform/errors.ts';
import { parseDate } from '../../src/platform/timestamp.ts';
import { iso, oneOf, text, uuid } from '../../src/platform/input-schemas.ts';
import { seekPage } from '../rails/pagination.ts';
import { defineRoute, type FileAnswer, type RouteDef } from '../rails/route.ts';
import { representation, t, type Field, type Infer } from '../rails/shape.ts';
import { boxShape, serializeBox } from './billing-box-shape.ts';

const TAG = 'Billing';

const fileAnswer = (doc: StoredDocument): FileAnswer => ({ file: { contentType: doc.contentType, bytes: doc.bytes, filename: doc.filename } });

const itemBase = {
  item_id: t.string(),
  rollup_id: t.string(),
  entry: t.string('original, or reversal (negates an item of a box closed earlier)'),
  reverses_item_id: t.nullable(t.string()),
  occurred_at: t.timestamp(),
  description: t.string(),
  amount_excl_vat: t.decimal(),
  vat_kind: t.string(),
  vat_percentage: t.decimal(),
  vat_country: t.string(),
  currency_code: t.string(),
};

export const boxSessionShape = representation('BillingBoxSession', {
  ...itemBase,
  msp_charge_session_id: t.string(),
  pricing_version: t.integer(),
  cpo_session_id: t.nullable(t.string()),
  sub_items: t.array(t.object({ kind: t.string(), label: t.string(), volume: t.decimal(), unit: t.string(), amount_excl_vat: t.decimal() })),
});

export const boxReimbursementShape = representation('BillingBoxReimbursement', {
  ...itemBase,
  cpo_charge_session_id: t.string(),
  cpo_charge_session_reimbursement_id: t.nullable(t.string()),
  arrangement_id: t.string(),
  version: t.integer(),
  sub_items: t.array(t.object({ kind: t.string(), label: t.string(), volume: t.decimal(), unit: t.string(), amount_excl_vat: t.decimal() })),
});

export const boxRoamingShape = representation('BillingBoxRoaming', {
  ...itemBase,
  cpo_charge_session_id: t.string(),
  version: t.integer(),
  cpo_session_id: t.nullable(t.string()),
  sub_items: t.array(t.object({ kind: t.string(), label: t.string(), volume: t.decimal(), unit: t.string(), amount_excl_vat: t.decimal() })),
});

export const customInputShape = representation('BillingCustomInput', {
  ...itemBase,
  external_reference: t.nullable(t.string()),
  quantity: t.decimal(),
  unit: t.string(),
  unit_price_excl_vat: t.decimal(),
  product_category: t.string(),
  context: t.nullable(t.string()),
  reference: t.nullable(t.string()),
  box_category_description: t.nullable(t.string()),
});

const base = (i: ItemData) => ({
  item_id: i.id, rollup_id: i.rollupId, entry: i.entry, reverses_item_id: i.reversesItemId, occurred_at: iso(i.occurredAt),
  description: i.description, amount_excl_vat: i.amountExclVat, vat_kind: i.vatKind, vat_percentage: normalize(i.vatPercent),
  vat_country: i.vatCountry, currency_code: i.currency,
});

const serializeSession = (i: ItemData): Infer<typeof boxSessionShape> => ({
  ...base(i), msp_charge_session_id: i.subjectId, pricing_version: i.sourceVersion, cpo_session_id: i.reference, sub_items: i.subItems,
});

const serializeReimbursement = (i: ItemData): Infer<typeof boxReimbursementShape> => ({
  ...base(i), cpo_charge_session_id: i.subjectId, cpo_charge_session_reimbursement_id: i.reference, arrangement_id: i.lineKey,
  version: i.sourceVersion, sub_items: i.subItems,
});

const serializeRoaming = (i: ItemData): Infer<typeof boxRoamingShape> => ({
  ...base(i), cpo_charge_session_id: i.subjectId, version: i.sourceVersion, cpo_session_id: i.reference, sub_items: i.subItems,
});

const serializeCustomInput = (i: ItemData): Infer<typeof customInputShape> => ({
  ...base(i), external_reference: i.externalReference, quantity: i.quantity, unit: i.unit, unit_price_excl_vat: i.unitPrice,
  product_category: i.productCategory, context: i.context, reference: i.reference, box_category_description: i.boxCategoryDescription,
});

/** Per-box item lists: the box must be visible (else 400 not_found), then its items of the given sources. */
function boxItemsRoute<T>(path: string, summary: string, sourceKinds: string[], shape: Field<T>,
  serialize: (item: ItemData) => T, description?: string) {
  return defineRoute<unknown, unknown, T, true>({
    method: 'get', path: `/billing-box/:id/${path}`, tag: TAG, paged: true, summary, description, response: shape,
    handler: async ({ ctx, em, params, rawQuery }) => {
      await getBox(em, params.id);
      return seekPage(ctx, { list: itemList(em, { boxId: params.id, sourceKinds }), rawQuery, path: ctx.path, serialize });
    },
  });
}

export const billingBoxRoutes: RouteDef[] = [
  defineRoute({
    method: 'get', path: '/billing-box', tag: TAG, paged: true, summary: 'List billing boxes', response: boxShape,
    description: 'Filters combine with AND: party_external_reference, series_external_reference, reviewset_id, state.',
    query: yup.object({
      party_external_reference: text(), series_external_reference: text(), reviewset_id: uuid(), state: oneOf(BOX_STATES),
    }),
    handler: async ({ ctx, em, query, rawQuery }) => {
      const list = await boxListOf(em, {
        partyExternalReference: query.party_external_reference, seriesExternalReference: query.series_external_reference,
        reviewSetId: query.reviewset_id, state: query.state,
      });
      return seekPage(ctx, { list, rawQuery, path: ctx.path, serialize: serializeBox });
    },
  }),
  defineRoute({
    method: 'get', path: '/billing-box/:id', tag: TAG, summary: 'Get a billing box with its roll-ups and totals', response: boxShape,
    handler: async ({ em, params }) => serializeBox(await getBox(em, params.id)),
  }),
  defineRoute({
    method: 'post', path: '/billing-box/:id/close', tag: TAG, graphql: 'closeBillingBox', body: paymentBody, bodyOptional: true, response: boxShape,
    summary: 'Close an open box (optional payment method, payment period in days, billing reference)',
    handler: async ({ em, params, body }) => serializeBox(await closeBox(em, params.id, paymentOptions(body))),
  }),
  defineRoute({
    method: 'post', path: '/billing-box/:id/approve', tag: TAG, graphql: 'approveBillingBox', body: paymentBody, bodyOptional: true, response: boxShape,
    summary: 'Approve a closed box that is not deferred: invoicing begins (the draft is rendered, then the box is ready)',
    handler: async ({ em, params, body }) => serializeBox(await approveBox(em, params.id, paymentOptions(body))),
  }),
  defineRoute({
    method: 'post', path: '/billing-box/:id/reopen', tag: TAG, graphql: 'reopenBillingBox', response: boxShape, summary: 'Reopen a closed, approved or ready box',
    handler: async ({ em, params }) => serializeBox(await reopenBox(em, params.id)),
  }),
  defineRoute({
    method: 'post', path: '/billing-box/:id/defer', tag: TAG, graphql: 'deferBillingBox', response: boxShape, extension: true,
    summary: 'Mark a closed box deferred, so the rest of its review-set can be approved',
    handler: async ({ em, params }) => serializeBox(await deferBox(em, params.id)),
  }),
  defineRoute({
    method: 'post', path: '/billing-box/:id/undefer', tag: TAG, graphql: 'undeferBillingBox', response: boxShape, extension: true, summary: 'Clear the deferred mark of a closed box',
    handler: async ({ em, params }) => serializeBox(await undeferBox(em, params.id)),
  }),
  defineRoute({
    method: 'post', path: '/billing-box/:id/finalize', tag: TAG, graphql: 'finalizeBillingBox', response: boxShape, consumes: ['application/pdf', 'application/xml'],
    summary: 'Finalize a ready box: number, date and final documents (PDF and EN 16931 UBL) in one transaction',
    description: 'From ready; from approved when the series takes documents from an external system: then the body is the document '
      + '(application/pdf or application/xml, up to 10 MB) and the query carries invoice_code and invoice_date (YYYY-MM-DD). '
      + 'mark_transferred=true also marks the box transferred.',
    query: yup.object({
      mark_transferred: oneOf(['true', 'false'] as const), invoice_code: text(64),
      invoice_date: yup.string().test('date', '${path} must be a date YYYY-MM-DD', (value) => value === undefined || parseDate(value) !== null),
    }),
    handler: async ({ ctx, em, params, query }) => {
      const upload = ctx.state.upload as { contentType: string; bytes: Buffer } | undefined;
      if (upload && (!query.invoice_code || !query.invoice_date)) {
        throw new DomainError('invalid_query', 'an uploaded document needs invoice_code and invoice_date', { queryParam: query.invoice_code ? 'invoice_date' : 'invoice_code' });
      }
      const finalized = await finalizeBox(em, params.id, {
        markTransferred: query.mark_transferred === 'true',
        upload: upload ? { ...upload, invoiceCode: query.invoice_code!, invoiceDate: query.invoice_date! } : undefined,
      }).catch((error: unknown) => {
        // The invoice code is a query parameter here (a member of the document in GraphQL).
        if (error instanceof DomainError && error.fieldPath?.[0] === 'invoice_code') throw new DomainError(error.code, error.message, { queryParam: 'invoice_code' });
        throw error;
      });
      return serializeBox(finalized);
    },
  }),
  defineRoute({
    method: 'post', path: '/billing-box/:id/transferred', tag: TAG, graphql: 'markBillingBoxTransferred', response: boxShape, summary: 'Mark a finalized box transferred',
    handler: async ({ em, params }) => serializeBox(await markBoxTransferred(em, params.id)),
  }),
  defineRoute({
    method: 'get', path: '/billing-box/:id/document', tag: TAG, response: t.file(), produces: ['application/pdf', 'application/xml'],
    summary: 'The primary document of a finalized box: PDF, or with Accept: application/xml its EN 16931 UBL',
    handler: async ({ ctx, em, params }) => fileAnswer(await primaryDocument(em, params.id, ctx.accepts('application/pdf', 'application/xml') === 'application/xml' ? 'xml' : 'pdf')),
  }),
  defineRoute({
    method: 'get', path: '/billing-box/:id/document/:filename', tag: TAG, response: t.file(), extension: true,
    produces: ['application/pdf', 'application/xml'], summary: 'A document of a box by filename',
    handler: async ({ em, params }) => fileAnswer(await namedDocument(em, params.id, params.filename)),
  }),
  defineRoute({
    method: 'post', path: '/billing-box/:id/document/:filename', tag: TAG, graphql: 'addBillingBoxDocument', response: boxShape, consumes: ['application/pdf', 'application/xml'],
    summary: 'Add a non-primary document to a box (raw bytes, application/pdf or application/xml, up to 10 MB)',
    handler: async ({ ctx, em, params }) => serializeBox(await addDocument(em, params.id, params.filename, ctx.state.upload)),
  }),
  defineRoute({
    method: 'delete', path: '/billing-box/:id/document/:filename', tag: TAG, graphql: 'removeBillingBoxDocument', response: boxShape, summary: 'Remove a non-primary document of a box',
    handler: async ({ em, params }) => serializeBox(await removeDocument(em, params.id, params.filename)),
  }),
  defineRoute({
    method: 'get', path: '/billing-box/:box_pub_id/primary-document-preview', tag: TAG, response: t.file(), produces: ['application/pdf'],
    summary: 'Preview of the primary document (a draft without number, clearly marked; the final PDF once finalized)',
    handler: async ({ em, params }) => fileAnswer(await previewDocument(em, params.box_pub_id)),
  }),
  boxItemsRoute('custom-billing-input', 'Custom items billed in the box, with their roll-up', [CUSTOM_ITEM_SOURCE], customInputShape, serializeCustomInput),
  boxItemsRoute('msp-charge-session', 'MSP charge sessions billed in the box (a repriced session shows its reversal and new line)',
    [MSP_SESSION_SOURCE], boxSessionShape, serializeSession),
  boxItemsRoute('cpo-charge-session-reimbursement', 'CPO reimbursements billed in the box (expenses: negative amounts)', [CPO_REIMBURSEMENT_SOURCE],
    boxReimbursementShape, serializeReimbursement),
  boxItemsRoute('cpo-charge-session-roaming', 'Roaming amounts billed in the box', [ROAMING_SOURCE], boxRoamingShape, serializeRoaming,
    'What we as CPO charge the box\'s roaming partner for its drivers\' sessions at our EVSEs (cpo_charge_session_id), at the calculated amount '
    + '(the reported one without roaming calculation).'),
];
