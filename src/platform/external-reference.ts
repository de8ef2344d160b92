import type { EntityName } from '@mikro-orm/core';
import { DomainError } from './errors.ts';
import type { Em } from './orm.ts';

/**
 * External references are unique per resource in the whole instance (docs/decisions.md), so
 * this check looks past the caller's administrations. Only null and absent are no reference: ""
 * is refused by the transports (`externalRef`), but a value all the same for the constraint.
 */
export async function assertExternalReferenceFree(em: Em, entity: EntityName<any>, externalReference: string | null | undefined, what: string): Promise<void> {
  if (externalReference === null || externalReference === undefined) return;
  const taken = await em.count(entity, { externalReference }, { filters: false });
  if (taken > 0) {
    throw new DomainError('duplicate', `external_reference is already used by another ${what}`, { path: ['external_reference'] });
  }
}

/** Whether a patch's reference `next` (absent: kept, null: removed) sets one other than `current`, compared as citext compares. */
export function setsOtherExternalReference(next: string | null | undefined, current: string | null | undefined): next is string {
  return typeof next === 'string' && next.toLowerCase() !== current?.toLowerCase();
}
