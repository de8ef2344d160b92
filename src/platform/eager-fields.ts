// What a read selects by default, as loading an entity would: lazy properties (e.g. secrets) stay
// out of every list and plain read unless named.
import { ReferenceKind, type EntityMetadata } from '@mikro-orm/core';

/** The properties loading an entity reads: stored scalars and owning to-one references, not lazy ones. */
export function eagerFields(meta: EntityMetadata<any>): string[] {
  return meta.props.filter((prop) => prop.persist !== false && !prop.lazy && (prop.kind === ReferenceKind.SCALAR
    || prop.kind === ReferenceKind.EMBEDDED || prop.kind === ReferenceKind.MANY_TO_ONE || (prop.kind === ReferenceKind.ONE_TO_ONE && prop.owner)))
    .map((prop) => prop.name);
}
