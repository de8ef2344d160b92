import * as yup from 'yup';
import { normalize } from '../../src/money/decimal.ts';
import { createTokenSubscription } from '../../src/msp/create-token-subscription.service.ts';
import { changeMonetaryCredit } from '../../src/msp/monetary-credit.service.ts';
import { markTokenSubscriptionDefunct } from '../../src/msp/defunct-token-subscription.service.ts';
import { correctPlanOrCustomer, type CorrectionData } from '../../src/msp/subscription-correction.service.ts';
import type { NewTokenSubscription, TokenSubscriptionPatch } from '../../src/msp/token-subscription-input.ts';
import { subscriptionsOfCustomers, tokenSubscriptionsByIds, type TokenSubscriptionData } from '../../src/msp/token-subscription.queries.ts';
import { updateTokenSubscription } from '../../src/msp/update-token-subscription.service.ts';
import { customFields, externalRef, text } from '../../src/platform/input-schemas.ts';
import { validate } from '../../src/platform/input-validation.ts';
import { isDataOf } from '../../src/platform/seek-page.ts';
import { builder } from '../builder.ts';
import { childConnectionsOf } from '../child-connection.ts';
import { administrationKey, refFromArg } from '../ids.ts';
import { mutate } from '../mutation.ts';
import { Administration } from './administration.ts';
import { Customer } from './customer.ts';
import { DateTime } from './date-time.ts';
import { JsonScalar } from './json.ts';
import { SubscriptionPlan } from './subscription-plan.ts';
import { UidType } from './uid-type.ts';

export const TokenSubscription = builder.loadableNode('TokenSubscription', {
  description: 'A customer\'s agreement under a plan, valid from validFrom until (excluding) validUntil.',
  id: { resolve: (subscription: TokenSubscriptionData) => subscription.id },
  cacheResolved: (subscription) => subscription.id,
  isTypeOf: (value) => isDataOf(value, 'TokenSubscription'),
  load: (ids: string[], context) => tokenSubscriptionsByIds(context.em, ids) as Promise<TokenSubscriptionData[]>,
  fields: (t) => ({
    databaseId: t.exposeString('id', { description: 'The id of this subscription in the REST API.' }),
    adminId: t.string({ description: 'The slug of the administration.', resolve: (subscription) => subscription.admin.id }),
    administration: t.field({ type: Administration, resolve: (subscription) => subscription.admin.id }),
    customerId: t.string({ description: 'The REST id of the customer.', resolve: (subscription) => subscription.customer.id }),
    customer: t.field({
      type: Customer,
      nullable: true,
      description: 'Null when the customer belongs to an administration the caller may not see.',
      resolve: (subscription) => subscription.customer.id,
    }),
    plan: t.field({ type: SubscriptionPlan, resolve: (subscription) => subscription.plan.id }),
    buyerReference: t.string({ nullable: true, resolve: (subscription) => subscription.buyerReference ?? null }),
    validFrom: t.field({ type: DateTime, resolve: (subscription) => subscription.validFrom }),
    validUntil: t.field({ type: DateTime, nullable: true, resolve: (subscription) => subscription.validUntil ?? null }),
    defunct: t.exposeBoolean('defunct'),
    isValid: t.boolean({ description: 'Not defunct and valid now (REST: is_valid).', resolve: (subscription) => subscription.isValid }),
    customFields: t.field({ type: JsonScalar, resolve: (subscription) => subscription.customFields ?? {} }),
    monetaryCreditBalance: t.string({
      description: 'The monetary credit excl. VAT in the administration\'s currency, an exact decimal with at least 2 decimals, e.g. "12.50".',
      resolve: (subscription) => normalize(subscription.monetaryCreditBalance),
    }),
    externalReference: t.string({ nullable: true, resolve: (subscription) => subscription.externalReference ?? null }),
    externalUpdatedAt: t.field({ type: DateTime, nullable: true, resolve: (subscription) => subscription.externalUpdatedAt ?? null }),
    createdAt: t.field({ type: DateTime, resolve: (subscription) => subscription.createdAt }),
    updatedAt: t.field({ type: DateTime, resolve: (subscription) => subscription.updatedAt }),
  }),
});

