import type { EntityName } from '@mikro-orm/core';
import { DomainError } from './errors.ts';
import type { Em } from './orm.ts';

/**
 * External references are unique per resource in the whole instance (docs/decisions.md), so
 * this check looks past the caller's administrations.
 */
export async function assertExternalReferenceFree(em: Em, entity: EntityName<any>, externalReference: string | null | undefined, what: string): Promise<void> {
  if (!externalReference) return;
  const taken = await em.count(entity, { externalReference }, { filters: false });
  if (taken > 0) {
    throw new DomainError('duplicate', `external_reference is already used by another ${what}`, { path: ['external_reference'] });
  }
}
