import { DomainError, InvalidInputError } from '../platform/errors.ts';
import { flushUnique } from '../platform/flush-unique.ts';
import type { Em } from '../platform/orm.ts';
import { Administration } from '../parties/administration.entity.ts';
import { Credential, ROLES, type Role } from '../access/credential.entity.ts';
import { EndUserSite } from '../end-users/end-user-site.entity.ts';
import { isUuid } from '../platform/ids.ts';
import { isPublicId } from '../access/public-id.ts';
import { hashSecret, verifySecret } from '../access/secret-hash.ts';
import { credentialChanged } from '../access/credential-changes.ts';

export interface CredentialInput {
  publicId: string;
  secret: string;
  role?: Role;
  adminIds?: string[];
  rateLimitPerMinute?: number | null;
  /** App credentials: the end-user site. */
  siteId?: string | null;
}

/**
 * A role and administration limit checked: a known role, administrations that exist (as stored: their
 * slugs, each once however often and in whatever casing it was named).
 */
export async function checkedScope(em: Em, input: { role?: Role; adminIds?: string[] }): Promise<{ role: Role; adminIds: string[] }> {
  const role = input.role ?? 'admin';
  if (!ROLES.includes(role)) throw new InvalidInputError(`role must be one of ${ROLES.join(', ')}`, { path: ['role'] });
  const adminIds: string[] = [];
  for (const [index, id] of (input.adminIds ?? []).entries()) {
    const admin = await em.findOne(Administration, { id });
    if (!admin) throw new InvalidInputError(`no administration ${id}`, { path: ['admin_ids', index] });
    if (!adminIds.includes(admin.id)) adminIds.push(admin.id);
  }
  return { role, adminIds };
}

/** The public id and secret as a credential takes them (the bootstrap's are checked at start, before the database). */
export function checkCredentialInput(input: { publicId: string; secret: string; rateLimitPerMinute?: number | null }): void {
  if (!isPublicId(input.publicId)) {
    throw new InvalidInputError('public id: 3 to 64 letters, digits, ".", "_" or "-"', { path: ['public_id'] });
  }
  if (input.secret.length < 12) throw new InvalidInputError('the secret must have at least 12 characters', { path: ['secret'] });
  // As GraphQL's input: a limit of 0 would be stored as no limit at all.
  const limit = input.rateLimitPerMinute;
  if (limit != null && !(Number.isInteger(limit) && limit >= 1 && limit <= 1_000_000)) {
    throw new InvalidInputError('the rate limit must be 1 to 1,000,000 requests a minute', { path: ['rate_limit_per_minute'] });
  }
}

/**
 * An App credential's end-user site exists and belongs to one of the credential's administrations
 * (any, without a limit): one of another administration was saved, and could never register an end
 * user (the site is read within the credential's administrations).
 */
export async function assertSiteWithin(em: Em, siteId: string, adminIds: string[]): Promise<void> {
  const site = isUuid(siteId) ? await em.findOne(EndUserSite, { id: siteId }, { filters: false }) : null;
  if (!site) throw new InvalidInputError(`no end-user site ${siteId}`, { path: ['site_id'] });
  const adminId = site.admin.id.toLowerCase();
  if (adminIds.length > 0 && !adminIds.some((id) => id.toLowerCase() === adminId)) {
    throw new InvalidInputError(`end-user site ${siteId} belongs to an administration outside the credential's`, { path: ['site_id'] });
  }
}

const UNIQUE = { credential_public_id_unique: ['public_id'] };

/**
 * Creates a credential, or replaces the secret, role and scope of the one with that public id (the
 * CLI's and the bootstrap's `save`); with `replace: false` (the API's create) an existing one, or one
 * a concurrent create stores first, is 400 `duplicate` at `public_id`: a create never overwrites.
 */
export async function saveCredential(em: Em, input: CredentialInput, options: { replace: boolean } = { replace: true }): Promise<Credential> {
  checkCredentialInput(input);
  const { role, adminIds } = await checkedScope(em, input);
  if (input.siteId) await assertSiteWithin(em, input.siteId, adminIds);
  const secretHash = await hashSecret(input.secret);
  let credential = await em.findOne(Credential, { publicId: input.publicId });
  if (credential && !options.replace) throw duplicate(input.publicId);
  if (!credential) {
    credential = em.create(Credential, { publicId: input.publicId, secretHash, role, adminIds });
  } else {
    credential.secretHash = secretHash;
    credential.role = role;
    credential.adminIds = adminIds;
    credential.revokedAt = null;
  }
  credential.rateLimitPerMinute = input.rateLimitPerMinute ?? null;
  credential.siteId = input.siteId ?? null;
  await flushUnique(em, UNIQUE);
  credentialChanged(credential.publicId);
  return credential;
}

/** A credential: missing, revoked, given another secret than `secret`, or active with it. */
export type CredentialState = 'missing' | 'revoked' | 'changed' | 'active';

export async function credentialState(em: Em, publicId: string, secret: string): Promise<CredentialState> {
  const credential = await em.findOne(Credential, { publicId });
  if (!credential) return 'missing';
  if (credential.revokedAt) return 'revoked';
  return await verifySecret(secret, credential.secretHash) ? 'active' : 'changed';
}

/**
 * The bootstrap credential (SVC_BOOTSTRAP_CREDENTIAL): created, an unlimited admin, when no credential
 * has its public id; one that exists is left as it is, revoked, re-scoped or given another secret (a
 * restart must not undo what the operator did). Answers `created` or the state it found.
 */
export async function ensureCredential(em: Em, input: CredentialInput): Promise<'created' | CredentialState> {
  if (!(await em.count(Credential, { publicId: input.publicId }))) {
    try {
      await saveCredential(em, input, { replace: false });
      return 'created';
    } catch (error) {
      // A CLI command created it meanwhile (service processes take turns: the start-up lock).
      if (!(error instanceof DomainError && error.code === 'duplicate')) throw error;
    }
  }
  return credentialState(em.fork(), input.publicId, input.secret);
}

export function duplicate(publicId: string): DomainError {
  return new DomainError('duplicate', `a credential ${publicId} exists already`, { path: ['public_id'] });
}
