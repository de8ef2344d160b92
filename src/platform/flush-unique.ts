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
