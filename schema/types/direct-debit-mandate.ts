import { mandatesByIds, mandatesOfCustomers, type MandateData } from '../../src/parties/direct-debit-mandate.queries.ts';
import { isDataOf } from '../../src/platform/seek-page.ts';
import { builder } from '../builder.ts';
import { childConnectionsOf } from '../child-connection.ts';
import { Administration } from './administration.ts';
import { Customer } from './customer.ts';
import { DateTime } from './date-time.ts';

export const DirectDebitMandate = builder.loadableNode('DirectDebitMandate', {
  description: 'A SEPA direct debit mandate of a customer, valid from validFrom until (excluding) validUntil.',
  id: { resolve: (mandate: MandateData) => mandate.id },
  cacheResolved: (mandate) => mandate.id,
  isTypeOf: (value) => isDataOf(value, 'DirectDebitMandate'),
  load: (ids: string[], context) => mandatesByIds(context.em, ids),
  fields: (t) => ({
    databaseId: t.exposeString('id', { description: 'The id of this mandate in the REST API.' }),
    customer: t.field({ type: Customer, resolve: (mandate) => mandate.customer.id }),
    administration: t.field({ type: Administration, resolve: (mandate) => mandate.admin.id }),
    bankAccountName: t.exposeString('bankAccountName'),
    iban: t.exposeString('iban'),
    bic: t.string({ nullable: true, resolve: (mandate) => mandate.bic ?? null }),
    mandateReference: t.string({ nullable: true, resolve: (mandate) => mandate.mandateReference ?? null }),
    signedAt: t.field({ type: DateTime, nullable: true, resolve: (mandate) => mandate.signedAt ?? null }),
    validFrom: t.field({ type: DateTime, resolve: (mandate) => mandate.validFrom }),
    validUntil: t.field({ type: DateTime, nullable: true, resolve: (mandate) => mandate.validUntil ?? null }),
    defunct: t.exposeBoolean('defunct'),
    externalReference: t.string({ nullable: true, resolve: (mandate) => mandate.externalReference ?? null }),
    externalUpdatedAt: t.field({ type: DateTime, nullable: true, resolve: (mandate) => mandate.externalUpdatedAt ?? null }),
    createdAt: t.field({ type: DateTime, resolve: (mandate) => mandate.createdAt }),
    updatedAt: t.field({ type: DateTime, resolve: (mandate) => mandate.updatedAt }),
  }),
});

export const DirectDebitMandateConnection = builder.connectionObject(
  { type: DirectDebitMandate, name: 'DirectDebitMandateConnection' },
  { name: 'DirectDebitMandateEdge' },
);

builder.objectField(Customer, 'directDebitMandates', (t) => t.loadable({
  type: DirectDebitMandateConnection,
  byPath: true,
  args: { ...t.arg.connectionArgs() },
  load: (customerIds: string[], context, args) => childConnectionsOf(customerIds, args, (ids, range) => mandatesOfCustomers(context.em, ids, range)),
  resolve: (customer) => customer.id,
}));
