import { defineEntity, p } from '@mikro-orm/core';
import { ADMIN_SCOPE } from '../access/admin-scope.ts';
import { createdAtProperty, idProperty, updatedAtProperty } from '../platform/entity-properties.ts';
import { CpoSubscriptionPlan } from './cpo-subscription-plan.entity.ts';

/** A recurring cost of a CPO plan: per subscription, or per EVSE validly linked to it. */
export interface CpoRecurringCost {
  description: string;
  amount_excl_vat: string;
  period: 'month' | 'quarter' | 'year';
  per: 'subscription' | 'evse';
}

/** The recurring costs of a plan from valid_from (local midnight) until the next version. */
export const CpoSubscriptionPlanVersionSchema = defineEntity({
  name: 'CpoSubscriptionPlanVersion',
  tableName: 'cpo_subscription_plan_version',
  uniques: [{ properties: ['plan', 'validFrom'] }],
  properties: {
    id: idProperty(),
    plan: () => p.manyToOne(CpoSubscriptionPlan).filters({ [ADMIN_SCOPE]: false }),
    validFrom: p.datetime(),
    recurringCosts: p.json<CpoRecurringCost[]>().onCreate(() => []),
    createdAt: createdAtProperty(),
    updatedAt: updatedAtProperty(),
  },
});

export class CpoSubscriptionPlanVersion extends CpoSubscriptionPlanVersionSchema.class {}
CpoSubscriptionPlanVersionSchema.setClass(CpoSubscriptionPlanVersion);
