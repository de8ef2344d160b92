import { UniqueConstraintViolationException } from '@mikro-orm/core';
import { DomainError } from './errors.ts';
import type { Em } from './orm.ts';

/**
 * Flushes, answering a unique-constraint violation (a concurrent request took the value between
 * our check and the flush) like the check would have: 400 `duplicate` naming the field.
 */
export async function flushUnique(em: Em, paramByConstraint: Record<string, string>): Promise<void> {
  try {
    await em.flush();
  } catch (error) {
    if (!(error instanceof UniqueConstraintViolationException)) throw error;
    const constraint = (error as { constraint?: string }).constraint;
    const param = constraint ? paramByConstraint[constraint] : undefined;
    const field = param ? param.replace(/^\$\./, '') : 'a unique field';
    throw new DomainError('duplicate', `${field} is already used by another record`, { param });
  }
}
