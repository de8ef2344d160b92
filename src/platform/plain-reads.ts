// Plain reads outside a seek list (src/platform/seek-page.ts): the rows of a condition, one row,
// and rows by id for GraphQL's dataloaders (schema/load.ts's order and null semantics). Rows come
// from the query builder under the em's filters (the administration scope) unless told otherwise,
// never as managed entities; `rowData` shapes a row (or an entity a caller still holds) as plain
// data: references as `{ id }` (a `mapToPk` reference stays its key), collections left out, marked
// with its entity for GraphQL's node types (isDataOf).
import { ReferenceKind, Utils, type EntityName } from '@mikro-orm/core';
import { isUuid } from './ids.ts';
import type { Em } from './orm.ts';
import type { Data } from './plain-data.ts';
import { DATA_OF } from './seek-page.ts';

export type Row = Record<string, any>;

/** Marks plain data with the entity it was read from (a copy made with `...` loses the mark). */
export function markData<T extends object>(value: T, entityName: string): T {
  if ((value as Record<symbol, unknown>)[DATA_OF] !== entityName) Object.defineProperty(value, DATA_OF, { value: entityName, configurable: true });
  return value;
}

const refId = (value: unknown): unknown => (typeof value === 'object' && value !== null ? (value as { id?: unknown }).id : value);

/**
 * A row of the query builder (references as keys, joined ones as objects) or an entity as plain
 * data: the properties it holds, to-one references as `{ id }` or null, collections left out.
 */
export function rowData<E extends object>(em: Em, entity: EntityName<E>, source: Row | E): Data<E> {
  const meta = em.getMetadata(entity as EntityName<any>);
  const data: Row = {};
  for (const prop of meta.props) {
    if (prop.kind === ReferenceKind.ONE_TO_MANY || prop.kind === ReferenceKind.MANY_TO_MANY) continue;
    const value = (source as Row)[prop.name];
    if (value === undefined) continue;
    if (prop.kind === ReferenceKind.MANY_TO_ONE || prop.kind === ReferenceKind.ONE_TO_ONE) {
      const id = value === null ? null : Utils.isEntity(value) ? (value as Row).id : refId(value);
      data[prop.name] = prop.mapToPk ? (id ?? null) : (id === null || id === undefined ? null : { id });
      continue;
    }
    data[prop.name] = value;
  }
  return markData(data, meta.className) as Data<E>;
}

export interface PlainReadOptions<T> {
  /** To-one relations read along (their row is an object under the relation's name). */
  join?: string[];
  /** Shapes a row; by default `rowData`. */
  map?: (row: Row) => T;
  orderBy?: Record<string, 'asc' | 'desc'>;
  limit?: number;
  /** false: past the em's filters (a token that moved on to another administration stays part of its links). */
  filters?: boolean;
}

/** The rows of `where`, as plain data. */
export async function findData<E extends object, T = Data<E>>(em: Em, entity: EntityName<E>, where: object, options: PlainReadOptions<T> = {}): Promise<T[]> {
  const qb = em.createQueryBuilder(entity as EntityName<any>, 'e').select('*').where(where as never);
  for (const relation of options.join ?? []) qb.leftJoinAndSelect(`e.${relation}`, relation);
  if (options.orderBy) qb.orderBy(options.orderBy);
  if (options.limit !== undefined) qb.limit(options.limit);
  if (options.filters !== false) await qb.applyFilters();
  const rows: Row[] = await qb.execute('all', true);
  const map = options.map ?? ((row: Row) => rowData(em, entity, row) as T);
  return rows.map((row) => map(row));
}

/** The first row of `where` (in `orderBy`, else any), or null. */
export async function findOneData<E extends object, T = Data<E>>(em: Em, entity: EntityName<E>, where: object, options: PlainReadOptions<T> = {}): Promise<T | null> {
  return (await findData(em, entity, where, { ...options, limit: 1 }))[0] ?? null;
}

/**
 * A dataloader batch as plain data (schema/load.ts's semantics): one query for all ids, results in
 * the order asked, null for an id the caller does not see; ids compared case-insensitively.
 * Typed without the null because Pothos' loader type has none; the plugin answers null for it.
 */
export async function dataByIds<E extends object, T extends { id: string } = Data<E> & { id: string }>(
  em: Em, entity: EntityName<E>, ids: readonly string[], options: PlainReadOptions<T> & { isId?: (id: string) => boolean } = {},
): Promise<T[]> {
  const wanted = [...new Set(ids.filter(options.isId ?? isUuid))];
  const found = wanted.length ? await findData(em, entity, { id: { $in: wanted } }, options) : [];
  const byId = new Map(found.map((item) => [item.id.toLowerCase(), item]));
  return ids.map((id) => byId.get(id.toLowerCase()) ?? null) as T[];
}
