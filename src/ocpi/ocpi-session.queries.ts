// Reads of the OCPI Sessions CPOs push (GET /ocpi/2.2.1/emsp/sessions/...), as plain data: one
// Session of a connection by its key, under the em's administration scope.
import type { Em } from '../platform/orm.ts';
import type { Data } from '../platform/plain-data.ts';
import { readRow, rowData } from '../platform/plain-reads.ts';
import { OcpiError, OCPI_STATUS } from './errors.ts';
import { OcpiSession } from './ocpi-session.entity.ts';

export type OcpiSessionData = Data<OcpiSession>;

export interface SessionKey { countryCode: string; partyId: string; sessionId: string }

/** The Session a connection's CPO stored under this key; none is OCPI 2000 with HTTP 404. */
export async function getOcpiSession(em: Em, roamingConnectionId: string, key: SessionKey): Promise<OcpiSessionData> {
  const session = await readRow(em, { entity: OcpiSession, map: (row) => rowData(em, OcpiSession, row) }, { roamingConnectionId, ...key });
  if (!session) throw new OcpiError(OCPI_STATUS.clientError, 'unknown session', 404);
  return session;
}
