import { defineEntity } from '@mikro-orm/core';
import { adminScopeFilter } from '../access/admin-scope.ts';
import { planProperties } from '../contracts/contract-properties.ts';
import { recordsEvents } from '../events/event-kinds.ts';

/** A CPO subscription plan (hosting, maintenance fees); its recurring costs live in versions keyed by valid_from. */
export const CpoSubscriptionPlanSchema = defineEntity({
  name: 'CpoSubscriptionPlan',
  tableName: 'cpo_subscription_plan',
  filters: adminScopeFilter('admin'),
  properties: planProperties(),
});

export class CpoSubscriptionPlan extends CpoSubscriptionPlanSchema.class {}
CpoSubscriptionPlanSchema.setClass(CpoSubscriptionPlan);
recordsEvents(CpoSubscriptionPlan, 'cpo_subscription_plan');
