import { createCustomer, setCustomerChargeAuthBlocked, upsertCustomer } from '../../src/parties/save-customer.service.ts';
import {
  customerList, customersByIds, customersOfAdministrations, findCustomer, NAME_SEARCH_MIN, type CustomerData,
} from '../../src/parties/customer.queries.ts';
import { validate } from '../../src/platform/input-validation.ts';
import { isDataOf } from '../../src/platform/seek-page.ts';
import * as yup from 'yup';
import { builder } from '../builder.ts';
import { childConnectionsOf } from '../child-connection.ts';
import { listConnection } from '../connection.ts';
import { administrationKey, refFromArg } from '../ids.ts';
import { mutate } from '../mutation.ts';
import { Administration } from './administration.ts';
import { BillingRollupGroupBy } from './billing-rollup-group-by.ts';
import { CustomerInput, customerPatch } from './customer-input.ts';
import { DateTime } from './date-time.ts';
import { EntityType } from './entity-type.ts';
import { JsonScalar } from './json.ts';
import { ReimbursementVat } from './reimbursement-vat.ts';

const customerSearchRules = yup.object({
  nameContains: yup.string().nullable().trim().min(NAME_SEARCH_MIN, '${path} must hold at least ${min} characters').max(200, '${path} must hold at most ${max} characters'),
});

export const Customer = builder.loadableNode('Customer', {
  description: 'A party that holds contracts.',
  id: { resolve: (customer: CustomerData) => customer.id },
  cacheResolved: (customer) => customer.id,
  isTypeOf: (value) => isDataOf(value, 'Customer'),
  load: (ids: string[], context) => customersByIds(context.em, ids),
  fields: (t) => ({
    databaseId: t.exposeString('id', { description: 'The id of this customer in the REST API.' }),
    adminId: t.string({ description: 'The slug of the administration.', resolve: (customer) => customer.admin.id }),
    administration: t.field({ type: Administration, resolve: (customer) => customer.admin.id }),
    name: t.exposeString('name'),
    country: t.exposeString('country'),
    entityType: t.field({ type: EntityType, resolve: (customer) => customer.entityType }),
    externalReference: t.string({ nullable: true, resolve: (customer) => customer.externalReference ?? null }),
    companyRegNum: t.string({ nullable: true, resolve: (customer) => customer.companyRegNum ?? null }),
    localeId: t.string({ nullable: true, resolve: (customer) => customer.localeId ?? null }),
    billingEmail: t.string({ nullable: true, resolve: (customer) => customer.billingEmail ?? null }),
    billingPhone: t.string({ nullable: true, resolve: (customer) => customer.billingPhone ?? null }),
    reimbursementVat: t.field({ type: ReimbursementVat, resolve: (customer) => customer.reimbursementVat }),
    billingRollupGroupBy: t.field({ type: BillingRollupGroupBy, nullable: true, resolve: (customer) => customer.billingRollupGroupBy ?? null }),
    billingRollupMethod: t.field({
      type: BillingRollupGroupBy, nullable: true, deprecationReason: 'Use billingRollupGroupBy.',
      resolve: (customer) => customer.billingRollupGroupBy ?? null,
    }),
    customFields: t.field({ type: JsonScalar, resolve: (customer) => customer.customFields ?? {} }),
    chargeAuthRequestsBlocked: t.exposeBoolean('chargeAuthBlocked'),
    externalUpdatedAt: t.field({ type: DateTime, nullable: true, resolve: (customer) => customer.externalUpdatedAt ?? null }),
    createdAt: t.field({ type: DateTime, resolve: (customer) => customer.createdAt }),
    updatedAt: t.field({ type: DateTime, resolve: (customer) => customer.updatedAt }),
  }),
});

export const CustomerConnection = builder.connectionObject({ type: Customer, name: 'CustomerConnection' }, { name: 'CustomerEdge' });

const customerRef = (id: string | number) => refFromArg(String(id), 'Customer');
const ID_DESCRIPTION = 'Global ID, REST id, or ext_ref.<external_reference>.';

builder.objectField(Administration, 'customers', (t) => t.loadable({
  type: CustomerConnection,
  byPath: true,
  args: { ...t.arg.connectionArgs() },
  load: (adminIds: string[], context, args) => childConnectionsOf(adminIds, args, (ids, range) => customersOfAdministrations(context.em, ids, range)),
  resolve: (administration) => administration.id,
}));

builder.queryFields((t) => ({
  customers: t.connection({
    type: Customer,
    description: 'The customers the caller may see, by id.',
    args: {
      adminId: t.arg.id({ description: 'Only customers of this administration (slug or global ID).' }),
      nameContains: t.arg.string({ description: `Only customers whose name contains this text, in any casing (at least ${NAME_SEARCH_MIN} characters).` }),
    },
    resolve: (_root, args, context) => {
      validate(customerSearchRules, { nameContains: args.nameContains });
      return listConnection<CustomerData>(customerList(context.em, {
        ...(args.adminId ? { adminId: administrationKey(String(args.adminId)) } : {}),
        ...(args.nameContains ? { nameContains: args.nameContains.trim() } : {}),
      }), args);
    },
  }, CustomerConnection),
  customer: t.field({
    type: Customer,
    nullable: true,
    description: 'A customer; null when there is none the caller may see.',
    args: { id: t.arg.id({ required: true, description: ID_DESCRIPTION }) },
    resolve: (_root, args, context) => {
      const ref = customerRef(args.id);
      return 'id' in ref ? ref.id : findCustomer(context.em, ref);
    },
  }),
}));

builder.mutationFields((t) => ({
  createCustomer: t.field({
    type: Customer,
    nullable: true,
    description: 'Creates a customer (REST: POST /customer).',
    args: { input: t.arg({ type: CustomerInput, required: true }) },
    resolve: (_root, args, context) => mutate(context, 'input', (em) => createCustomer(em, customerPatch(args.input))),
  }),
  updateCustomer: t.field({
    type: Customer,
    nullable: true,
    description: 'Merge-updates a customer (REST: POST /customer/{id}); with ext_ref.<ref> as id, creates it when none has that reference.',
    args: { id: t.arg.id({ required: true, description: ID_DESCRIPTION }), input: t.arg({ type: CustomerInput, required: true }) },
    resolve: (_root, args, context) => mutate(context, 'input', async (em) =>
      (await upsertCustomer(em, customerRef(args.id), customerPatch(args.input))).customer),
  }),
  blockCustomerChargeAuthRequests: t.field({
    type: Customer,
    nullable: true,
    args: { id: t.arg.id({ required: true, description: ID_DESCRIPTION }) },
    resolve: (_root, args, context) => mutate(context, null, (em) => setCustomerChargeAuthBlocked(em, customerRef(args.id), true)),
  }),
  unblockCustomerChargeAuthRequests: t.field({
    type: Customer,
    nullable: true,
    args: { id: t.arg.id({ required: true, description: ID_DESCRIPTION }) },
    resolve: (_root, args, context) => mutate(context, null, (em) => setCustomerChargeAuthBlocked(em, customerRef(args.id), false)),
  }),
}));
