import { defineEntity, p } from '@mikro-orm/core';
import { RoamingConnection } from '../roaming/roaming-connection.entity.ts';
import { Administration } from '../parties/administration.entity.ts';
import { adminScopeFilter } from '../access/admin-scope.ts';
import { createdAtProperty, idProperty } from '../platform/entity-properties.ts';

/**
 * A CDR a peer pushed that failed the OCPI schema or the session pipeline's basic checks: kept as
 * received with the reason (interface spec: an invalid session from another channel). A later
 * CDR with the same id and party from the same connection that passes marks it resolved
 * (resolve-invalid-cdrs.ts).
 */
export const OcpiInvalidCdrSchema = defineEntity({
  name: 'OcpiInvalidCdr',
  tableName: 'ocpi_invalid_cdr',
  filters: adminScopeFilter('admin'),
  indexes: [{ properties: ['roamingConnectionId', 'cdrId'] }],
  properties: {
    id: idProperty(),
    roamingConnectionId: () => p.manyToOne(RoamingConnection).mapToPk().fieldName('roaming_connection_id'),
    /** The administration of the CDR's token when its contract id is ours (else null: only credentials of every administration see it). */
    admin: () => p.manyToOne(Administration).nullable(),
    /** The CDR's id when the body had one (a string). */
    cdrId: p.string().nullable(),
    body: p.json<unknown>(),
    reason: p.text(),
    resolvedAt: p.datetime().nullable(),
    /** The charge session the corrected CDR became. */
    chargeSessionId: p.uuid().nullable(),
    createdAt: createdAtProperty(),
  },
});

export class OcpiInvalidCdr extends OcpiInvalidCdrSchema.class {}
OcpiInvalidCdrSchema.setClass(OcpiInvalidCdr);
