// Reads of the CDRs CPOs pushed that were refused (GET /ocpi-invalid-cdr), as plain data: seek-paged
// by id (receipt) under the em's administration scope, optionally of one connection and resolved or not.
import type { Em } from '../platform/orm.ts';
import type { Data } from '../platform/plain-data.ts';
import { rowData } from '../platform/plain-reads.ts';
import { SeekList } from '../platform/seek-page.ts';
import { OcpiInvalidCdr } from './ocpi-invalid-cdr.entity.ts';

export type OcpiInvalidCdrData = Data<OcpiInvalidCdr>;

/** `resolved`: true for those a corrected CDR resolved, false for the others. */
export function ocpiInvalidCdrList(em: Em, filter: { roamingConnectionId?: string; resolved?: boolean } = {}): SeekList<OcpiInvalidCdrData> {
  const where = {
    ...(filter.roamingConnectionId ? { roamingConnectionId: filter.roamingConnectionId } : {}),
    ...(filter.resolved === undefined ? {} : { resolvedAt: filter.resolved ? { $ne: null } : null }),
  };
  return new SeekList<OcpiInvalidCdrData>(em, { entity: OcpiInvalidCdr, where, map: (row) => rowData(em, OcpiInvalidCdr, row) });
}
