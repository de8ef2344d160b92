import { switchArrangementPlan } from '../../src/cpo/reimbursement-plan.service.ts';
import { createArrangement, markArrangementDefunct, updateArrangement } from '../../src/cpo/save-reimbursement-arrangement.service.ts';
import { arrangementList, arrangementsByIds, type ArrangementData } from '../../src/cpo/reimbursement.queries.ts';
import { uuid } from '../../src/platform/input-schemas.ts';
import { validate } from '../../src/platform/input-validation.ts';
import * as yup from 'yup';
import { isDataOf } from '../../src/platform/seek-page.ts';
import { builder } from '../builder.ts';
import { contractInputFields, contractPatch } from '../contract-inputs.ts';
import { administrationKey, idArg, refFromArg } from '../ids.ts';
import { listConnection } from '../connection.ts';
import { FIELD_ARGUMENTS, mutate } from '../mutation.ts';
import { planId, ReimbursementPlan } from './cpo-reference-data.ts';
import { Customer } from './customer.ts';
import { DateTime } from './date-time.ts';
import { JsonScalar } from './json.ts';

export const ReimbursementArrangement = builder.loadableNode('ReimbursementArrangement', {
  description: "What a charger owner (the customer) is reimbursed for the sessions at its EVSEs, valid from validFrom until (excluding) validUntil "
    + '(REST: /cpo-reimbursement-arrangement/{id}).',
  id: { resolve: (a: ArrangementData) => a.id },
  cacheResolved: (a) => a.id,
  isTypeOf: (value) => isDataOf(value, 'ReimbursementArrangement'),
  load: (ids: string[], context) => arrangementsByIds(context.em, ids) as Promise<ArrangementData[]>,
  fields: (t) => ({
    databaseId: t.exposeString('id'),
    adminId: t.string({ resolve: (a) => a.admin.id }),
    customerId: t.string({ resolve: (a) => a.customer.id }),
    customer: t.field({ type: Customer, nullable: true, description: 'Null when the customer is outside what the caller may see.', resolve: (a) => a.customer.id }),
    planId: t.string({ nullable: true, resolve: (a) => a.plan?.id ?? null }),
    plan: t.field({ type: ReimbursementPlan, nullable: true, resolve: (a) => a.plan?.id ?? null }),
    buyerReference: t.string({ nullable: true, resolve: (a) => a.buyerReference ?? null }),
    validFrom: t.field({ type: DateTime, resolve: (a) => a.validFrom }),
    validUntil: t.field({ type: DateTime, nullable: true, resolve: (a) => a.validUntil ?? null }),
    defunct: t.exposeBoolean('defunct'),
    customFields: t.field({ type: JsonScalar, resolve: (a) => a.customFields ?? {} }),
    externalReference: t.string({ nullable: true, resolve: (a) => a.externalReference ?? null }),
    externalUpdatedAt: t.field({ type: DateTime, nullable: true, resolve: (a) => a.externalUpdatedAt ?? null }),
    createdAt: t.field({ type: DateTime, resolve: (a) => a.createdAt }),
    updatedAt: t.field({ type: DateTime, resolve: (a) => a.updatedAt }),
  }),
});

/** An arrangement named by its global ID or its REST id. */
export const arrangementId = (raw: string | number) => {
  const ref = refFromArg(String(raw), 'ReimbursementArrangement', false);
  return 'id' in ref ? ref.id : String(raw);
};

const ArrangementConnection = builder.connectionObject({ type: ReimbursementArrangement, name: 'ReimbursementArrangementConnection' },
  { name: 'ReimbursementArrangementEdge' });
const arrangementListRules = yup.object({ customerId: uuid().nullable() });

