// The reimbursement record reads both transports call (REST /cpo-charge-session-reimbursement,
// GraphQL cpoChargeSessionReimbursements): filters, scope (the em's administration filter), seek paging.
import type { FilterQuery } from '@mikro-orm/core';
import { isUuid } from '../platform/ids.ts';
import { NotFoundError } from '../platform/errors.ts';
import type { Em } from '../platform/orm.ts';
import { SeekList } from '../platform/seek-page.ts';
import { SessionReimbursement } from './session-reimbursement.entity.ts';

export interface SessionReimbursementFilter {
  chargeSessionId?: string;
  arrangementId?: string;
  customerId?: string;
  evseUid?: string;
}

export function sessionReimbursementList(em: Em, filter: SessionReimbursementFilter = {}): SeekList<SessionReimbursement> {
  const where: FilterQuery<SessionReimbursement> = {
    ...(filter.chargeSessionId ? { sessionId: filter.chargeSessionId } : {}),
    ...(filter.arrangementId ? { arrangementId: filter.arrangementId } : {}),
    ...(filter.customerId ? { customerId: filter.customerId } : {}),
    ...(filter.evseUid ? { evseUid: filter.evseUid } : {}),
  };
  return new SeekList<SessionReimbursement>(em, { entity: SessionReimbursement, where, entities: true });
}

export async function getSessionReimbursement(em: Em, id: string): Promise<SessionReimbursement> {
  const record = isUuid(id) ? await em.findOne(SessionReimbursement, { id }) : null;
  if (!record) throw new NotFoundError('CPO charge session reimbursement');
  return record;
}
