import { UniqueConstraintViolationException } from '@mikro-orm/core';
import { DomainError } from './errors.ts';
import { fieldLabel, type FieldPath } from './field-path.ts';
import type { Em } from './orm.ts';

/**
 * Flushes, answering a unique-constraint violation (a concurrent request took the value between
 * our check and the flush) like the check would have: 400 `duplicate` naming the field.
 */
export async function flushUnique(em: Em, pathByConstraint: Record<string, FieldPath>): Promise<void> {
  try {
    await em.flush();
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
