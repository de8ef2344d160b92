import * as yup from 'yup';
import { createMandate } from '../../src/parties/create-direct-debit-mandate.service.ts';
import { markMandateDefunct } from '../../src/parties/defunct-direct-debit-mandate.service.ts';
import type { MandateOptions, MandatePatch } from '../../src/parties/direct-debit-mandate-input.ts';
import { upsertMandate } from '../../src/parties/update-direct-debit-mandate.service.ts';
import { externalRef, text } from '../../src/platform/input-schemas.ts';
import { validate } from '../../src/platform/input-validation.ts';
import { mandatesByIds, mandatesOfCustomers, type MandateData } from '../../src/parties/direct-debit-mandate.queries.ts';
import { isDataOf } from '../../src/platform/seek-page.ts';
import { builder } from '../builder.ts';
import { childConnectionsOf } from '../child-connection.ts';
import { idArg, refFromArg } from '../ids.ts';
import { FIELD_ARGUMENTS, mutate } from '../mutation.ts';
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

const DirectDebitMandateInput = builder.inputType('DirectDebitMandateInput', {
  description: 'JSON Merge Patch semantics: an absent field keeps its value, null clears it. Creating needs exactly one of customerId and '
    + 'customerExternalReference (chosen on create only), bankAccountName and iban; validFrom defaults to now. A customer\'s non-defunct '
    + 'mandates may not overlap (overlapping_mandate) unless invalidateOverlappingMandate (honoured on create only).',
  fields: (t) => ({
    customerId: t.id({ description: 'Global ID or REST id.' }),
    customerExternalReference: t.string(),
    bankAccountName: t.string(),
    iban: t.string(),
    bic: t.string(),
    mandateReference: t.string(),
    signedAt: t.field({ type: DateTime }),
    validFrom: t.field({ type: DateTime }),
    validUntil: t.field({ type: DateTime, description: 'Exclusive; null: open-ended.' }),
    defunct: t.boolean(),
    invalidateOverlappingMandate: t.boolean({ description: 'End or defunct the customer\'s overlapping mandates instead of refusing.' }),
    externalReference: t.string(),
    externalUpdatedAt: t.field({ type: DateTime, description: 'An update older than the stored one is ignored.' }),
  }),
});

/** What GraphQL types cannot say; the same rules as the REST body. */
const rules = yup.object({
  customerId: text(64).nullable(),
  customerExternalReference: text().nullable(),
  bankAccountName: text().nullable(),
  iban: text(64).nullable(),
  bic: text(64).nullable(),
  mandateReference: text().nullable(),
  externalReference: externalRef().nullable(),
});

function mandateInput(input: typeof DirectDebitMandateInput.$inferInput): { patch: MandatePatch; options: MandateOptions } {
  const { invalidateOverlappingMandate, ...fields } = input;
  const patch = { ...fields } as MandatePatch;
  if (typeof fields.customerId === 'string') patch.customerId = idArg(fields.customerId, 'Customer');
  validate(rules, patch);
  return { patch, options: { invalidateOverlapping: invalidateOverlappingMandate === true } };
}

const mandateRef = (id: string | number) => refFromArg(String(id), 'DirectDebitMandate');
const ID_DESCRIPTION = 'Global ID, REST id, or ext_ref.<external_reference>.';

builder.mutationFields((t) => ({
  createDirectDebitMandate: t.field({
    type: DirectDebitMandate,
    nullable: true,
    description: 'Creates a direct debit mandate (REST: POST /billing-direct-debit-mandate).',
    args: { input: t.arg({ type: DirectDebitMandateInput, required: true }) },
    resolve: (_root, args, context) => mutate(context, 'input', (em) => {
      const { patch, options } = mandateInput(args.input);
      return createMandate(em, patch, options);
    }),
  }),
  updateDirectDebitMandate: t.field({
    type: DirectDebitMandate,
    nullable: true,
    description: 'Merge-updates a direct debit mandate; with ext_ref.<ref> as id, creates it when missing (REST: POST /billing-direct-debit-mandate/{id}).',
    args: { id: t.arg.id({ required: true, description: ID_DESCRIPTION }), input: t.arg({ type: DirectDebitMandateInput, required: true }) },
    resolve: (_root, args, context) => mutate(context, 'input', (em) => {
      const { patch, options } = mandateInput(args.input);
      return upsertMandate(em, mandateRef(args.id), patch, options);
    }),
  }),
  markDirectDebitMandateDefunct: t.field({
    type: DirectDebitMandate,
    nullable: true,
    description: 'Marks a direct debit mandate defunct (REST: PUT /billing-direct-debit-mandate/{id}/defunct).',
    args: {
      id: t.arg.id({ required: true, description: ID_DESCRIPTION }),
      externalUpdatedAt: t.arg({ type: DateTime, description: 'An update older than the stored one is ignored.' }),
    },
    resolve: (_root, args, context) => mutate(context, FIELD_ARGUMENTS, (em) => markMandateDefunct(em, mandateRef(args.id), args.externalUpdatedAt ?? null)),
  }),
}));
