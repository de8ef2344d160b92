import { billingAddressesByIds, billingAddressesOfCustomers, type BillingAddressData } from '../../src/parties/billing-address.queries.ts';
import { isDataOf } from '../../src/platform/seek-page.ts';
import { builder } from '../builder.ts';
import { childConnectionsOf } from '../child-connection.ts';
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
