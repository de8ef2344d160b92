import { defineEntity, p } from '@mikro-orm/core';
import { createdAtProperty, idProperty } from '../platform/entity-properties.ts';

/**
 * A CDR a peer pushed that failed the OCPI schema or the session pipeline's basic checks: kept as
 * received with the reason (interface spec: an invalid session from another channel). A later
 * CDR with the same id from the same connection that passes marks it resolved.
 */
export const OcpiInvalidCdrSchema = defineEntity({
  name: 'OcpiInvalidCdr',
  tableName: 'ocpi_invalid_cdr',
  indexes: [{ properties: ['roamingConnectionId', 'cdrId'] }],
  properties: {
    id: idProperty(),
    roamingConnectionId: p.string().length(36),
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
