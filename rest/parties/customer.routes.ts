import * as yup from 'yup';
import { BILLING_PHONE_MAX_LENGTH, ENTITY_TYPES, REIMBURSEMENT_VAT, ROLLUP_GROUP_BY } from '../../src/parties/customer.entity.ts';
import type { CustomerPatch } from '../../src/parties/customer-input.ts';
import { customerList, getCustomer, type CustomerData } from '../../src/parties/customer.queries.ts';
import { createCustomer, setCustomerChargeAuthBlocked, upsertCustomer } from '../../src/parties/save-customer.service.ts';
import { parseRef } from '../../src/platform/resource-ref.ts';
import { seekPage } from '../rails/pagination.ts';
import { patchFrom, type FieldMapping } from '../rails/patch.ts';
import { defineRoute } from '../rails/route.ts';
import { representation, t, type Infer } from '../rails/shape.ts';
import { countryCode, customFields, email, externalRef, iso, isoDate, oneOf, text, timestamp } from '../../src/platform/input-schemas.ts';

const TAG = 'Customers';

export const customerShape = representation('Customer', {
  id: t.string(),
  admin_id: t.string(),
  name: t.string(),
  country: t.string(),
  entity_type: t.enum(ENTITY_TYPES),
  external_reference: t.nullable(t.string()),
  company_reg_num: t.nullable(t.string()),
  locale_id: t.nullable(t.string()),
  billing_email: t.nullable(t.string()),
  billing_phone: t.nullable(t.string()),
  reimbursement_vat: t.enum(REIMBURSEMENT_VAT),
  billing_rollup_group_by: t.nullable(t.enum(ROLLUP_GROUP_BY)),
  billing_rollup_method: t.nullable(t.enum(ROLLUP_GROUP_BY)),
  custom_fields: t.customFields(),
  charge_auth_requests_blocked: t.boolean(),
  external_updated_at: t.nullable(t.timestamp()),
  created_at: t.timestamp(),
  updated_at: t.timestamp(),
});

export function serializeCustomer(c: CustomerData): Infer<typeof customerShape> {
  return {
    id: c.id,
    admin_id: c.admin.id,
    name: c.name,
    country: c.country,
    entity_type: c.entityType,
    external_reference: c.externalReference ?? null,
    company_reg_num: c.companyRegNum ?? null,
    locale_id: c.localeId ?? null,
    billing_email: c.billingEmail ?? null,
    billing_phone: c.billingPhone ?? null,
    reimbursement_vat: c.reimbursementVat,
    billing_rollup_group_by: c.billingRollupGroupBy ?? null,
    billing_rollup_method: c.billingRollupGroupBy ?? null,
    custom_fields: c.customFields ?? {},
    charge_auth_requests_blocked: c.chargeAuthBlocked,
    external_updated_at: iso(c.externalUpdatedAt),
    created_at: iso(c.createdAt),
    updated_at: iso(c.updatedAt),
  };
}

const customerBody = yup.object({
  admin_id: text(64).nullable(),
  name: text().nullable(),
  country: countryCode().nullable(),
  entity_type: oneOf(ENTITY_TYPES).nullable(),
  external_reference: externalRef().nullable(),
  company_reg_num: text().nullable(),
  locale_id: text(35).nullable(),
  billing_email: email().nullable(),
  billing_phone: text(BILLING_PHONE_MAX_LENGTH).nullable().meta({ description: 'Free text, at most 40 characters.' }),
  reimbursement_vat: oneOf(REIMBURSEMENT_VAT).nullable(),
  billing_rollup_group_by: oneOf(ROLLUP_GROUP_BY).nullable(),
  billing_rollup_method: oneOf(ROLLUP_GROUP_BY).nullable().meta({ deprecated: true }),
  custom_fields: customFields().nullable(),
  external_updated_at: timestamp().nullable(),
});

