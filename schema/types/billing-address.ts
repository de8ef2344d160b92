import * as yup from 'yup';
import { BILLING_PHONE_MAX_LENGTH } from '../../src/parties/billing-address.entity.ts';
import { upsertBillingAddress, type BillingAddressPatch } from '../../src/parties/save-billing-address.service.ts';
import { countryCode, externalRef, text } from '../../src/platform/input-schemas.ts';
import { validate } from '../../src/platform/input-validation.ts';
import { billingAddressesByIds, billingAddressesOfCustomers, type BillingAddressData } from '../../src/parties/billing-address.queries.ts';
import { isDataOf } from '../../src/platform/seek-page.ts';
import { builder } from '../builder.ts';
import { childConnectionsOf } from '../child-connection.ts';
import { idArg, refFromArg } from '../ids.ts';
import { mutate } from '../mutation.ts';
import { Administration } from './administration.ts';
import { Customer } from './customer.ts';
import { DateTime } from './date-time.ts';

export const BillingAddress = builder.loadableNode('BillingAddress', {
  description: 'Where invoices of a customer go.',
  id: { resolve: (address: BillingAddressData) => address.id },
  cacheResolved: (address) => address.id,
  isTypeOf: (value) => isDataOf(value, 'BillingAddress'),
  load: (ids: string[], context) => billingAddressesByIds(context.em, ids),
  fields: (t) => ({
    databaseId: t.exposeString('id', { description: 'The id of this billing address in the REST API.' }),
    customer: t.field({ type: Customer, resolve: (address) => address.customer.id }),
    administration: t.field({ type: Administration, resolve: (address) => address.admin.id }),
    addressee: t.string({ nullable: true, resolve: (address) => address.addressee ?? null }),
    addressLine1: t.string({ nullable: true, resolve: (address) => address.addressLine1 ?? null }),
    addressLine2: t.string({ nullable: true, resolve: (address) => address.addressLine2 ?? null }),
    postalCode: t.string({ nullable: true, resolve: (address) => address.postalCode ?? null }),
    city: t.string({ nullable: true, resolve: (address) => address.city ?? null }),
    region: t.string({ nullable: true, resolve: (address) => address.region ?? null }),
    country: t.string({ nullable: true, resolve: (address) => address.country ?? null }),
    billingPhone: t.string({ nullable: true, resolve: (address) => address.billingPhone ?? null }),
    externalReference: t.string({ nullable: true, resolve: (address) => address.externalReference ?? null }),
    externalUpdatedAt: t.field({ type: DateTime, nullable: true, resolve: (address) => address.externalUpdatedAt ?? null }),
    createdAt: t.field({ type: DateTime, resolve: (address) => address.createdAt }),
    updatedAt: t.field({ type: DateTime, resolve: (address) => address.updatedAt }),
  }),
});

export const BillingAddressConnection = builder.connectionObject(
  { type: BillingAddress, name: 'BillingAddressConnection' },
  { name: 'BillingAddressEdge' },
);

builder.objectField(Customer, 'billingAddresses', (t) => t.loadable({
  type: BillingAddressConnection,
  byPath: true,
  args: { ...t.arg.connectionArgs() },
  load: (customerIds: string[], context, args) => childConnectionsOf(customerIds, args, (ids, range) => billingAddressesOfCustomers(context.em, ids, range)),
  resolve: (customer) => customer.id,
}));

const BillingAddressInput = builder.inputType('BillingAddressInput', {
  description: 'JSON Merge Patch semantics: an absent field keeps its value, null clears it. Creating names the customer by exactly one of '
    + 'partyId and partyExternalReference; on update they are ignored, but one naming a party the caller cannot see is not_found.',
  fields: (t) => ({
    partyId: t.id({ description: 'The customer: global ID or REST id.' }),
    partyExternalReference: t.string(),
    addressee: t.string(),
    addressLine1: t.string(),
    addressLine2: t.string(),
    postalCode: t.string(),
    city: t.string(),
    region: t.string(),
    country: t.string({ description: 'ISO 3166-1 alpha-2 country code.' }),
    billingPhone: t.string({ description: 'Free text, at most 40 characters.' }),
    externalReference: t.string(),
    externalUpdatedAt: t.field({ type: DateTime, description: 'An update older than the stored one is ignored.' }),
  }),
});

/** What GraphQL types cannot say; the same rules as the REST body. */
const rules = yup.object({
  partyId: text(64).nullable(),
  partyExternalReference: text().nullable(),
  addressee: text().nullable(),
  addressLine1: text().nullable(),
  addressLine2: text().nullable(),
  postalCode: text().nullable(),
  city: text().nullable(),
  region: text().nullable(),
  country: countryCode().nullable(),
  billingPhone: text(BILLING_PHONE_MAX_LENGTH).nullable(),
  externalReference: externalRef().nullable(),
});

function billingAddressPatch(input: typeof BillingAddressInput.$inferInput): BillingAddressPatch {
  const patch = { ...input } as BillingAddressPatch;
  if (typeof input.partyId === 'string') patch.partyId = idArg(input.partyId, 'Customer');
  validate(rules, patch);
  return patch;
}

builder.mutationFields((t) => ({
  updateBillingAddress: t.field({
    type: BillingAddress,
    nullable: true,
    description: 'Merge-updates a billing address; with ext_ref.<ref> as id, creates it when missing (REST: POST /billing-address/{id}).',
    args: {
      id: t.arg.id({ required: true, description: 'Global ID, REST id, or ext_ref.<external_reference>.' }),
      input: t.arg({ type: BillingAddressInput, required: true }),
    },
    resolve: (_root, args, context) => mutate(context, 'input', (em) =>
      upsertBillingAddress(em, refFromArg(String(args.id), 'BillingAddress'), billingAddressPatch(args.input))),
  }),
}));
