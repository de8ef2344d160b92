import { defineEntity, p } from '@mikro-orm/core';
import { createdAtProperty, idProperty, identifierProperty, updatedAtProperty } from '../platform/entity-properties.ts';
import { RoamingPartner } from '../parties/roaming-partner.entity.ts';
import { recordsEvents } from '../events/event-kinds.ts';

export const CONNECTION_KINDS = ['locally_owned', 'provider_facilitated'] as const;
export type ConnectionKind = (typeof CONNECTION_KINDS)[number];
export const ROAMING_PROTOCOLS = ['ocpi'] as const;

/**
 * A technical link to a roaming platform (one partner or a hub). Locally owned: set up by us with
 * a partner, used through agreements; provider-facilitated: never has an agreement. Shared by all
 * administrations (no admin scope), like roaming partners.
 */
export const RoamingConnectionSchema = defineEntity({
  name: 'RoamingConnection',
  tableName: 'roaming_connection',
  properties: {
    id: idProperty(),
    name: p.string(),
    kind: p.enum(CONNECTION_KINDS),
    protocol: p.enum(ROAMING_PROTOCOLS).default('ocpi'),
    /** The partner of a locally owned connection (null for a provider-facilitated one or a hub). */
    partner: () => p.manyToOne(RoamingPartner).nullable().index(),
    url: p.string().length(2048).nullable(),
    notes: p.text().nullable(),
    externalReference: identifierProperty().nullable().unique(),
    createdAt: createdAtProperty(),
    updatedAt: updatedAtProperty(),
  },
});

export class RoamingConnection extends RoamingConnectionSchema.class {}
RoamingConnectionSchema.setClass(RoamingConnection);
recordsEvents<RoamingConnection>(RoamingConnection, 'roaming_connection', { adminOf: () => null });
