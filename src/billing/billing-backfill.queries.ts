// Reads of billing backfill progress (billing-backfill.entity.ts): the list of both transports,
// one item per administration the caller sees, and every row for the metrics.
import type { Em } from '../platform/orm.ts';
import { SeekList } from '../platform/seek-page.ts';
import { BillingBackfill, type BackfillState } from './billing-backfill.entity.ts';

export interface BackfillData {
  id: string;
  adminId: string;
  state: BackfillState;
  batchesDone: number;
  batchesTotal: number;
  sessionsDone: number;
  sessionsTotal: number;
  startedAt: Date | null;
  finishedAt: Date | null;
  error: string | null;
}

const date = (value: unknown): Date | null => (value === null || value === undefined ? null : new Date(value as string));

const toData = (row: Record<string, any>): BackfillData => ({
  id: row.id, adminId: typeof row.admin === 'object' ? row.admin.id : row.admin, state: row.state,
  batchesDone: row.batchesDone, batchesTotal: row.batchesTotal, sessionsDone: row.sessionsDone, sessionsTotal: row.sessionsTotal,
  startedAt: date(row.startedAt), finishedAt: date(row.finishedAt), error: row.error ?? null,
});

/** The caller's administrations' backfills (the em's scope), by id. */
export function backfillList(em: Em, filter: { adminId?: string } = {}): SeekList<BackfillData> {
  return new SeekList<BackfillData>(em, { entity: BillingBackfill, where: filter.adminId ? { admin: filter.adminId } : {}, map: toData });
}

/** Every administration's backfill, for the metrics (an unscoped em). */
export async function allBackfills(em: Em): Promise<BackfillData[]> {
  const rows = await em.execute<Record<string, any>[]>(`select id::text, admin_id, state, batches_done, batches_total, sessions_done, sessions_total,
      started_at, finished_at, error from billing_backfill order by admin_id`);
  return rows.map((row) => ({
    id: row.id, adminId: row.admin_id, state: row.state, batchesDone: row.batches_done, batchesTotal: row.batches_total,
    sessionsDone: row.sessions_done, sessionsTotal: row.sessions_total, startedAt: date(row.started_at), finishedAt: date(row.finished_at), error: row.error,
  }));
}
