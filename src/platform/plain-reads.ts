// Plain reads besides the seek lists (seek-page.ts): the rows of a condition, one row, records by id
// for GraphQL's dataloaders and one record by id or external reference for a GET, each with the
// same row shape as the resource's list. Rows come from the query builder under the em's filters
// (the administration scope) unless told otherwise, never as managed entities; each is marked with
// its entity (DATA_OF) so GraphQL tells node types apart (isDataOf).
import { ReferenceKind, Utils, type EntityName, type FilterQuery, type QueryOrderMap } from '@mikro-orm/core';
import { isUuid } from './ids.ts';
import type { Em } from './orm.ts';
import { defaultSelection } from './eager-fields.ts';
import type { Data } from './plain-data.ts';
import type { ResourceRef } from './resource-ref.ts';
import { DATA_OF } from './seek-page.ts';

export type Row = Record<string, any>;

/** How a resource's rows are read and shaped; a list passes the same to its SeekList. */
export interface RowShape<T> {
  entity: EntityName<any>;
  /** Properties read; default: every stored one that loading the entity reads (lazy ones, e.g. secrets, left out). */
  fields?: string[];
  /** To-one relations joined into the row (their row is an object under the relation's name). */
  join?: string[];
  /** Shapes a row (property names; a to-one reference is its key, see `refs`); default `rowData`. */
  map?: (row: Row) => T;
}

export interface ReadOptions {
  orderBy?: QueryOrderMap<any>;
  limit?: number;
  /** false: past the em's filters (a token that moved on to another administration stays part of its links). */
  filters?: boolean;
}

/** Marks plain data with the entity it was read from (a copy made with `...` loses the mark). */
export function markData<T extends object>(value: T, entityName: string): T {
  if ((value as Record<symbol, unknown>)[DATA_OF] !== entityName) Object.defineProperty(value, DATA_OF, { value: entityName, configurable: true });
  return value;
}

/** A to-one reference of a plain row (its key, or the joined row) as `{ id }`; null stays null. */
export function refOf(value: unknown): { id: string } | null {
  if (value === null || value === undefined) return null;
  return { id: String(typeof value === 'object' ? (value as { id: unknown }).id : value) };
}

/** A row with these to-one references as `{ id }` (refOf). */
export function refs<R extends Row>(row: R, ...names: string[]): R {
  const result: Row = { ...row };
  for (const name of names) result[name] = refOf(row[name]);
  return result as R;
}

/**
 * A row of the query builder (references as keys, joined ones as objects) or an entity a caller
 * still holds, as plain data: the properties it holds, to-one references as `{ id }` or null (a
 * `mapToPk` reference stays its key), collections left out, marked with its entity.
 */
export function rowData<E extends object>(em: Em, entity: EntityName<E>, source: Row | E): Data<E> {
  const meta = em.getMetadata(entity as EntityName<any>);
  const data: Row = {};
  for (const prop of meta.props) {
    if (prop.kind === ReferenceKind.ONE_TO_MANY || prop.kind === ReferenceKind.MANY_TO_MANY) continue;
    const value = (source as Row)[prop.name];
    if (value === undefined) continue;
    if (prop.kind === ReferenceKind.MANY_TO_ONE || prop.kind === ReferenceKind.ONE_TO_ONE) {
      const id = value === null ? null : Utils.isEntity(value) ? (value as Row).id : refOf(value)?.id;
      data[prop.name] = prop.mapToPk ? (id ?? null) : (id === null || id === undefined ? null : { id });
      continue;
    }
    data[prop.name] = value;
  }
  return markData(data, meta.className) as Data<E>;
}

/** Rows of a shape matching `where` (and the em's filters), shaped and marked. */
export async function readRows<T>(em: Em, shape: RowShape<T>, where: FilterQuery<any>, options: ReadOptions = {}): Promise<T[]> {
  const meta = em.getMetadata(shape.entity);
  const qb = em.createQueryBuilder(shape.entity, 'e').select(shape.fields ?? defaultSelection(meta)).where(where);
  for (const relation of shape.join ?? []) qb.leftJoinAndSelect(`e.${relation}`, relation);
  if (options.orderBy) qb.orderBy(options.orderBy);
  if (options.limit !== undefined) qb.limit(options.limit);
  if (options.filters !== false) await qb.applyFilters();
  const rows: Row[] = await qb.execute('all', true);
  const map = shape.map ?? ((row: Row) => rowData(em, shape.entity, row) as T);
  return rows.map((row) => markData(map(row) as object, meta.className) as T);
}

/** The first row of `where` (in `orderBy`, else any), or null. */
export async function readRow<T>(em: Em, shape: RowShape<T>, where: FilterQuery<any>, options: ReadOptions = {}): Promise<T | null> {
  return (await readRows(em, shape, where, { ...options, limit: 1 }))[0] ?? null;
}

/**
 * A dataloader batch from one read of the wanted ids: results in the
 * order asked, null for an id the caller does not see (the em is scoped). Ids that cannot exist are
 * not sent to the database (a uuid column rejects them); ids are compared case-insensitively
 * (citext keys). Typed without the null because Pothos' loader type has none; the plugin answers
 * null for it.
 */
export async function inIdOrder<T extends { id: string }>(
  ids: readonly string[], read: (wanted: string[]) => Promise<T[]>, isId: (id: string) => boolean = isUuid,
): Promise<T[]> {
  const wanted = [...new Set(ids.filter(isId))];
  const found = wanted.length ? await read(wanted) : [];
  const byId = new Map(found.map((item) => [item.id.toLowerCase(), item]));
  return ids.map((id) => byId.get(id.toLowerCase()) ?? null) as T[];
}

/** A dataloader batch of a shape's rows: one query for all ids (inIdOrder). */
export function dataByIds<T>(em: Em, shape: RowShape<T>, ids: readonly string[], isId: (id: string) => boolean = isUuid): Promise<T[]> {
  return inIdOrder(ids, (wanted) => readRows(em, shape, { id: { $in: wanted } }) as Promise<(T & { id: string })[]>, isId);
}

/** The record a ref names among those the caller sees (an id that is no UUID names none), or null. */
export async function dataByRef<T>(em: Em, shape: RowShape<T>, ref: ResourceRef): Promise<T | null> {
  if ('id' in ref && !isUuid(ref.id)) return null;
  return readRow(em, shape, 'id' in ref ? { id: ref.id } : { externalReference: ref.externalReference });
}
