import { p } from '@mikro-orm/core';
import { contractEntity } from '../contracts/contract-entity.ts';
import { defineContract } from '../contracts/contract-properties.ts';
import { CpoSubscriptionPlan } from './cpo-subscription-plan.entity.ts';
import { recordsEvents } from '../events/event-kinds.ts';

/** A customer's CPO subscription (recurring fees), valid in [valid_from, valid_until). */
export const CpoSubscriptionSchema = defineContract('CpoSubscription', 'cpo_subscription', {
  plan: () => p.manyToOne(CpoSubscriptionPlan).index(),
});

export class CpoSubscription extends contractEntity(CpoSubscriptionSchema.class, {
  code: 'cpo_subscription_defunct', message: 'the CPO subscription is defunct',
}) {}
CpoSubscriptionSchema.setClass(CpoSubscription);
recordsEvents(CpoSubscription, 'cpo_subscription');