const MAPPING: FieldMapping = {
  admin_id: 'adminId',
  name: 'name',
  country: 'country',
  entity_type: 'entityType',
  external_reference: 'externalReference',
  company_reg_num: 'companyRegNum',
  locale_id: 'localeId',
  billing_email: 'billingEmail',
  billing_phone: 'billingPhone',
  reimbursement_vat: 'reimbursementVat',
  billing_rollup_group_by: 'billingRollupGroupBy',
  custom_fields: 'customFields',
  external_updated_at: { to: 'externalUpdatedAt', convert: isoDate },
};

function customerPatch(body: Record<string, unknown>, mode: 'merge' | 'replace'): CustomerPatch {
  const patch = patchFrom(body, MAPPING, mode) as CustomerPatch;
  // The deprecated billing_rollup_method still works when the new name is absent.
  if (body.billing_rollup_group_by === undefined && body.billing_rollup_method !== undefined) {
    patch.billingRollupGroupBy = body.billing_rollup_method as CustomerPatch['billingRollupGroupBy'];
  }
  return patch;
}

const idParam = 'id';

export const customerRoutes = [
  defineRoute({
    method: 'get', path: '/customer', tag: TAG, summary: 'List customers', paged: true, createdGt: true, response: customerShape,
    query: yup.object({ external_reference: yup.string(), admin_id: yup.string() }),
    handler: ({ ctx, em, rawQuery, query }) => seekPage(ctx, {
      list: customerList(em, { externalReference: query.external_reference || undefined, adminId: query.admin_id || undefined }),
      rawQuery, path: '/main/v1/customer', createdGt: true, serialize: serializeCustomer,
    }),
  }),
  defineRoute({
    method: 'post', path: '/customer', graphql: 'createCustomer', tag: TAG, summary: 'Create a customer', extension: true, body: customerBody, response: customerShape,
    description: 'Creates a customer without an external reference. POST /customer/ext_ref.<ref> creates one with a reference.',
    handler: async ({ em, body }) => serializeCustomer(await createCustomer(em, customerPatch(body, 'merge'))),
  }),
  defineRoute({
    method: 'get', path: `/customer/:${idParam}`, tag: TAG, summary: 'Get a customer (id or ext_ref.<external_reference>)', response: customerShape,
    handler: async ({ em, params }) => serializeCustomer(await getCustomer(em, parseRef(params.id, true))),
  }),
  defineRoute({
    method: 'post', path: '/customer/:id', graphql: 'updateCustomer', tag: TAG, summary: 'Merge-update a customer; on ext_ref.<ref> create it when missing',
    body: customerBody, response: customerShape,
    handler: async ({ em, body, params }) => {
      const { customer } = await upsertCustomer(em, parseRef(params.id, true), customerPatch(body, 'merge'));
      return serializeCustomer(customer);
    },
  }),
  defineRoute({
    method: 'put', path: '/customer/:id', tag: TAG, summary: 'Replace a customer (omitted fields are reset)', deprecated: true,
    body: customerBody, response: customerShape,
    handler: async ({ em, body, params }) => {
      const { customer } = await upsertCustomer(em, parseRef(params.id, true), customerPatch(body, 'replace'));
      return serializeCustomer(customer);
    },
  }),
  defineRoute({
    method: 'post', path: '/customer/:id/block-charge-auth-requests', graphql: 'blockCustomerChargeAuthRequests', tag: TAG, summary: 'Block charge authorization for the customer',
    response: customerShape,
    handler: async ({ em, params }) => serializeCustomer(await setCustomerChargeAuthBlocked(em, parseRef(params.id, true), true)),
  }),
  defineRoute({
    method: 'post', path: '/customer/:id/unblock-charge-auth-requests', graphql: 'unblockCustomerChargeAuthRequests', tag: TAG, summary: 'Unblock charge authorization for the customer',
    response: customerShape,
    handler: async ({ em, params }) => serializeCustomer(await setCustomerChargeAuthBlocked(em, parseRef(params.id, true), false)),
  }),
];
