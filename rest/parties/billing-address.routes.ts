import * as yup from 'yup';
import { BILLING_PHONE_MAX_LENGTH } from '../../src/parties/billing-address.entity.ts';
import { customerBillingAddressList, getBillingAddress, type BillingAddressDetail } from '../../src/parties/billing-address.queries.ts';
import { upsertBillingAddress, type BillingAddressPatch } from '../../src/parties/save-billing-address.service.ts';
import { parseRef } from '../../src/platform/resource-ref.ts';
import { seekPage } from '../rails/pagination.ts';
import { patchFrom, type FieldMapping } from '../rails/patch.ts';
import { defineRoute, type RouteDef } from '../rails/route.ts';
import { representation, t, type Infer } from '../rails/shape.ts';
import { countryCode, externalRef, iso, isoDate, text, timestamp } from '../../src/platform/input-schemas.ts';

const TAG = 'Billing addresses';

export const billingAddressShape = representation('BillingAddress', {
  id: t.string(),
  party_id: t.string(),
  party_external_reference: t.nullable(t.string()),
  customer_id: t.string(),
  customer_external_reference: t.nullable(t.string()),
  admin_id: t.string(),
  addressee: t.nullable(t.string()),
  address_line1: t.nullable(t.string()),
  address_line2: t.nullable(t.string()),
  postal_code: t.nullable(t.string()),
  city: t.nullable(t.string()),
  region: t.nullable(t.string()),
  country: t.nullable(t.string()),
  billing_phone: t.nullable(t.string()),
  external_reference: t.nullable(t.string()),
  external_updated_at: t.nullable(t.timestamp()),
  created_at: t.timestamp(),
  updated_at: t.timestamp(),
});

export function serializeBillingAddress(a: BillingAddressDetail): Infer<typeof billingAddressShape> {
  return {
    id: a.id,
    party_id: a.customer.id,
    party_external_reference: a.customer.externalReference ?? null,
    customer_id: a.customer.id,
    customer_external_reference: a.customer.externalReference ?? null,
    admin_id: a.admin.id,
    addressee: a.addressee ?? null,
    address_line1: a.addressLine1 ?? null,
    address_line2: a.addressLine2 ?? null,
    postal_code: a.postalCode ?? null,
    city: a.city ?? null,
    region: a.region ?? null,
    country: a.country ?? null,
    billing_phone: a.billingPhone ?? null,
    external_reference: a.externalReference ?? null,
    external_updated_at: iso(a.externalUpdatedAt),
    created_at: iso(a.createdAt),
    updated_at: iso(a.updatedAt),
  };
}

const billingAddressBody = yup.object({
  party_id: text(64).nullable(),
  party_external_reference: text().nullable(),
  customer_id: text(64).nullable().meta({ deprecated: true, description: 'Older name of party_id.' }),
  customer_external_reference: text().nullable().meta({ deprecated: true, description: 'Older name of party_external_reference.' }),
  addressee: text().nullable(),
  address_line1: text().nullable(),
  address_line2: text().nullable(),
  postal_code: text().nullable(),
  city: text().nullable(),
  region: text().nullable(),
  country: countryCode().nullable(),
  billing_phone: text(BILLING_PHONE_MAX_LENGTH).nullable(),
  external_reference: externalRef().nullable(),
  external_updated_at: timestamp().nullable(),
});

const MAPPING: FieldMapping = {
  party_id: 'partyId',
  party_external_reference: 'partyExternalReference',
  customer_id: 'customerId',
  customer_external_reference: 'customerExternalReference',
  addressee: 'addressee',
  address_line1: 'addressLine1',
  address_line2: 'addressLine2',
  postal_code: 'postalCode',
  city: 'city',
  region: 'region',
  country: 'country',
  billing_phone: 'billingPhone',
  external_reference: 'externalReference',
  external_updated_at: { to: 'externalUpdatedAt', convert: isoDate },
};

const patch = (body: Record<string, unknown>, mode: 'merge' | 'replace') => patchFrom(body, MAPPING, mode) as BillingAddressPatch;

export const billingAddressRoutes: RouteDef[] = [
  defineRoute({
    method: 'get', path: '/billing-address/:id', tag: TAG, summary: 'Get a billing address (id or ext_ref.<external_reference>)',
    response: billingAddressShape,
    handler: async ({ em, params }) => serializeBillingAddress(await getBillingAddress(em, parseRef(params.id, true))),
  }),
  defineRoute({
    method: 'post', path: '/billing-address/:id', graphql: 'updateBillingAddress', tag: TAG, body: billingAddressBody, response: billingAddressShape,
    summary: 'Merge-update a billing address; on ext_ref.<ref> create it when missing',
    description: 'Creating names the party (a customer) by exactly one of party_id and party_external_reference '
      + '(customer_id and customer_external_reference are their older names). On update they are ignored, but one naming '
      + 'a party the caller cannot see is 400 not_found. An update with an external_updated_at older than the stored one is ignored.',
    handler: async ({ em, body, params }) =>
      serializeBillingAddress(await upsertBillingAddress(em, parseRef(params.id, true), patch(body, 'merge'))),
  }),
  defineRoute({
    method: 'put', path: '/billing-address/:id', tag: TAG, body: billingAddressBody, deprecated: true, response: billingAddressShape,
    summary: 'Replace a billing address (omitted fields are reset)',
    handler: async ({ em, body, params }) =>
      serializeBillingAddress(await upsertBillingAddress(em, parseRef(params.id, true), patch(body, 'replace'))),
  }),
  defineRoute({
    method: 'get', path: '/customer/:id/billing-address', tag: TAG, paged: true, extension: true, response: billingAddressShape,
    summary: "List a customer's billing addresses",
    handler: async ({ ctx, em, params, rawQuery }) => seekPage(ctx, {
      list: await customerBillingAddressList(em, parseRef(params.id, true)), rawQuery, path: ctx.path, serialize: serializeBillingAddress,
    }),
  }),
];
