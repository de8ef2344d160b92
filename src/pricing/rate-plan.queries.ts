// The rate plan reads both transports call (REST GET /rate-plan and /rate-plan/{id}/version,
// GraphQL ratePlans): visibility by sharing (rate-plan-access.ts), the currency filter, seek paging.
import type { Em } from '../platform/orm.ts';
import { SeekList } from '../platform/seek-page.ts';
import { visibleRatePlansWhere } from './rate-plan-access.ts';
import { RatePlanVersion } from './rate-plan-version.entity.ts';
import { RatePlan } from './rate-plan.entity.ts';

/** The plans shared with one of the caller's administrations, optionally of one currency. */
export async function ratePlanList(em: Em, filter: { currency?: string } = {}): Promise<SeekList<RatePlan>> {
  const visible = await visibleRatePlansWhere(em);
  return new SeekList<RatePlan>(em, {
    entity: RatePlan, where: filter.currency ? { $and: [visible, { currency: filter.currency }] } : visible, entities: true,
  });
}

/** The versions of one plan (the caller checked it may see the plan). */
export function ratePlanVersionList(em: Em, plan: RatePlan): SeekList<RatePlanVersion> {
  return new SeekList<RatePlanVersion>(em, { entity: RatePlanVersion, where: { ratePlan: plan }, entities: true });
}
