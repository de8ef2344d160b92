import * as yup from 'yup';
import { normalize } from '../../src/money/decimal.ts';
import { changeMonetaryCredit } from '../../src/msp/monetary-credit.service.ts';
import { markTokenSubscriptionDefunct } from '../../src/msp/defunct-token-subscription.service.ts';
import { subscriptionsOfCustomers, tokenSubscriptionsByIds, type TokenSubscriptionData } from '../../src/msp/token-subscription.queries.ts';
import { text } from '../../src/platform/input-schemas.ts';
import { validate } from '../../src/platform/input-validation.ts';
import { isDataOf } from '../../src/platform/seek-page.ts';
import { builder } from '../builder.ts';
import { childConnectionsOf } from '../child-connection.ts';
import { refFromArg } from '../ids.ts';
import { mutate } from '../mutation.ts';
import { Administration } from './administration.ts';
import { Customer } from './customer.ts';
import { DateTime } from './date-time.ts';
import { JsonScalar } from './json.ts';
import { SubscriptionPlan } from './subscription-plan.ts';

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

builder.mutationFields((t) => ({
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
    args: { id: t.arg.id({ required: true, description: ID_DESCRIPTION }) },
    resolve: (_root, args, context) => mutate(context, null, (em) => markTokenSubscriptionDefunct(em, subscriptionId(args.id))),
  }),
}));
