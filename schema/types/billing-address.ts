import { BillingAddress as BillingAddressEntity } from '../../src/parties/billing-address.entity.ts';
import { builder } from '../builder.ts';
import { childConnections } from '../child-connection.ts';
import { loadByIds } from '../load.ts';
import { Administration } from './administration.ts';
import { Customer } from './customer.ts';
import { DateTime } from './date-time.ts';

export const BillingAddress = builder.loadableNode(BillingAddressEntity, {
  name: 'BillingAddress',
  description: 'Where invoices of a customer go.',
  id: { resolve: (address) => address.id },
  cacheResolved: (address) => address.id,
  load: (ids: string[], context) => loadByIds(context.em, BillingAddressEntity, ids),
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
  load: (customerIds: string[], context, args) => childConnections(context.em, BillingAddressEntity, 'customer', customerIds, args),
  resolve: (customer) => customer.id,
}));