export const TokenSubscriptionConnection = builder.connectionObject(
  { type: TokenSubscription, name: 'TokenSubscriptionConnection' },
  { name: 'TokenSubscriptionEdge' },
);

builder.objectField(Customer, 'subscriptions', (t) => t.loadable({
  type: TokenSubscriptionConnection,
  byPath: true,
  description: 'The token subscriptions of this customer the caller may see, by id.',
  args: { ...t.arg.connectionArgs() },
  load: (customerIds: string[], context, args) => childConnectionsOf(customerIds, args, (ids, range) => subscriptionsOfCustomers(context.em, ids, range)),
  resolve: (customer) => customer.id,
}));

const subscriptionId = (id: string | number) => {
  const ref = refFromArg(String(id), 'TokenSubscription', false);
  return 'id' in ref ? ref.id : '';
};
const ID_DESCRIPTION = 'Global ID or REST id.';

const creditRules = yup.object({ description: text().nullable() });

builder.queryFields((t) => ({
  tokenSubscription: t.field({
    type: TokenSubscription,
    nullable: true,
    description: 'A token subscription; null when there is none the caller may see.',
    args: { id: t.arg.id({ required: true, description: ID_DESCRIPTION }) },
    resolve: (_root, args) => subscriptionId(args.id),
  }),
}));

const contractFields = {
  buyerReference: text().nullable(),
  customFields: customFields().nullable(),
  externalReference: externalRef().nullable(),
};

const TokenSubscriptionInput = builder.inputType('TokenSubscriptionInput', {
  description: 'JSON Merge Patch semantics: an absent field keeps its value, null clears it (validFrom cannot be cleared). '
    + 'Administration, customer and plan change by correctPlanOrCustomer.',
  fields: (t) => ({
    buyerReference: t.string(),
    validFrom: t.field({ type: DateTime, description: 'Moving it moves the links that defer to it (re-checked for overlaps).' }),
    validUntil: t.field({ type: DateTime, description: 'Excluded: the subscription ends just before it.' }),
    customFields: t.field({ type: JsonScalar, description: 'A flat object of strings, numbers and booleans, merged into the stored one; a null member removes it.' }),
    externalReference: t.string({ description: 'Unique in the instance, compared case-insensitively.' }),
    externalUpdatedAt: t.field({ type: DateTime, description: 'An update older than the stored one is ignored.' }),
  }),
});

const NewTokenLinkInput = builder.inputType('NewTokenLinkInput', {
  fields: (t) => ({
    evcoId: t.string({ required: true, description: 'An existing token, by its eMA ID.' }),
    validFrom: t.field({ type: DateTime, description: 'Null: the link starts with the subscription.' }),
    validUntil: t.field({ type: DateTime }),
  }),
});

const CreateTokenSubscriptionInput = builder.inputType('CreateTokenSubscriptionInput', {
  description: 'Needs validFrom, exactly one of customerId and customerExternalReference, and exactly one of planId and '
    + 'planExternalReference. The plan must belong to the subscription\'s administration (adminId; the plan\'s when absent).',
  fields: (t) => ({
    adminId: t.id({ description: 'Slug or global ID of the administration.' }),
    customerId: t.id({ description: 'Global ID or REST id of the customer (of an administration the caller can see).' }),
    customerExternalReference: t.string(),
    planId: t.id({ description: 'Global ID or REST id of the subscription plan.' }),
    planExternalReference: t.string(),
    buyerReference: t.string(),
    validFrom: t.field({ type: DateTime }),
    validUntil: t.field({ type: DateTime, description: 'Excluded: the subscription ends just before it.' }),
    customFields: t.field({ type: JsonScalar, description: 'A flat object of strings, numbers and booleans.' }),
    externalReference: t.string({ description: 'Unique in the instance, compared case-insensitively.' }),
    externalUpdatedAt: t.field({ type: DateTime }),
    tokenSeriesId: t.id({ description: 'Issues a new token from this series (global ID or REST id) and links it.' }),
    tokenUidType: t.field({ type: UidType, description: 'The new token\'s uid type.' }),
    tokenUid: t.string({ description: 'The new token\'s uid.' }),
    links: t.field({ type: [NewTokenLinkInput], description: 'Existing tokens to link, at most 1000.' }),
  }),
});

