// Reads of OCPI peers (the OCPI side of a roaming connection; shared by all administrations: no
// scope), as plain data: the peer a presented token names (the OCPI transport's caller) and the
// peer of a connection (GET /roaming-connection/{id}/ocpi).
import { NotFoundError } from '../platform/errors.ts';
import type { Em } from '../platform/orm.ts';
import type { Data } from '../platform/plain-data.ts';
import { readRow, rowData, type Row } from '../platform/plain-reads.ts';
import { OcpiPeer } from './ocpi-peer.entity.ts';

export type OcpiPeerData = Data<OcpiPeer>;

/** A peer (a row of the query builder, or an entity a service changed) as plain data. */
export function ocpiPeerData(em: Em, source: Row | OcpiPeer): OcpiPeerData {
  return rowData(em, OcpiPeer, source);
}

/** The peer that must present this token to call us, or null. */
export function peerByToken(em: Em, token: string): Promise<OcpiPeerData | null> {
  return readRow(em, { entity: OcpiPeer, map: (row) => ocpiPeerData(em, row) }, { tokenAccept: token });
}

/** The OCPI side of a roaming connection; none yet is not_found. */
export async function getOcpiPeer(em: Em, roamingConnectionId: string): Promise<OcpiPeerData> {
  const peer = await readRow(em, { entity: OcpiPeer, map: (row) => ocpiPeerData(em, row) }, { roamingConnectionId });
  if (!peer) throw new NotFoundError('OCPI peer');
  return peer;
}
