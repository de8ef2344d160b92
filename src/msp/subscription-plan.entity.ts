import { p } from '@mikro-orm/core';
import { definePlan } from '../contracts/contract-properties.ts';
import { recordsEvents } from '../events/event-kinds.ts';

/** A recurring cost of a plan: an exact amount excl. VAT per period. */
export interface RecurringCost {
  description: string;
  amount_excl_vat: string;
  period: 'month' | 'quarter' | 'year';
}

export const SubscriptionPlanSchema = definePlan('SubscriptionPlan', 'msp_subscription_plan', {
  /** The rate plan that prices sessions (pricing arrives with the pricing engine). */
  ratePlanId: p.uuid().nullable(),
  recurringCosts: p.json<RecurringCost[]>().onCreate(() => []),
  useCustomerReimbursementVat: p.boolean().default(false),
  /** Components monetary credits do not pay (e.g. parking_time). */
  creditExcludedComponents: p.json<string[]>().onCreate(() => []),
});

export class SubscriptionPlan extends SubscriptionPlanSchema.class {}
SubscriptionPlanSchema.setClass(SubscriptionPlan);
recordsEvents(SubscriptionPlan, 'msp_subscription_plan');
