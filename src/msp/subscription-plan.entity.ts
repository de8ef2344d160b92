import { defineEntity, p } from '@mikro-orm/core';
import { adminScopeFilter } from '../access/admin-scope.ts';
import { planProperties } from '../contracts/contract-properties.ts';
import { recordsEvents } from '../events/event-kinds.ts';

/** A recurring cost of a plan: an exact amount excl. VAT per period. */
export interface RecurringCost {
  description: string;
  amount_excl_vat: string;
  period: 'month' | 'quarter' | 'year';
}

export const SubscriptionPlanSchema = defineEntity({
  name: 'SubscriptionPlan',
  tableName: 'msp_subscription_plan',
  filters: adminScopeFilter('admin'),
  properties: {
    ...planProperties(),
    /** The rate plan that prices sessions (pricing arrives with the pricing engine). */
    ratePlanId: p.uuid().nullable(),
    recurringCosts: p.json<RecurringCost[]>().onCreate(() => []),
    useCustomerReimbursementVat: p.boolean().default(false),
    /** Components monetary credits do not pay (e.g. parking_time). */
    creditExcludedComponents: p.json<string[]>().onCreate(() => []),
  },
});

export class SubscriptionPlan extends SubscriptionPlanSchema.class {}
SubscriptionPlanSchema.setClass(SubscriptionPlan);
recordsEvents(SubscriptionPlan, 'msp_subscription_plan');
