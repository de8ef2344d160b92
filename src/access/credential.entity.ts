import { defineEntity, p } from '@mikro-orm/core';
import { DomainError } from '../platform/errors.ts';
import { createdAtProperty, idProperty, identifierProperty } from '../platform/entity-properties.ts';

export const ROLES = ['admin', 'readonly', 'app'] as const;
export type Role = (typeof ROLES)[number];

/** An API credential: HTTP Basic public id + secret (stored as scrypt only). */
export const CredentialSchema = defineEntity({
  name: 'Credential',
  tableName: 'credential',
  properties: {
    id: idProperty(),
    publicId: identifierProperty().unique(),
    secretHash: p.string(),
    role: p.enum(ROLES).default('admin'),
    /** Empty: every administration. */
    adminIds: p.array().default([]),
    rateLimitPerMinute: p.integer().nullable(),
    /** App credentials: the end-user site they act for (registering end users there, seeing only its end users). */
    siteId: p.uuid().nullable(),
    revokedAt: p.datetime().nullable(),
    createdAt: createdAtProperty(),
  },
});

export class Credential extends CredentialSchema.class {
  revoke(): void {
    if (this.revokedAt) throw new DomainError('already_revoked', 'credential already revoked');
    this.revokedAt = new Date();
  }
}
CredentialSchema.setClass(Credential);
