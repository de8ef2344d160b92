// The subscription plan list both transports call (REST GET /msp-token-subscription-plan,
// GraphQL `subscriptionPlans`): by id, the caller's administrations only.
import type { FilterQuery } from '@mikro-orm/core';
import type { Em } from '../platform/orm.ts';
import { SeekList } from '../platform/seek-page.ts';
import { SubscriptionPlan } from './subscription-plan.entity.ts';

export interface SubscriptionPlanFilter {
  adminId?: string;
  externalReference?: string;
}

export function subscriptionPlanList(em: Em, filter: SubscriptionPlanFilter = {}): SeekList<SubscriptionPlan> {
  const where: FilterQuery<SubscriptionPlan> = {
    ...(filter.adminId ? { admin: filter.adminId } : {}),
    ...(filter.externalReference ? { externalReference: filter.externalReference } : {}),
  };
  // Entities: the serializers still walk the plan's relations.
  return new SeekList<SubscriptionPlan>(em, { entity: SubscriptionPlan, where, entities: true });
}