/** What GraphQL types cannot say; the same rules as the REST bodies. */
const updateRules = yup.object(contractFields);
const createRules = yup.object({
  ...contractFields,
  adminId: text(64).nullable(),
  customerId: text(64).nullable(),
  customerExternalReference: text().nullable(),
  planId: text(64).nullable(),
  planExternalReference: text().nullable(),
  tokenSeriesId: text(64).nullable(),
  tokenUid: text(64).nullable(),
  links: yup.array(yup.object({ evcoId: text(64) })).max(1000, '${path} must hold at most ${max} items').nullable(),
});

/** An optional id argument: a global ID of `typename` as its REST id, anything else as given. */
const optionalId = (raw: string | number | null | undefined, typename: string) => (raw == null ? raw : idOf(raw, typename));
const idOf = (raw: string | number, typename: string) => {
  const ref = refFromArg(String(raw), typename, false);
  return 'id' in ref ? ref.id : String(raw);
};

function newSubscription(input: typeof CreateTokenSubscriptionInput.$inferInput): NewTokenSubscription {
  validate(createRules, input);
  const { adminId, customerId, planId, tokenSeriesId, tokenUidType, links, ...rest } = input;
  return {
    ...(rest as TokenSubscriptionPatch),
    adminId: adminId == null ? adminId : administrationKey(String(adminId)),
    customerId: optionalId(customerId, 'Customer'),
    planId: optionalId(planId, 'SubscriptionPlan'),
    tokenSeriesId: optionalId(tokenSeriesId, 'TokenSeries'),
    tokenUidTypeId: tokenUidType,
    links,
  };
}

const PlanOrCustomerCorrectionInput = builder.inputType('PlanOrCustomerCorrectionInput', {
  description: 'Names the new plan (newPlanId or newPlanExternalReference) and/or the new customer (newCustomerId or newCustomerExternalReference).',
  fields: (t) => ({
    validFrom: t.field({ type: DateTime, required: true, description: 'After the subscription\'s validFrom and before its validUntil; may lie in the past.' }),
    newPlanId: t.id({ description: 'Global ID or REST id of a plan of the subscription\'s administration.' }),
    newPlanExternalReference: t.string(),
    newCustomerId: t.id({ description: 'Global ID or REST id.' }),
    newCustomerExternalReference: t.string(),
    newExternalReference: t.string({ description: 'The new subscription\'s external reference (none when absent).' }),
    recurringCostCorrection: t.boolean({ description: 'Recorded.' }),
  }),
});

const correctionRules = yup.object({
  newPlanId: text(64).nullable(),
  newPlanExternalReference: text().nullable(),
  newCustomerId: text(64).nullable(),
  newCustomerExternalReference: text().nullable(),
  newExternalReference: externalRef().nullable(),
});

const SubscriptionCorrection = builder.objectRef<CorrectionData['correction']>('SubscriptionCorrection').implement({
  description: 'A recorded plan-or-customer correction.',
  fields: (t) => ({
    databaseId: t.exposeString('id'),
    validFrom: t.field({ type: DateTime, description: 'Where the subscription was split.', resolve: (correction) => correction.correctedFrom }),
    recurringCostCorrection: t.exposeBoolean('recurringCostCorrection'),
    createdAt: t.field({ type: DateTime, resolve: (correction) => correction.createdAt }),
  }),
});

