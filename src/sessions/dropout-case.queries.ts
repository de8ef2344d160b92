// The drop-out case reads both transports call (REST /msp-dropout-case and /cpo-dropout-case,
// GraphQL dropoutCases and DropoutCase nodes): filters, scope (the em's administration filter),
// seek paging by id, answered as plain data.
import type { FilterQuery } from '@mikro-orm/core';
import { NotFoundError } from '../platform/errors.ts';
import { isUuid } from '../platform/ids.ts';
import type { Em } from '../platform/orm.ts';
import type { Data } from '../platform/plain-data.ts';
import { inIdOrder, refOf } from '../platform/plain-reads.ts';
import { SeekList } from '../platform/seek-page.ts';
import { DropoutCase, type DropoutSide } from './dropout-case.entity.ts';

export type DropoutCaseData = Data<DropoutCase>;

export interface DropoutCaseFilter {
  side?: DropoutCase['side'];
  status?: DropoutCase['status'];
  reason?: string;
  evseUid?: string;
}

const cases = (em: Em, where: FilterQuery<DropoutCase> = {}) => new SeekList<DropoutCaseData>(em, {
  entity: DropoutCase, where, map: (row) => ({ ...row, admin: refOf(row.admin) }) as DropoutCaseData,
});

export function dropoutCaseList(em: Em, filter: DropoutCaseFilter = {}): SeekList<DropoutCaseData> {
  return cases(em, {
    ...(filter.status ? { status: filter.status } : {}),
    ...(filter.side ? { side: filter.side } : {}),
    ...(filter.reason ? { reason: filter.reason } : {}),
    ...(filter.evseUid ? { evseUid: filter.evseUid } : {}),
  });
}

/** A case of the caller's administrations, of one side when named (msp: /msp-dropout-case, cpo: /cpo-dropout-case), or 400 not_found. */
export async function getDropoutCase(em: Em, id: string, side?: DropoutSide): Promise<DropoutCaseData> {
  const [found] = isUuid(id) ? await cases(em, { id, ...(side ? { side } : {}) }).all() : [];
  if (!found) throw new NotFoundError('drop-out case');
  return found;
}

export function dropoutCasesByIds(em: Em, ids: readonly string[]): Promise<(DropoutCaseData | null)[]> {
  return inIdOrder(ids, (wanted) => cases(em, { id: { $in: wanted } }).all());
}
