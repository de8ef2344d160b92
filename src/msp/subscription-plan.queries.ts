// The subscription plan reads both transports call (REST /msp-token-subscription-plan, GraphQL
// `subscriptionPlans`, `subscriptionPlan` and SubscriptionPlan): plain data, by id, the caller's
// administrations only.
import type { FilterQuery } from '@mikro-orm/core';
import { NotFoundError } from '../platform/errors.ts';
import { isUuid } from '../platform/ids.ts';
import type { Em } from '../platform/orm.ts';
import type { Data } from '../platform/plain-data.ts';
import { inIdOrder, refOf } from '../platform/plain-reads.ts';
import type { ResourceRef } from '../platform/resource-ref.ts';
import { SeekList } from '../platform/seek-page.ts';
import { SubscriptionPlan } from './subscription-plan.entity.ts';

export type SubscriptionPlanData = Data<SubscriptionPlan>;

export interface SubscriptionPlanFilter {
  adminId?: string;
  externalReference?: string;
}

const plans = (em: Em, where: FilterQuery<SubscriptionPlan> = {}) => new SeekList<SubscriptionPlanData>(em, {
  entity: SubscriptionPlan, where, map: (row) => ({ ...row, admin: refOf(row.admin) }) as SubscriptionPlanData,
});

export function subscriptionPlanList(em: Em, filter: SubscriptionPlanFilter = {}): SeekList<SubscriptionPlanData> {
  return plans(em, {
    ...(filter.adminId ? { admin: filter.adminId } : {}),
    ...(filter.externalReference ? { externalReference: filter.externalReference } : {}),
  });
}

/** The plan a ref names (id or external reference), or null. */
export async function findSubscriptionPlan(em: Em, ref: ResourceRef): Promise<SubscriptionPlanData | null> {
  if ('id' in ref && !isUuid(ref.id)) return null;
  const [plan] = await plans(em, 'id' in ref ? { id: ref.id } : { externalReference: ref.externalReference }).all();
  return plan ?? null;
}

/** The plan a ref names, or 400 not_found. */
export async function getSubscriptionPlan(em: Em, ref: ResourceRef): Promise<SubscriptionPlanData> {
  const plan = await findSubscriptionPlan(em, ref);
  if (!plan) throw new NotFoundError('subscription plan');
  return plan;
}

export function subscriptionPlansByIds(em: Em, ids: readonly string[]): Promise<(SubscriptionPlanData | null)[]> {
  return inIdOrder(ids, (wanted) => plans(em, { id: { $in: wanted } }).all());
}
