import { defineEntity, p } from '@mikro-orm/core';
import { RoamingConnection } from '../roaming/roaming-connection.entity.ts';
import { createdAtProperty, idProperty, updatedAtProperty } from '../platform/entity-properties.ts';
import type { OcpiCredentialsRole } from './schemas/credentials.ts';
import type { OcpiEndpoint } from './schemas/version.ts';

/**
 * token_a_issued: we gave the peer token A, it has not registered yet; registered: tokens B/C
 * exchanged; unregistered: either side ended it (DELETE credentials).
 */
export const PEER_STATUSES = ['token_a_issued', 'registered', 'unregistered'] as const;
export type PeerStatus = typeof PEER_STATUSES[number];

/**
 * The OCPI side of one roaming connection. Roaming setup is shared across administrations: no admin scope.
 */
export const OcpiPeerSchema = defineEntity({
  name: 'OcpiPeer',
  tableName: 'ocpi_peer',
  properties: {
    id: idProperty(),
    roamingConnectionId: () => p.manyToOne(RoamingConnection).mapToPk().fieldName('roaming_connection_id').unique(),
    /** Our role towards the peer (this service is an eMSP). */
    ourRole: p.string().length(8).default('EMSP'),
    status: p.enum(PEER_STATUSES),
    /** The peer's versions URL. */
    versionsUrl: p.string().length(255).nullable(),
    /** What we put in `Authorization: Token` when calling the peer (their token A, then C; or B they gave us). */
    tokenSend: p.string().length(64).nullable(),
    /** What the peer must present to call us (A we issued, then B or C); unique among peers. */
    tokenAccept: p.string().length(64).nullable().unique(),
    version: p.string().length(8).nullable(),
    endpoints: p.json<OcpiEndpoint[]>().onCreate(() => []),
    /** The peer's roles (party ids) from its credentials. */
    roles: p.json<OcpiCredentialsRole[]>().onCreate(() => []),
    createdAt: createdAtProperty(),
    updatedAt: updatedAtProperty(),
  },
});

export class OcpiPeer extends OcpiPeerSchema.class {}
OcpiPeerSchema.setClass(OcpiPeer);

/** Whether a party id is one the peer named as its own in its credentials (a peer speaks only for its parties). */
export function speaksFor(peer: Pick<OcpiPeer, 'roles'>, countryCode: string, partyId: string): boolean {
  return peer.roles.some((r) => r.country_code.toUpperCase() === countryCode.toUpperCase() && r.party_id.toUpperCase() === partyId.toUpperCase());
}

/** The URL of one of the peer's endpoints, or null. */
export function peerEndpoint(peer: Pick<OcpiPeer, 'endpoints'>, identifier: OcpiEndpoint['identifier'], role: OcpiEndpoint['role']): string | null {
  return peer.endpoints.find((e) => e.identifier === identifier && e.role === role)?.url ?? null;
}
