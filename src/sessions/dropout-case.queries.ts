// The drop-out case list both transports call (REST /msp-dropout-case and /cpo-dropout-case, GraphQL dropoutCases).
import type { FilterQuery } from '@mikro-orm/core';
import type { Em } from '../platform/orm.ts';
import { SeekList } from '../platform/seek-page.ts';
import { DropoutCase } from './dropout-case.entity.ts';

export interface DropoutCaseFilter {
  side?: DropoutCase['side'];
  status?: DropoutCase['status'];
  reason?: string;
  evseUid?: string;
}

export function dropoutCaseList(em: Em, filter: DropoutCaseFilter = {}): SeekList<DropoutCase> {
  const where: FilterQuery<DropoutCase> = {
    ...(filter.status ? { status: filter.status } : {}),
    ...(filter.side ? { side: filter.side } : {}),
    ...(filter.reason ? { reason: filter.reason } : {}),
    ...(filter.evseUid ? { evseUid: filter.evseUid } : {}),
  };
  return new SeekList<DropoutCase>(em, { entity: DropoutCase, where, entities: true });
}
