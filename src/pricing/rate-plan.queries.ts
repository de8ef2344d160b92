// The rate plan reads both transports call (REST GET /rate-plan[/{id}[/version[/{id}]]], GraphQL
// ratePlans, ratePlan, the RatePlan and RatePlanVersion nodes and a plan's versions): plain data,
// visibility by sharing (rate-plan-access.ts), the currency filter, seek paging.
import { childPages } from '../platform/child-pages.ts';
import { NotFoundError } from '../platform/errors.ts';
import type { FieldPath } from '../platform/field-path.ts';
import { isUuid } from '../platform/ids.ts';
import type { Em } from '../platform/orm.ts';
import { plainData, type Data } from '../platform/plain-data.ts';
import { dataByIds, dataByRef, readRows, refs, type RowShape } from '../platform/plain-reads.ts';
import type { ResourceRef } from '../platform/resource-ref.ts';
import { SeekList, type SeekRange } from '../platform/seek-page.ts';
import { asSeenByCaller, isVisible, visibleOrNull, visibleRatePlansWhere } from './rate-plan-access.ts';
import { RatePlanVersion } from './rate-plan-version.entity.ts';
import { RatePlan } from './rate-plan.entity.ts';

export type RatePlanData = Data<RatePlan>;
/** A version: its plan as `{ id }`. */
export type RatePlanVersionData = Data<RatePlanVersion>;

const RATE_PLAN = 'rate plan';
const PLAN: RowShape<RatePlanData> = { entity: RatePlan, map: (row) => row as RatePlanData };
const VERSION: RowShape<RatePlanVersionData> = { entity: RatePlanVersion, map: (row) => refs(row, 'ratePlan') as RatePlanVersionData };
/** A version with what its plan's visibility needs (currency, administrations) on its `ratePlan`. */
const VERSION_WITH_PLAN: RowShape<RatePlanVersionData & { ratePlan: Pick<RatePlanData, 'id' | 'currency' | 'adminIds'> }> = {
  entity: RatePlanVersion,
  join: ['ratePlan'],
  map: (row) => ({ ...row, ratePlan: { id: row.ratePlan.id, currency: row.ratePlan.currency, adminIds: row.ratePlan.adminIds } }) as RatePlanVersionData & {
    ratePlan: Pick<RatePlanData, 'id' | 'currency' | 'adminIds'>;
  },
};

/** The plans shared with one of the caller's administrations, optionally of one currency. */
export async function ratePlanList(em: Em, filter: { currency?: string } = {}): Promise<SeekList<RatePlanData>> {
  const visible = await visibleRatePlansWhere(em);
  return new SeekList<RatePlanData>(em, {
    ...PLAN, scope: visible, where: filter.currency ? { $and: [visible, { currency: filter.currency }] } : visible,
    enrich: (rows) => asSeenByCaller(em, rows as RatePlanData[]),
  });
}

/** A plan the caller may see (shared with one of its administrations), or null. */
export async function findRatePlan(em: Em, ref: ResourceRef): Promise<RatePlanData | null> {
  const plan = await dataByRef(em, PLAN, ref);
  return plan && (await isVisible(em, plan)) ? (await asSeenByCaller(em, [plan]))[0] : null;
}

/** A plan the caller may see; otherwise not_found (at `queryParam` or `path` when given). */
export async function getRatePlan(em: Em, ref: ResourceRef, options: { queryParam?: string; path?: FieldPath } = {}): Promise<RatePlanData> {
  const plan = await findRatePlan(em, ref);
  if (!plan) throw new NotFoundError(RATE_PLAN, options);
  return plan;
}

/** The versions of a plan the caller may see (else 400 not_found), by id. */
export async function ratePlanVersionList(em: Em, planRef: ResourceRef): Promise<SeekList<RatePlanVersionData>> {
  const plan = await getRatePlan(em, planRef);
  return new SeekList<RatePlanVersionData>(em, { ...VERSION, where: { ratePlan: plan.id } });
}

/** A version of a plan the caller may see. */
export async function getRatePlanVersion(em: Em, planRef: ResourceRef, versionId: string): Promise<RatePlanVersionData> {
  const plan = await getRatePlan(em, planRef);
  const [version] = isUuid(versionId) ? await readRows(em, VERSION, { id: versionId, ratePlan: plan.id }) : [];
  if (!version) throw new NotFoundError('rate plan version');
  return version;
}

/** GraphQL's RatePlan loader: the plans the caller may see, null for the others. */
export async function ratePlansByIds(em: Em, ids: readonly string[]): Promise<RatePlanData[]> {
  const visible = await visibleOrNull(em, await dataByIds(em, PLAN, ids));
  await asSeenByCaller(em, visible.filter((plan) => plan !== null));
  return visible as RatePlanData[];
}

/** GraphQL's RatePlanVersion loader: a version is visible with its plan. */
export async function ratePlanVersionsByIds(em: Em, ids: readonly string[]): Promise<RatePlanVersionData[]> {
  const versions = await dataByIds(em, VERSION_WITH_PLAN, ids);
  const plans = await visibleOrNull(em, versions.map((version) => version?.ratePlan ?? null));
  return versions.map((version, i) => (plans[i] ? version : null)) as RatePlanVersionData[];
}

/** A page of versions of each plan (GraphQL RatePlan.versions), in one query. */
export function versionsOfRatePlans(em: Em, planIds: readonly string[], range: SeekRange): Promise<RatePlanVersionData[][]> {
  return childPages(em, { ...VERSION, parent: 'ratePlan' }, planIds, range);
}

/** A plan a service created or changed, as the answers show it. */
export function ratePlanData(plan: RatePlan): RatePlanData {
  return plainData(plan);
}

export function ratePlanVersionData(version: RatePlanVersion): RatePlanVersionData {
  return plainData(version);
}
