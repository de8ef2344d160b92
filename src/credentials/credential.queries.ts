// API credentials as answers show them (GraphQL apiCredentials): never the secret or its hash.
import type { Actor } from '../access/actor.ts';
import { Credential } from '../access/credential.entity.ts';
import { DomainError } from '../platform/errors.ts';
import type { Em } from '../platform/orm.ts';
import { markData } from '../platform/plain-reads.ts';
import { SeekList } from '../platform/seek-page.ts';

/** A credential as answers show it: never its secret or hash. */
export interface CredentialData {
  id: string;
  publicId: string;
  role: Credential['role'];
  /** Empty: every administration. */
  adminIds: string[];
  siteId: string | null;
  rateLimitPerMinute: number | null;
  revokedAt: Date | null;
  createdAt: Date;
}

/** Who may list and manage credentials: an admin credential without an administration limit (else 403 forbidden). */
export function assertMayManageCredentials(actor: Actor): void {
  if (actor.role !== 'admin' || !actor.scope.all) {
    throw new DomainError('forbidden', 'only an admin credential without an administration limit may list or manage API credentials');
  }
}

const FIELDS = ['id', 'publicId', 'role', 'adminIds', 'siteId', 'rateLimitPerMinute', 'revokedAt', 'createdAt'] as const;

export function credentialData(row: Record<string, any>): CredentialData {
  return markData({
    id: row.id, publicId: row.publicId, role: row.role, adminIds: [...(row.adminIds ?? [])], siteId: row.siteId ?? null,
    rateLimitPerMinute: row.rateLimitPerMinute ?? null, revokedAt: row.revokedAt ?? null, createdAt: row.createdAt,
  }, 'Credential');
}

/** Every credential by id (revoked ones included), without secrets. */
export function credentialList(em: Em, actor: Actor): SeekList<CredentialData> {
  assertMayManageCredentials(actor);
  return new SeekList<CredentialData>(em, { entity: Credential, fields: [...FIELDS], map: credentialData });
}

