import { UniqueConstraintViolationException, type EntityName } from '@mikro-orm/core';
import { DomainError } from './errors.ts';
import { assertExternalReferenceFree } from './external-reference.ts';
import { fieldLabel, type FieldPath } from './field-path.ts';
import type { Em } from './orm.ts';
import type { ResourceRef } from './resource-ref.ts';

/**
 * Flushes, answering a unique-constraint violation (a concurrent request took the value between
 * our check and the flush) like the check would have: 400 `duplicate` naming the field. `flush`:
 * the flush to run, when it is not the plain one (e.g. `flushAsLastChange`).
 */
export async function flushUnique(em: Em, pathByConstraint: Record<string, FieldPath>, flush: () => Promise<void> = () => em.flush()): Promise<void> {
  try {
    await flush();
  } catch (error) {
    if (!(error instanceof UniqueConstraintViolationException)) throw error;
    const constraint = (error as { constraint?: string }).constraint;
    const path = constraint ? pathByConstraint[constraint] : undefined;
    const field = path ? fieldLabel(path) : 'a unique field';
    throw new DomainError('duplicate', `${field} is already used by another record`, { path });
  }
}

/**
 * Creates in a transaction of its own, with the unique constraint `constraint` as the check: null when
 * a concurrent request stored the key first (nothing written, the caller's em as it was), so that the
 * caller merges into what that one stored, as a request right after it would.
 */
export async function createUnlessTaken<T>(em: Em, constraint: string, create: (tx: Em) => Promise<T>): Promise<T | null> {
  try {
    return await em.transactional(create);
  } catch (error) {
    if (error instanceof UniqueConstraintViolationException && (error as { constraint?: string }).constraint === constraint) return null;
    throw error;
  }
}

/**
 * The create of an upsert by `ext_ref.<reference>` (`constraint`: the reference's unique one): null
 * when a record the caller sees holds the reference, so that the caller merge-updates it; else the
 * record `create` stored, with the constraint as the check, so that the same create sent at once
 * stores one and the others merge into it. A reference held by a record the caller does not see
 * is 400 `duplicate`, as before a create.
 */
export async function createUnlessReferenced<T>(
  em: Em, entity: EntityName<any>, externalReference: string, constraint: string, what: string, create: (tx: Em) => Promise<T>,
): Promise<T | null> {
  if (await em.findOne(entity, { externalReference })) return null;
  const created = await createUnlessTaken(em, constraint, create);
  if (created !== null || await em.findOne(entity, { externalReference })) return created;
  await assertExternalReferenceFree(em, entity, externalReference, what);
  return null;
}

/**
 * The create step of a merge-update at `ext_ref.<reference>` (createUnlessReferenced): `created`, what
 * `create` stored with the path's reference; else the patch to merge into the record that holds it,
 * without a reference of its own (the path names the record, a body reference does not rename it).
 * A ref by id goes straight to the merge.
 */
export async function createAtReference<P extends { externalReference?: string | null }, T>(
  em: Em, entity: EntityName<any>, ref: ResourceRef, patch: P, constraint: string, what: string, create: (tx: Em, creating: P) => Promise<T>,
): Promise<{ created: T } | { merge: P }> {
  if (!('externalReference' in ref)) return { merge: patch };
  const creating = { ...patch, externalReference: ref.externalReference };
  const created = await createUnlessReferenced(em, entity, ref.externalReference, constraint, what, (tx) => create(tx, creating));
  return created !== null ? { created } : { merge: { ...patch, externalReference: undefined } };
}
