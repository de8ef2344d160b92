import type { EntityName } from '@mikro-orm/core';
import { DomainError, NotFoundError, type ErrorPlace } from './errors.ts';
import type { FieldPath } from './field-path.ts';
import { isUuid } from './ids.ts';
import type { Em } from './orm.ts';

export const EXT_REF_PREFIX = 'ext_ref.';

/** A record named in a path: by id, or (where allowed) by `ext_ref.<external_reference>`. */
export type ResourceRef = { id: string } | { externalReference: string };

/** An external reference is 1 to 255 characters (decisions.md), also where a path or id argument names one. */
export const MAX_EXTERNAL_REFERENCE = 255;

/**
 * `place`: where `raw` came from (a body member, an argument); none for a URL path segment, whose
 * refusals are `invalid_path` like the path checks of the rails. An `ext_ref.` of more than 255
 * characters names no record and could create one with a reference no body may set: 400.
 */
export function parseRef(raw: string, allowExternalReference: boolean, place: ErrorPlace = {}): ResourceRef {
  if (allowExternalReference && raw.startsWith(EXT_REF_PREFIX) && raw.length > EXT_REF_PREFIX.length) {
    const externalReference = raw.slice(EXT_REF_PREFIX.length);
    if ([...externalReference].length > MAX_EXTERNAL_REFERENCE) {
      const message = `an external reference (after ${EXT_REF_PREFIX}) is at most ${MAX_EXTERNAL_REFERENCE} characters`;
      throw place.path || place.queryParam ? new DomainError('validation_failed', message, place) : new DomainError('invalid_path', message);
    }
    return { externalReference };
  }
  return { id: raw };
}

/** Finds a record visible to the caller; anything else is the same `not_found`. */
export async function findByRef<E extends object>(em: Em, entity: EntityName<E>, ref: ResourceRef, what: string, populate?: string[]): Promise<E | null> {
  if ('id' in ref && !isUuid(ref.id)) return null;
  const where = 'id' in ref ? { id: ref.id } : { externalReference: ref.externalReference };
  return em.findOne(entity as EntityName<any>, where, { populate }) as Promise<E | null>;
}

/**
 * findByRef for many refs in one query: the record each ref names (null where none), in the refs'
 * order. External references are matched ignoring case, as their citext columns compare them.
 */
export async function findByRefs<E extends { id: string; externalReference?: string | null }>(
  em: Em, entity: EntityName<E>, refs: ResourceRef[],
): Promise<(E | null)[]> {
  const ids = [...new Set(refs.flatMap((ref) => ('id' in ref && isUuid(ref.id) ? [ref.id.toLowerCase()] : [])))];
  const externalReferences = [...new Set(refs.flatMap((ref) => ('externalReference' in ref ? [ref.externalReference] : [])))];
  const where = [
    ...(ids.length ? [{ id: { $in: ids } }] : []),
    ...(externalReferences.length ? [{ externalReference: { $in: externalReferences } }] : []),
  ];
  const found = where.length ? await em.find(entity as EntityName<any>, { $or: where }) as E[] : [];
  const byId = new Map(found.map((record) => [record.id.toLowerCase(), record]));
  const byExternalReference = new Map(found.flatMap((record) =>
    (record.externalReference == null ? [] : [[record.externalReference.toLowerCase(), record] as const])));
  return refs.map((ref) => ('id' in ref
    ? (isUuid(ref.id) ? byId.get(ref.id.toLowerCase()) : undefined)
    : byExternalReference.get(ref.externalReference.toLowerCase())) ?? null);
}

export async function getByRef<E extends object>(em: Em, entity: EntityName<E>, ref: ResourceRef, what: string, populate?: string[]): Promise<E> {
  const found = await findByRef(em, entity, ref, what, populate);
  if (!found) throw new NotFoundError(what);
  return found;
}


/** Finds the record a body member names, among those the caller may see. */
export type RecordLookup = (em: Em, value: string) => Promise<object | null>;

export const lookupById = <E extends object>(entity: EntityName<E>): RecordLookup =>
  (em, id) => findByRef(em, entity, { id }, '');

export const lookupByExternalReference = <E extends object>(entity: EntityName<E>): RecordLookup =>
  (em, externalReference) => findByRef(em, entity, { externalReference }, '');

/** A body member that names another record (`customer_id`, `admin_id`, `plan_external_reference`, ...). */
export interface NamedRecord {
  path: FieldPath;
  what: string;
  value: string | null | undefined;
  find: RecordLookup;
}

/**
 * decisions.md (Errors): a body naming a record the caller cannot see (or that does not exist)
 * is 400 not_found at that member, also where the member is then ignored (immutable on update):
 * a silent 200 would hide the mistake and answer differently for visible and invisible records.
 */
export async function assertNamedRecordsVisible(em: Em, named: NamedRecord[]): Promise<void> {
  for (const { path, what, value, find } of named) {
    if (value === undefined || value === null) continue;
    if (!(await find(em, value))) throw new NotFoundError(what, { path });
  }
}