builder.queryFields((t) => ({
  reimbursementArrangements: t.connection({
    type: ReimbursementArrangement, description: 'Reimbursement arrangements by id; filters combine with AND.',
    args: {
      adminId: t.arg.id({ description: 'Only arrangements of this administration (slug or global ID).' }),
      customerId: t.arg.id({ description: 'Only arrangements of this customer, the EVSE owner (global ID or REST id).' }),
    },
    resolve: (_root, args, context) => {
      const customerId = args.customerId ? idArg(args.customerId, 'Customer') : undefined;
      validate(arrangementListRules, { customerId });
      return listConnection<ArrangementData>(arrangementList(context.em, {
        adminId: args.adminId ? administrationKey(String(args.adminId)) : undefined, customerId,
      }), args);
    },
  }, ArrangementConnection),
}));

builder.mutationFields((t) => ({
  switchReimbursementPlan: t.field({
    type: ReimbursementArrangement, nullable: true,
    description: 'Switches the reimbursement plan of an arrangement to a plan of the same administration '
      + '(REST: POST /cpo-reimbursement-arrangement/{id}/switch-plan).',
    args: {
      arrangementId: t.arg.id({ required: true, description: 'Global ID or REST id.' }),
      planId: t.arg.id({ required: true, description: 'Global ID or REST id.' }),
    },
    resolve: (_root, args, context) => mutate(context, FIELD_ARGUMENTS, (em) =>
      switchArrangementPlan(em, arrangementId(args.arrangementId), planId(args.planId))),
  }),
}));

// --- create, merge-update, defunct (the services of REST's /cpo-reimbursement-arrangement) ---

const CreateReimbursementArrangementInput = builder.inputType('CreateReimbursementArrangementInput', {
  description: 'A new arrangement of a customer (the charger owner) in an administration; its plan: switchReimbursementPlan.',
  fields: (t) => ({
    adminId: t.id({ required: true, description: 'Slug or global ID of the administration.' }),
    customerId: t.id({ required: true, description: 'Global ID or REST id of the customer.' }),
    ...contractInputFields(t),
    validFrom: t.field({ type: DateTime, required: true }),
  }),
});

const ReimbursementArrangementInput = builder.inputType('ReimbursementArrangementInput', {
  description: 'JSON Merge Patch semantics: an absent field keeps its value, null clears it (validFrom cannot be cleared).',
  fields: (t) => contractInputFields(t),
});

builder.mutationFields((t) => ({
  createReimbursementArrangement: t.field({
    type: ReimbursementArrangement, nullable: true,
    description: 'Creates a reimbursement arrangement (REST: POST /cpo-reimbursement-arrangement).',
    args: { input: t.arg({ type: CreateReimbursementArrangementInput, required: true }) },
    resolve: (_root, args, context) => mutate(context, 'input', (em) => {
      const { adminId, customerId, ...fields } = args.input;
      return createArrangement(em, { ...contractPatch(fields), adminId: administrationKey(String(adminId)), customerId: idArg(customerId, 'Customer') });
    }),
  }),
  updateReimbursementArrangement: t.field({
    type: ReimbursementArrangement, nullable: true,
    description: 'Merge-updates a reimbursement arrangement (REST: POST /cpo-reimbursement-arrangement/{id}).',
    args: { id: t.arg.id({ required: true, description: 'Global ID or REST id.' }), input: t.arg({ type: ReimbursementArrangementInput, required: true }) },
    resolve: (_root, args, context) => mutate(context, 'input', (em) => updateArrangement(em, arrangementId(args.id), contractPatch(args.input))),
  }),
  markReimbursementArrangementDefunct: t.field({
    type: ReimbursementArrangement, nullable: true,
    description: 'Marks an arrangement defunct, its links too (REST: PUT /cpo-reimbursement-arrangement/{id}/defunct).',
    args: {
      id: t.arg.id({ required: true, description: 'Global ID or REST id.' }),
      externalUpdatedAt: t.arg({ type: DateTime, description: 'Recorded when given (REST: the optional body\'s external_updated_at).' }),
    },
    resolve: (_root, args, context) => mutate(context, null, (em) => markArrangementDefunct(em, arrangementId(args.id), args.externalUpdatedAt)),
  }),
}));
