import { defineEntity, p } from '@mikro-orm/core';
import { idProperty } from '../platform/entity-properties.ts';

/** The OCPI Token types we publish (token-of.ts): a virtual token's APP_USER, a token with a uid RFID, else OTHER. */
export const OCPI_TOKEN_TYPES = ['RFID', 'APP_USER', 'OTHER'] as const;

/**
 * An OCPI identity (uid and type, as ocpiTokenOf published them) a token no longer has: its uid replaced (a lost card's
 * new one), its first uid set (it was published under its evco id), or a uid OCPI cannot carry. The tokens module
 * publishes it `valid: false` with `last_updated` the moment it was retired, so a CPO that keys its tokens by uid and type
 * learns that the former card may no longer charge. Written (and deleted when a token takes the identity again) by the
 * trigger of the ocpi_retired_token migration, in the transaction of the token's change, whatever path makes it.
 * Instance-wide like the tokens module (no administration filter). One row per identity (uid case-insensitively, type).
 */
export const OcpiRetiredTokenSchema = defineEntity({
  name: 'OcpiRetiredToken',
  tableName: 'ocpi_retired_token',
  // The tokens module reads them in (retired_at, id) order, merged with the tokens' (updated_at, id).
  indexes: [{ properties: ['retiredAt', 'id'] }],
  uniques: [{ properties: ['uid', 'type'] }],
  properties: {
    id: idProperty(),
    /** The token that had the identity (no foreign key: the identity outlives nothing of the token but its record). */
    tokenId: p.uuid(),
    /** The uid as published: the token's UID, else its EVCO id. */
    uid: p.string().columnType('citext'),
    type: p.enum(OCPI_TOKEN_TYPES),
    /** The token's EVCO id when it was retired: the published contract_id. */
    evcoId: p.string().columnType('citext'),
    retiredAt: p.datetime(),
  },
});

export class OcpiRetiredToken extends OcpiRetiredTokenSchema.class {}
OcpiRetiredTokenSchema.setClass(OcpiRetiredToken);
