// What a read selects by default, as loading an entity would: lazy properties (e.g. secrets) stay
// out of every list and plain read unless named.
import { ReferenceKind, type EntityMetadata } from '@mikro-orm/core';

/** The properties loading an entity reads: stored scalars and owning to-one references, not lazy ones. */
export function eagerFields(meta: EntityMetadata<any>): string[] {
  return meta.props.filter((prop) => prop.persist !== false && !prop.lazy && (prop.kind === ReferenceKind.SCALAR
    || prop.kind === ReferenceKind.EMBEDDED || prop.kind === ReferenceKind.MANY_TO_ONE || (prop.kind === ReferenceKind.ONE_TO_ONE && prop.owner)))
    .map((prop) => prop.name);
}

const selections = new WeakMap<EntityMetadata<any>, string[]>();

/**
 * The select list of a read: `*` where the entity has no lazy property (the query builder writes a
 * named list property by property, which costs a list page about a tenth of a millisecond), else
 * its eager fields. Computed once per entity.
 */
export function defaultSelection(meta: EntityMetadata<any>): string[] {
  let selection = selections.get(meta);
  if (!selection) {
    selection = meta.props.some((prop) => prop.lazy) ? eagerFields(meta) : ['*'];
    selections.set(meta, selection);
  }
  return selection;
}
