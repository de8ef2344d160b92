import { refuseBlank } from '../platform/blank-text.ts';
import type { ErrorCode } from '../platform/error-codes.ts';
import { DomainError, type ErrorDetail } from '../platform/errors.ts';
import { fieldLabel } from '../platform/field-path.ts';
import type { Patch } from '../platform/merge-patch.ts';
import type { Em } from '../platform/orm.ts';
import { assertNamedRecordsVisible, getByRef } from '../platform/resource-ref.ts';
import { administrationNamed, isStaleUpdate, visibleAdministration } from '../parties/customer-input.ts';
import { EndUser } from './end-user.entity.ts';
import { EndUserSite } from './end-user-site.entity.ts';
import { isUuid } from '../platform/ids.ts';
import { siteForNewEndUser } from './end-user-site.service.ts';
import { flushUnique } from '../platform/flush-unique.ts';
import { endUserData, type EndUserData } from './end-user.queries.ts';

export interface EndUserFields {
  adminId: string;
  siteId: string;
  username: string;
  email: string;
  name: string;
  localeId: string;
  externalReference: string;
  externalUpdatedAt: Date;
}

export type EndUserPatch = Patch<EndUserFields>;

/** Instance-wide unique identifiers, compared case-insensitively (citext columns). */
const UNIQUE = [
  { field: 'username', path: ['username'], constraint: 'end_user_username_unique' },
  { field: 'email', path: ['email'], constraint: 'end_user_email_unique' },
  { field: 'externalReference', path: ['external_reference'], constraint: 'end_user_external_reference_unique' },
] as const;

const PARAM_BY_CONSTRAINT = Object.fromEntries(UNIQUE.map((u) => [u.constraint, u.path]));

/** The end user a change concerns (reads: end-user.queries.ts getEndUser). */
export function endUserToChange(em: Em, id: string): Promise<EndUser> {
  return getByRef(em, EndUser, { id }, 'end user');
}

function fail(code: ErrorCode, failures: ErrorDetail[]): never {
  throw DomainError.of(code, failures);
}

/** Unscoped on purpose: usernames, emails and references are unique in the whole instance. */
async function assertUnique(em: Em, patch: EndUserPatch, self?: EndUser): Promise<void> {
  const failures: ErrorDetail[] = [];
  for (const { field, path } of UNIQUE) {
    const value = patch[field];
    if (value === null || value === undefined) continue;
    const where = self ? { [field]: value, id: { $ne: self.id } } : { [field]: value };
    if (await em.count(EndUser, where, { filters: false })) {
      failures.push({ path, message: `${fieldLabel(path)} is already used by another end user` });
    }
  }
  if (failures.length) fail('duplicate', failures);
}

/** admin_id and site_id are immutable after create and ignored here; username cannot be cleared. */
function applyEndUserPatch(endUser: EndUser, patch: EndUserPatch): void {
  const { adminId: _immutable, siteId: _immutableSite, ...rest } = patch;
  for (const [key, value] of Object.entries(rest)) {
    if (value !== undefined) (endUser as unknown as Record<string, unknown>)[key] = value;
  }
}

export async function createEndUser(em: Em, patch: EndUserPatch): Promise<EndUserData> {
  const missing: ErrorDetail[] = [];
  if (!patch.adminId) missing.push({ path: ['admin_id'], message: 'admin_id is required' });
  if (!patch.username) missing.push({ path: ['username'], message: 'username is required' });
  if (missing.length) fail('validation_failed', missing);
  refuseBlank(patch.username, ['username']);
  const admin = await visibleAdministration(em, patch.adminId);
  const site = await siteForNewEndUser(em, admin, patch.siteId);
  await assertUnique(em, patch);
  const endUser = em.create(EndUser, { admin, site, username: patch.username! });
  applyEndUserPatch(endUser, patch);
  await flushUnique(em, PARAM_BY_CONSTRAINT);
  return endUserData(endUser);
}

/**
 * POST (merge) or the deprecated PUT (replace: the caller's patch holds null for every omitted
 * field) on /end-user/{id}. An update older than the last external_updated_at is ignored.
 */
export async function updateEndUser(em: Em, id: string, patch: EndUserPatch): Promise<EndUserData> {
  const endUser = await endUserToChange(em, id);
  await assertNamedRecordsVisible(em, [administrationNamed(patch.adminId), {
    path: ['site_id'], what: 'end-user site', value: patch.siteId,
    find: (e, id) => (isUuid(id) ? e.findOne(EndUserSite, { id }) : Promise.resolve(null)),
  }]);
  if (isStaleUpdate(endUser.externalUpdatedAt, patch.externalUpdatedAt)) return endUserData(endUser);
  if (patch.username === null) fail('validation_failed', [{ path: ['username'], message: 'username is required' }]);
  refuseBlank(patch.username, ['username']);
  await assertUnique(em, patch, endUser);
  applyEndUserPatch(endUser, patch);
  await flushUnique(em, PARAM_BY_CONSTRAINT);
  return endUserData(endUser);
}
