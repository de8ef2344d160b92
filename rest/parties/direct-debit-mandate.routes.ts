import * as yup from 'yup';
import { createMandate } from '../../src/parties/create-direct-debit-mandate.service.ts';
import { markMandateDefunct } from '../../src/parties/defunct-direct-debit-mandate.service.ts';
import type { MandatePatch } from '../../src/parties/direct-debit-mandate-input.ts';
import { customerMandateList, getMandate, type MandateDetail } from '../../src/parties/direct-debit-mandate.queries.ts';
import { upsertMandate } from '../../src/parties/update-direct-debit-mandate.service.ts';
import { parseRef } from '../../src/platform/resource-ref.ts';
import { seekPage } from '../rails/pagination.ts';
import { patchFrom, type FieldMapping } from '../rails/patch.ts';
import { defineRoute, type RouteDef } from '../rails/route.ts';
import { externalRef, iso, isoDate, text, timestamp } from '../../src/platform/input-schemas.ts';
import { representation, t, type Infer } from '../rails/shape.ts';

const TAG = 'Direct debit mandates';

export const mandateShape = representation('DirectDebitMandate', {
  id: t.string(),
  customer_id: t.string(),
  customer_external_reference: t.nullable(t.string()),
  admin_id: t.string(),
  bank_account_name: t.string(),
  iban: t.string(),
  bic: t.nullable(t.string()),
  mandate_reference: t.nullable(t.string()),
  signed_at: t.nullable(t.timestamp()),
  valid_from: t.timestamp(),
  valid_until: t.nullable(t.timestamp()),
  defunct: t.boolean(),
  external_reference: t.nullable(t.string()),
  external_updated_at: t.nullable(t.timestamp()),
  created_at: t.timestamp(),
  updated_at: t.timestamp(),
});

export function serializeMandate(m: MandateDetail): Infer<typeof mandateShape> {
  return {
    id: m.id,
    customer_id: m.customer.id,
    customer_external_reference: m.customer.externalReference ?? null,
    admin_id: m.admin.id,
    bank_account_name: m.bankAccountName,
    iban: m.iban,
    bic: m.bic ?? null,
    mandate_reference: m.mandateReference ?? null,
    signed_at: iso(m.signedAt),
    valid_from: iso(m.validFrom),
    valid_until: iso(m.validUntil),
    defunct: m.defunct,
    external_reference: m.externalReference ?? null,
    external_updated_at: iso(m.externalUpdatedAt),
    created_at: iso(m.createdAt),
    updated_at: iso(m.updatedAt),
  };
}

const mandateBody = yup.object({
  customer_id: text(64).nullable(),
  customer_external_reference: text().nullable(),
  bank_account_name: text().nullable(),
  iban: text(64).nullable(),
  bic: text(64).nullable(),
  mandate_reference: text().nullable(),
  signed_at: timestamp().nullable(),
  valid_from: timestamp().nullable(),
  valid_until: timestamp().nullable(),
  defunct: yup.boolean().nullable(),
  invalidate_overlapping_mandate: yup.boolean().nullable(),
  external_reference: externalRef().nullable(),
  external_updated_at: timestamp().nullable(),
});

const MAPPING: FieldMapping = {
  customer_id: 'customerId',
  customer_external_reference: 'customerExternalReference',
  bank_account_name: 'bankAccountName',
  iban: 'iban',
  bic: 'bic',
  mandate_reference: 'mandateReference',
  signed_at: { to: 'signedAt', convert: isoDate },
  valid_from: { to: 'validFrom', convert: isoDate },
  valid_until: { to: 'validUntil', convert: isoDate },
  defunct: 'defunct',
  external_reference: 'externalReference',
  external_updated_at: { to: 'externalUpdatedAt', convert: isoDate },
};

const patch = (body: Record<string, unknown>, mode: 'merge' | 'replace') => patchFrom(body, MAPPING, mode) as MandatePatch;
const invalidate = (body: Record<string, unknown>) => body.invalidate_overlapping_mandate === true;

const OVERLAP_RULE = 'Validity is [valid_from, valid_until). A customer\'s non-defunct mandates may not overlap: an overlap is '
  + 'refused (overlapping_mandate) unless invalidate_overlapping_mandate is true (honoured on create and replace only); '
  + 'then each overlapping mandate ends at this one\'s valid_from, or becomes defunct when it starts at or after it.';

export const directDebitMandateRoutes: RouteDef[] = [
  defineRoute({
    method: 'get', path: '/direct-debit-mandate/:id', tag: TAG, summary: 'Get a direct debit mandate (id or ext_ref.<external_reference>)',
    response: mandateShape,
    handler: async ({ em, params }) => serializeMandate(await getMandate(em, parseRef(params.id, true))),
  }),
  defineRoute({
    method: 'post', path: '/billing-direct-debit-mandate', graphql: 'createDirectDebitMandate', tag: TAG, body: mandateBody, summary: 'Create a direct debit mandate', response: mandateShape,
    description: `Needs exactly one of customer_id and customer_external_reference. valid_from defaults to now. ${OVERLAP_RULE}`,
    handler: async ({ em, body }) => serializeMandate(await createMandate(em, patch(body, 'merge'), { invalidateOverlapping: invalidate(body) })),
  }),
  defineRoute({
    method: 'post', path: '/billing-direct-debit-mandate/:id', graphql: 'updateDirectDebitMandate', tag: TAG, body: mandateBody,
    summary: 'Merge-update a direct debit mandate; on ext_ref.<ref> create it when missing', response: mandateShape,
    description: `The customer is chosen on create only. A defunct mandate cannot be changed. ${OVERLAP_RULE}`,
    handler: async ({ em, body, params }) => serializeMandate(await upsertMandate(
      em, parseRef(params.id, true), patch(body, 'merge'), { invalidateOverlapping: invalidate(body) })),
  }),
  defineRoute({
    method: 'put', path: '/billing-direct-debit-mandate/:id', tag: TAG, body: mandateBody, deprecated: true,
    summary: 'Replace a direct debit mandate (omitted fields are reset; valid_from to now)', response: mandateShape,
    description: OVERLAP_RULE,
    handler: async ({ em, body, params }) => serializeMandate(await upsertMandate(
      em, parseRef(params.id, true), patch(body, 'replace'), { invalidateOverlapping: invalidate(body), replace: true })),
  }),
  defineRoute({
    method: 'put', path: '/billing-direct-debit-mandate/:id/defunct', graphql: 'markDirectDebitMandateDefunct', tag: TAG, summary: 'Mark a direct debit mandate defunct', response: mandateShape,
    body: yup.object({ external_updated_at: timestamp().nullable() }), bodyOptional: true,
    handler: async ({ em, body, params }) =>
      serializeMandate(await markMandateDefunct(em, parseRef(params.id, true), isoDate(body.external_updated_at))),
  }),
  defineRoute({
    method: 'get', path: '/customer/:id/direct-debit-mandate', tag: TAG, paged: true, extension: true,
    summary: "List a customer's direct debit mandates", response: mandateShape,
    handler: async ({ ctx, em, params, rawQuery }) => seekPage(ctx, {
      list: await customerMandateList(em, parseRef(params.id, true)), rawQuery, path: ctx.path, serialize: serializeMandate,
    }),
  }),
];
