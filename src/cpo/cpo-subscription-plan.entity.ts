import { definePlan } from '../contracts/contract-properties.ts';
import { recordsEvents } from '../events/event-kinds.ts';

/** A CPO subscription plan (hosting, maintenance fees); its recurring costs live in versions keyed by valid_from. */
export const CpoSubscriptionPlanSchema = definePlan('CpoSubscriptionPlan', 'cpo_subscription_plan', {});

export class CpoSubscriptionPlan extends CpoSubscriptionPlanSchema.class {}
CpoSubscriptionPlanSchema.setClass(CpoSubscriptionPlan);
recordsEvents(CpoSubscriptionPlan, 'cpo_subscription_plan');
