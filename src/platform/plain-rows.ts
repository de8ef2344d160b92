// Plain reads besides the seek lists (seek-page.ts): records by id for GraphQL's dataloaders, one
// record by id or external reference for a GET, with the same row shape as the resource's list.
// Rows come from the query builder with the em's filters (the administration scope), never as
// managed entities; each is marked with its entity (DATA_OF) so GraphQL tells node types apart.
import { ReferenceKind, type EntityMetadata, type EntityName, type FilterQuery, type QueryOrderMap } from '@mikro-orm/core';
import { isUuid } from './ids.ts';
import type { Em } from './orm.ts';
import type { ResourceRef } from './resource-ref.ts';
import { DATA_OF } from './seek-page.ts';

type Row = Record<string, any>;

/** How a resource's rows are read and shaped; a list passes the same to its SeekList. */
export interface RowShape<T> {
  entity: EntityName<any>;
  /** Properties read; default: every stored one that loading the entity reads (lazy ones, e.g. secrets, left out). */
  fields?: string[];
  /** To-one relations joined into the row (e.g. an administration's seller). */
  join?: string[];
  /** Shapes a row (property names; a to-one reference is its key, see `refs`). */
  map: (row: Row) => T;
}

/** Marks plain data with the entity it was read from (as plainData and the seek lists do). */
export function asData<T extends object>(entityName: string, value: T): T {
  Object.defineProperty(value, DATA_OF, { value: entityName, configurable: true });
  return value;
}

/** A row's to-one references (their keys) as `{ id }`, like plainData; null stays null. */
export function refs<R extends Row>(row: R, ...names: string[]): R {
  const result: Row = { ...row };
  for (const name of names) {
    const value = row[name];
    result[name] = value === null || value === undefined ? null : (typeof value === 'object' ? { id: value.id } : { id: value });
  }
  return result as R;
}

/** The properties loading an entity reads: stored scalars and owning to-one references, not lazy ones. */
export function eagerFields(meta: EntityMetadata<any>): string[] {
  return meta.props.filter((prop) => prop.persist !== false && !prop.lazy && (prop.kind === ReferenceKind.SCALAR
    || prop.kind === ReferenceKind.EMBEDDED || prop.kind === ReferenceKind.MANY_TO_ONE || (prop.kind === ReferenceKind.ONE_TO_ONE && prop.owner)))
    .map((prop) => prop.name);
}

export interface ReadOptions {
  orderBy?: QueryOrderMap<any>;
  limit?: number;
}

/** Rows of a shape matching `where` (and the em's filters), shaped and marked. */
export async function readRows<T>(em: Em, shape: RowShape<T>, where: FilterQuery<any>, options: ReadOptions = {}): Promise<T[]> {
  const meta = em.getMetadata(shape.entity);
  const qb = em.createQueryBuilder(shape.entity, 'e').select(shape.fields ?? eagerFields(meta)).where(where);
  for (const relation of shape.join ?? []) qb.leftJoinAndSelect(`e.${relation}`, relation);
  if (options.orderBy) qb.orderBy(options.orderBy);
  if (options.limit !== undefined) qb.limit(options.limit);
  await qb.applyFilters();
  const rows: Row[] = await qb.execute('all', true);
  return rows.map((row) => asData(meta.className, shape.map(row) as object) as T);
}

/**
 * A dataloader batch (schema/load.ts's semantics): one query for all ids, results in the order
 * asked, null for an id the caller does not see. Ids are compared case-insensitively (citext
 * slugs). Typed without the null because Pothos' loader type has none; the plugin answers null for it.
 */
export async function dataByIds<T>(em: Em, shape: RowShape<T>, ids: readonly string[], isId: (id: string) => boolean = isUuid): Promise<T[]> {
  const wanted = [...new Set(ids.filter(isId))];
  const found = wanted.length ? await readRows(em, shape, { id: { $in: wanted } }) : [];
  const byId = new Map(found.map((item) => [String((item as Row).id).toLowerCase(), item]));
  return ids.map((id) => byId.get(id.toLowerCase()) ?? null) as T[];
}

/** The record a ref names among those the caller sees (an id that is no UUID names none), or null. */
export async function dataByRef<T>(em: Em, shape: RowShape<T>, ref: ResourceRef): Promise<T | null> {
  if ('id' in ref && !isUuid(ref.id)) return null;
  const where = 'id' in ref ? { id: ref.id } : { externalReference: ref.externalReference };
  return (await readRows(em, shape, where, { limit: 1 }))[0] ?? null;
}
