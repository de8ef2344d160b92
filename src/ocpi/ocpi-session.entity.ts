import { defineEntity, p } from '@mikro-orm/core';
import { RoamingConnection } from '../roaming/roaming-connection.entity.ts';
import { Administration } from '../parties/administration.entity.ts';
import { adminScopeFilter } from '../access/admin-scope.ts';
import { createdAtProperty, idProperty, updatedAtProperty } from '../platform/entity-properties.ts';
import { SESSION_STATUSES, type OcpiSessionObject } from './schemas/session.ts';

/**
 * An OCPI Session a CPO pushed (PUT, then PATCHes) while it runs: its progress until the CDR
 * arrives (the charge session that CDR became is then named and the progress list shows that one).
 */
export const OcpiSessionSchema = defineEntity({
  name: 'OcpiSession',
  tableName: 'ocpi_session',
  filters: adminScopeFilter('admin'),
  uniques: [{ properties: ['roamingConnectionId', 'countryCode', 'partyId', 'sessionId'] }],
  properties: {
    id: idProperty(),
    roamingConnectionId: () => p.manyToOne(RoamingConnection).mapToPk().fieldName('roaming_connection_id'),
    /** The administration of the driver's token (null when the contract id is not ours: only credentials of every administration see it). */
    admin: () => p.manyToOne(Administration).nullable(),
    countryCode: p.string().length(2),
    partyId: p.string().length(3),
    sessionId: p.string().length(36),
    status: p.enum(SESSION_STATUSES),
    kwh: p.decimal('string').precision(20).scale(6),
    evseUid: p.string().length(36),
    evcoId: p.string().length(36),
    /** The Session object as last stored (PATCHes merged in). */
    body: p.json<OcpiSessionObject>(),
    lastUpdated: p.datetime(),
    chargeSessionId: p.uuid().nullable(),
    createdAt: createdAtProperty(),
    updatedAt: updatedAtProperty(),
  },
});

export class OcpiSession extends OcpiSessionSchema.class {}
OcpiSessionSchema.setClass(OcpiSession);