const PlanOrCustomerCorrection = builder.objectRef<CorrectionData>('PlanOrCustomerCorrection').implement({
  description: 'The subscription that ended at the correction, its successor, and the correction.',
  fields: (t) => ({
    oldSubscription: t.field({ type: TokenSubscription, resolve: (result) => result.oldSubscription }),
    newSubscription: t.field({ type: TokenSubscription, resolve: (result) => result.newSubscription }),
    correction: t.field({ type: SubscriptionCorrection, resolve: (result) => result.correction }),
  }),
});

builder.mutationFields((t) => ({
  createTokenSubscription: t.field({
    type: TokenSubscription,
    nullable: true,
    description: 'Creates a token subscription, issuing a token from tokenSeriesId and linking links, in one transaction '
      + '(REST: POST /msp-token-subscription).',
    args: { input: t.arg({ type: CreateTokenSubscriptionInput, required: true }) },
    resolve: (_root, args, context) => mutate(context, 'input', (em) => createTokenSubscription(em, newSubscription(args.input))),
  }),
  updateTokenSubscription: t.field({
    type: TokenSubscription,
    nullable: true,
    description: 'Merge-updates a token subscription (REST: POST /msp-token-subscription/{id}); a defunct one only records externalUpdatedAt.',
    args: { id: t.arg.id({ required: true, description: ID_DESCRIPTION }), input: t.arg({ type: TokenSubscriptionInput, required: true }) },
    resolve: (_root, args, context) => mutate(context, 'input', (em) => {
      validate(updateRules, args.input);
      return updateTokenSubscription(em, subscriptionId(args.id), args.input as TokenSubscriptionPatch, 'merge');
    }),
  }),
  correctPlanOrCustomer: t.field({
    type: PlanOrCustomerCorrection,
    nullable: true,
    description: 'Splits the subscription at validFrom: it ends there and a successor with the new plan and/or customer takes its '
      + 'links and monetary credit; sessions since validFrom are repriced (REST: POST /msp-token-subscription/{id}/plan-or-customer-correction).',
    args: { id: t.arg.id({ required: true, description: ID_DESCRIPTION }), input: t.arg({ type: PlanOrCustomerCorrectionInput, required: true }) },
    resolve: (_root, { id, input }, context) => mutate(context, 'input', (em) => {
      validate(correctionRules, input);
      return correctPlanOrCustomer(em, subscriptionId(id), {
        ...input,
        newPlanId: optionalId(input.newPlanId, 'SubscriptionPlan'),
        newCustomerId: optionalId(input.newCustomerId, 'Customer'),
      });
    }),
  }),
  addMonetaryCredit: t.field({
    type: TokenSubscription,
    nullable: true,
    description: 'Adds a movement to the subscription\'s monetary credit (REST: POST /msp-token-subscription/{id}/monetary-credit): '
      + 'a positive amount is a grant, a negative one a correction; the balance never goes below zero.',
    args: {
      subscriptionId: t.arg.id({ required: true, description: ID_DESCRIPTION }),
      amount: t.arg.string({ required: true, description: 'An exact decimal excl. VAT, e.g. "12.50" or "-3", at most 6 decimals.' }),
      description: t.arg.string(),
    },
    resolve: (_root, args, context) => mutate(context, null, async (em) => {
      validate(creditRules, { description: args.description });
      const state = await changeMonetaryCredit(em, subscriptionId(args.subscriptionId), { amount: args.amount, description: args.description });
      return state.subscription;
    }),
  }),
  defunctTokenSubscription: t.field({
    type: TokenSubscription,
    nullable: true,
    description: 'Marks the subscription and all its token links defunct, for good (REST: PUT /msp-token-subscription/{id}/defunct).',
    args: {
      id: t.arg.id({ required: true, description: ID_DESCRIPTION }),
      externalUpdatedAt: t.arg({ type: DateTime, description: 'Recorded on the subscription.' }),
    },
    resolve: (_root, args, context) => mutate(context, null, (em) => markTokenSubscriptionDefunct(em, subscriptionId(args.id), args.externalUpdatedAt)),
  }),
}));
