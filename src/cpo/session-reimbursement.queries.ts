// The reimbursement record reads both transports call (REST /cpo-charge-session-reimbursement,
// GraphQL cpoChargeSessionReimbursements and its nodes): filters, scope (the em's administration
// filter), seek paging, answered as plain data.
import type { FilterQuery } from '@mikro-orm/core';
import { isUuid } from '../platform/ids.ts';
import { NotFoundError } from '../platform/errors.ts';
import type { Em } from '../platform/orm.ts';
import type { Data } from '../platform/plain-data.ts';
import { inIdOrder, refOf } from '../platform/plain-reads.ts';
import { SeekList } from '../platform/seek-page.ts';
import { SessionReimbursement } from './session-reimbursement.entity.ts';

export type SessionReimbursementData = Data<SessionReimbursement>;

export interface SessionReimbursementFilter {
  chargeSessionId?: string;
  arrangementId?: string;
  customerId?: string;
  evseUid?: string;
}

const records = (em: Em, where: FilterQuery<SessionReimbursement> = {}, feed = true) => new SeekList<SessionReimbursementData>(em, {
  entity: SessionReimbursement, where, map: (row) => ({ ...row, admin: refOf(row.admin) }) as SessionReimbursementData,
  ...(feed ? { feed: 'sessionReimbursements' as const } : {}),
});

/**
 * Reimbursement records by id, a feed (feed-horizon.ts); those of one session are written by the
 * batch that holds it, in id order: no horizon to wait for.
 */
export function sessionReimbursementList(em: Em, filter: SessionReimbursementFilter = {}): SeekList<SessionReimbursementData> {
  return records(em, {
    ...(filter.chargeSessionId ? { sessionId: filter.chargeSessionId } : {}),
    ...(filter.arrangementId ? { arrangementId: filter.arrangementId } : {}),
    ...(filter.customerId ? { customerId: filter.customerId } : {}),
    ...(filter.evseUid ? { evseUid: filter.evseUid } : {}),
  }, !filter.chargeSessionId);
}

export async function getSessionReimbursement(em: Em, id: string): Promise<SessionReimbursementData> {
  const [record] = isUuid(id) ? await records(em, { id }).all() : [];
  if (!record) throw new NotFoundError('CPO charge session reimbursement');
  return record;
}

export function sessionReimbursementsByIds(em: Em, ids: readonly string[]): Promise<(SessionReimbursementData | null)[]> {
  return inIdOrder(ids, (wanted) => records(em, { id: { $in: wanted } }).all());
}
