// The drop-out case list both transports call (REST /msp-dropout-case, GraphQL dropoutCases).
import type { FilterQuery } from '@mikro-orm/core';
import type { Em } from '../platform/orm.ts';
import { SeekList } from '../platform/seek-page.ts';
import { DropoutCase } from './dropout-case.entity.ts';

export interface DropoutCaseFilter {
  status?: DropoutCase['status'];
  reason?: string;
}

export function dropoutCaseList(em: Em, filter: DropoutCaseFilter = {}): SeekList<DropoutCase> {
  const where: FilterQuery<DropoutCase> = {
    ...(filter.status ? { status: filter.status } : {}),
    ...(filter.reason ? { reason: filter.reason } : {}),
  };
  return new SeekList<DropoutCase>(em, { entity: DropoutCase, where, entities: true });
}
