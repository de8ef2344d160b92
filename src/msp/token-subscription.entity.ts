import { defineEntity, p } from '@mikro-orm/core';
import { adminScopeFilter } from '../access/admin-scope.ts';
import { contractEntity } from '../contracts/contract-entity.ts';
import { contractProperties } from '../contracts/contract-properties.ts';
import type { CustomFields } from '../parties/customer.entity.ts';
import { SubscriptionPlan } from './subscription-plan.entity.ts';
import { recordsEvents } from '../events/event-kinds.ts';

/** A customer's agreement under a plan, valid in [valid_from, valid_until). */
export const TokenSubscriptionSchema = defineEntity({
  name: 'TokenSubscription',
  tableName: 'msp_token_subscription',
  filters: adminScopeFilter('admin'),
  properties: {
    ...contractProperties<CustomFields>(),
    plan: () => p.manyToOne(SubscriptionPlan).index(),
    /** Sum of the monetary credit ledger, excl. VAT; kept in the same transaction as the ledger. */
    monetaryCreditBalance: p.decimal('string').precision(20).scale(6).default('0'),
  },
});

export class TokenSubscription extends contractEntity(TokenSubscriptionSchema.class, {
  code: 'subscription_defunct', message: 'a defunct subscription cannot be changed',
}) {}
TokenSubscriptionSchema.setClass(TokenSubscription);
recordsEvents(TokenSubscription, 'msp_token_subscription');
