// Managing API credentials from the API (GraphQL; the console's credentials page): list, create
// with a generated secret answered once, change role and administration limit, revoke. Only a
// credential without an administration limit and with role `admin` may do any of it (403
// `forbidden`, like instance-wide writes). The secret and its hash never leave this module's
// answers except the new secret in the answer of its creation.
import { randomBytes } from 'node:crypto';
import type { Actor } from '../access/actor.ts';
import { credentialChanged } from '../access/credential-changes.ts';
import { Credential } from '../access/credential.entity.ts';
import { isPublicId } from '../access/public-id.ts';
import { DomainError, NotFoundError } from '../platform/errors.ts';
import type { Em } from '../platform/orm.ts';
import { assertMayManageCredentials, credentialData, type CredentialData } from './credential.queries.ts';
import { assertSiteWithin, checkedScope, duplicate, saveCredential, type CredentialInput } from './save-credential.service.ts';

async function credentialToChange(em: Em, publicId: string): Promise<Credential> {
  const credential = isPublicId(publicId) ? await em.findOne(Credential, { publicId }) : null;
  if (!credential) throw new NotFoundError('credential', { path: ['public_id'] });
  return credential;
}

export interface NewCredential { credential: CredentialData; secret: string }

/** A new credential with a generated secret, answered here once (the secret is stored as scrypt only). */
export async function createApiCredential(em: Em, actor: Actor, input: Omit<CredentialInput, 'secret'>): Promise<NewCredential> {
  assertMayManageCredentials(actor);
  if (!isPublicId(input.publicId)) throw new DomainError('invalid_input', 'public id: 3 to 64 letters, digits, ".", "_" or "-"', { path: ['public_id'] });
  // Before the secret's hash, which takes a while; saveCredential checks again, up to the insert.
  if (await em.count(Credential, { publicId: input.publicId })) throw duplicate(input.publicId);
  const secret = randomBytes(24).toString('base64url');
  const credential = await saveCredential(em, { ...input, secret }, { replace: false });
  return { credential: credentialData(credential), secret };
}

export interface ScopeChange { role?: Credential['role'] | null; adminIds?: string[] | null }

/** Changes the role and administration limit of a live credential (absent: kept); it acts so from its next request on. */
export async function changeCredentialScope(em: Em, actor: Actor, publicId: string, change: ScopeChange): Promise<CredentialData> {
  assertMayManageCredentials(actor);
  const credential = await credentialToChange(em, publicId);
  if (credential.revokedAt) throw new DomainError('already_revoked', 'credential already revoked', { path: ['public_id'] });
  const scope = await checkedScope(em, { role: change.role ?? credential.role, adminIds: change.adminIds ?? credential.adminIds });
  if (credential.siteId) await assertSiteWithin(em, credential.siteId, scope.adminIds);
  credential.role = scope.role;
  credential.adminIds = scope.adminIds;
  await em.flush();
  credentialChanged(credential.publicId);
  return credentialData(credential);
}

/** Revokes a credential: from now on it authenticates no more (401). */
export async function revokeCredential(em: Em, actor: Actor, publicId: string): Promise<CredentialData> {
  assertMayManageCredentials(actor);
  const credential = await credentialToChange(em, publicId);
  credential.revoke();
  await em.flush();
  credentialChanged(credential.publicId);
  return credentialData(credential);
}
