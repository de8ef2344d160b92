// Review-set reads of both transports: plain data with the counts of their boxes per state, and the
// close and approve operations asked for over HTTP.
import type { FilterQuery } from '@mikro-orm/core';
import type { Em } from '../platform/orm.ts';
import { DomainError } from '../platform/errors.ts';
import { isUuid } from '../platform/ids.ts';
import type { Data } from '../platform/plain-data.ts';
import { markData, refOf } from '../platform/plain-reads.ts';
import { SeekList } from '../platform/seek-page.ts';
import { ReviewSet } from './review-set.entity.ts';
import { ReviewSetOperation } from './review-set-operation.entity.ts';

export interface ReviewSetData {
  id: string;
  adminId: string;
  seriesId: string;
  seriesCode: string;
  code: string;
  periodFrom: Date;
  periodUntil: Date;
  state: string;
  closedAt: Date | null;
  boxCounts: Record<string, number>;
  deferredCount: number;
  createdAt: Date;
  updatedAt: Date;
}

const DETAILS = `select r.*, s.code as series_code,
    coalesce((select jsonb_object_agg(state, n) from (select state, count(*)::int as n from billing_box b
      where b.review_set_id = r.id group by state) x), '{}'::jsonb) as box_counts,
    (select count(*)::int from billing_box b where b.review_set_id = r.id and b.deferred) as deferred_count
  from billing_review_set r join billing_series s on s.id = r.series_id where r.id = any(?::uuid[])`;

async function details(em: Em, ids: string[]): Promise<ReviewSetData[]> {
  if (!ids.length) return [];
  const rows = await em.execute<Record<string, any>[]>(DETAILS, [`{${ids.join(',')}}`]);
  const byId = new Map(rows.map((r) => [r.id, r]));
  // A uuid in any casing names its review-set (the database answers it in lower case): an id in upper case was dropped.
  return ids.map((id) => id.toLowerCase()).filter((id) => byId.has(id)).map((id) => {
    const r = byId.get(id)!;
    return markData<ReviewSetData>({
      id, adminId: r.admin_id, seriesId: r.series_id, seriesCode: r.series_code, code: r.code, periodFrom: new Date(r.period_from),
      periodUntil: new Date(r.period_until), state: r.state, closedAt: r.closed_at ? new Date(r.closed_at) : null,
      boxCounts: r.box_counts, deferredCount: r.deferred_count, createdAt: new Date(r.created_at), updatedAt: new Date(r.updated_at),
    }, 'ReviewSet');
  });
}

export interface ReviewSetFilter { seriesId?: string; state?: string }

export function reviewSetList(em: Em, filter: ReviewSetFilter = {}): SeekList<ReviewSetData> {
  const where: FilterQuery<ReviewSet> = {
    ...(filter.seriesId !== undefined ? { series: filter.seriesId } : {}),
    ...(filter.state !== undefined ? { state: filter.state as ReviewSet['state'] } : {}),
  };
  return new SeekList<ReviewSetData>(em, { entity: ReviewSet, where, enrich: (rows) => details(em, rows.map((r) => String(r.id))) });
}

export async function getReviewSet(em: Em, id: string): Promise<ReviewSetData> {
  const visible = isUuid(id) ? await em.findOne(ReviewSet, { id }, { fields: ['id'] }) : null;
  if (!visible) throw new DomainError('not_found', `billing review-set ${id} does not exist`);
  const [set] = await details(em, [id]);
  return set;
}

/** Review-sets by id for a dataloader: null where the caller may not see it. */
export async function reviewSetsByIds(em: Em, ids: readonly string[]): Promise<(ReviewSetData | null)[]> {
  const wanted = [...new Set(ids.filter(isUuid))];
  const visible = wanted.length ? await em.find(ReviewSet, { id: { $in: wanted } }, { fields: ['id'] }) : [];
  const byId = new Map((await details(em, visible.map((r) => r.id))).map((r) => [r.id, r]));
  return ids.map((id) => byId.get(id.toLowerCase()) ?? null);
}

export type ReviewSetOperationData = Data<ReviewSetOperation>;

/** A close or approve of a review-set the caller may see, or 400 not_found. */
export async function getReviewSetOperation(em: Em, id: string): Promise<ReviewSetOperationData> {
  const [found] = isUuid(id) ? await new SeekList<ReviewSetOperationData>(em, {
    entity: ReviewSetOperation, where: { id }, map: (row) => ({ ...row, admin: refOf(row.admin) }) as ReviewSetOperationData,
  }).all() : [];
  if (!found) throw new DomainError('not_found', `billing review-set operation ${id} does not exist`);
  return found;
}
