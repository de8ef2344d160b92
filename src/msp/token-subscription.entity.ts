import { p } from '@mikro-orm/core';
import { contractEntity } from '../contracts/contract-entity.ts';
import { defineContract } from '../contracts/contract-properties.ts';
import type { CustomFields } from '../parties/customer.entity.ts';
import { SubscriptionPlan } from './subscription-plan.entity.ts';
import { recordsEvents } from '../events/event-kinds.ts';

/** A customer's agreement under a plan, valid in [valid_from, valid_until). */
export const TokenSubscriptionSchema = defineContract('TokenSubscription', 'msp_token_subscription', {
  plan: () => p.manyToOne(SubscriptionPlan).index(),
  /** Checked by customFields() on input: strings, numbers and booleans. */
  customFields: p.json<CustomFields>().onCreate(() => ({})),
  /** Sum of the monetary credit ledger, excl. VAT; kept in the same transaction as the ledger. */
  monetaryCreditBalance: p.decimal('string').precision(20).scale(6).default('0'),
});

export class TokenSubscription extends contractEntity(TokenSubscriptionSchema.class, {
  code: 'subscription_defunct', message: 'a defunct subscription cannot be changed',
}) {}
TokenSubscriptionSchema.setClass(TokenSubscription);
recordsEvents(TokenSubscription, 'msp_token_subscription');
