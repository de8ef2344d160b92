import { defineEntity, p } from '@mikro-orm/core';
import { adminScopeFilter } from '../access/admin-scope.ts';
import { createdAtProperty, idProperty, identifierProperty, updatedAtProperty } from '../platform/entity-properties.ts';
import { Administration } from '../parties/administration.entity.ts';
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
    id: idProperty(),
    admin: () => p.manyToOne(Administration).index(),
    name: p.string(),
    description: p.text().nullable(),
    /** The intended window for new subscriptions; not enforced when subscriptions are created. */
    publishFrom: p.datetime().nullable(),
    publishUntil: p.datetime().nullable(),
    /** The rate plan that prices sessions (pricing arrives with the pricing engine). */
    ratePlanId: p.uuid().nullable(),
    recurringCosts: p.json<RecurringCost[]>().onCreate(() => []),
    useCustomerReimbursementVat: p.boolean().default(false),
    /** Components monetary credits do not pay (e.g. parking_time). */
    creditExcludedComponents: p.json<string[]>().onCreate(() => []),
    externalReference: identifierProperty().nullable().unique(),
    createdAt: createdAtProperty(),
    updatedAt: updatedAtProperty(),
  },
});

export class SubscriptionPlan extends SubscriptionPlanSchema.class {}
SubscriptionPlanSchema.setClass(SubscriptionPlan);
recordsEvents(SubscriptionPlan, 'msp_subscription_plan');
