// Reads hand out plain data, never managed entities (docs/architecture.md, "Reads"): a transport
// that got an entity could change it, lazy-load through it or flush it by accident. `plainData`
// copies what an entity holds into a plain object (a reference becomes `{ id }`, a collection is
// left out); the queries modules and the services use it for what they answer, and
// test/queries-return-data.test.ts checks at compile time that no queries module answers an entity.
import { helper, ReferenceKind, Utils, type PrimaryKeyProp } from '@mikro-orm/core';
import { DATA_OF } from './seek-page.ts';

type Scalar = string | number | boolean | bigint | symbol | Date | Buffer | null | undefined;

/** Whether T is (or holds, a few levels deep) a MikroORM entity: the types `defineEntity` infers carry PrimaryKeyProp. */
export type HoldsEntity<T, Depth extends unknown[] = []> =
  0 extends 1 & T ? false
  : Depth['length'] extends 5 ? false
    : T extends Scalar ? false
      : T extends (...args: any[]) => any ? false
        : typeof PrimaryKeyProp extends keyof T ? (symbol extends keyof T ? false : true)
          : T extends { page(range: any): Promise<infer I> } ? HoldsEntity<I, [...Depth, 0]>
            : T extends readonly (infer I)[] ? HoldsEntity<I, [...Depth, 0]>
              : T extends Map<any, infer V> ? HoldsEntity<V, [...Depth, 0]>
                : T extends object ? true extends { [K in keyof T]-?: HoldsEntity<T[K], [...Depth, 0]> }[keyof T] ? true : false
                  : false;

type IsEntity<V> = V extends object ? (typeof PrimaryKeyProp extends keyof V ? (symbol extends keyof V ? false : true) : false) : false;

/** An entity's properties as plain data: references as `{ id }`, no collections, no methods. */
export type Data<E> = {
  [K in keyof E as K extends symbol ? never : E[K] extends (...args: any[]) => any ? never
    : NonNullable<E[K]> extends { getItems(): unknown } ? never : K]:
      IsEntity<NonNullable<E[K]>> extends true ? ({ id: NonNullable<E[K]> extends { id: infer I } ? I : string } | Extract<E[K], null | undefined>)
        : E[K];
};

/** A plain copy of an entity's loaded properties (references as `{ id }`), marked with its entity for GraphQL's node types. */
export function plainData<E extends object>(entity: E): Data<E> {
  const wrapped = helper(entity);
  const meta = wrapped.__meta;
  const data: Record<string, unknown> = {};
  for (const prop of meta.props) {
    if (prop.kind === ReferenceKind.ONE_TO_MANY || prop.kind === ReferenceKind.MANY_TO_MANY) continue;
    const value = (entity as Record<string, unknown>)[prop.name];
    if (value === undefined && prop.lazy) continue;
    if (prop.kind === ReferenceKind.MANY_TO_ONE || prop.kind === ReferenceKind.ONE_TO_ONE) {
      const target = value && Utils.isEntity(value) ? value : (value as { unwrap?: () => object } | null)?.unwrap?.();
      data[prop.name] = target ? { id: helper(target).getPrimaryKey() } : null;
      continue;
    }
    data[prop.name] = value;
  }
  Object.defineProperty(data, DATA_OF, { value: meta.className });
  return data as Data<E>;
}

export function plainDataList<E extends object>(entities: Iterable<E>): Data<E>[] {
  return [...entities].map((entity) => plainData(entity));
}
