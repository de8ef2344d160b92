// The pages of many parents' children in one query (GraphQL's child connections, e.g. the billing
// addresses of 50 customers): a LATERAL subquery per parent id, each paged by the id index like a
// root list. The subquery comes from the query builder with the em's filters applied
// (`applyFilters`: the administration filter of access/admin-scope.ts), so the scope rule has one
// home and raw SQL repeats none of it.
import { raw, type EntityName } from '@mikro-orm/core';
import type { Em } from './orm.ts';
import { eagerFields } from './eager-fields.ts';
import { markData, rowData, type RowShape } from './plain-reads.ts';
import type { SeekRange } from './seek-page.ts';

type Row = Record<string, any>;

/** A resource's rows (no joins) as children of a parent. */
export interface ChildShape<T> extends Omit<RowShape<T>, 'join'> {
  /** The to-one property naming the parent. */
  parent: string;
}

/**
 * Each parent's page of children as raw rows (column names), in the order of `parentIds`: at most
 * `range.limit` rows after/before the bounds, ordered by id. One query for all parents.
 */
export async function childRows(
  em: Em, entity: EntityName<any>, parent: string, parentIds: readonly string[], range: SeekRange, fields?: string[],
): Promise<Row[][]> {
  const meta = em.getMetadata(entity);
  const quote = (name: string) => em.getPlatform().quoteIdentifier(name);
  const parentProp = meta.properties[parent];
  const parentColumn = parentProp.fieldNames[0];
  const idColumn = meta.properties.id.fieldNames[0];
  const direction = range.inverted ? 'desc' : 'asc';
  const keys = [...new Set(parentIds)];
  let rows: Row[] = [];
  if (keys.length) {
    const bounds: Record<string, string> = {};
    if (range.after) bounds.$gt = range.after;
    if (range.before) bounds.$lt = range.before;
    const page = em.createQueryBuilder(entity, 't').select(fields ?? eagerFields(meta))
      .where({ [raw((alias: string) => `${alias}.${quote(parentColumn)} = p.key`)]: [], ...(Object.keys(bounds).length ? { id: bounds } : {}) })
      .orderBy({ id: direction }).limit(range.limit);
    await page.applyFilters();
    const inner = page.toQuery();
    const sql = `select page.* from unnest(array[?]::${parentProp.columnTypes[0]}[]) as p(key)
      cross join lateral (${inner.sql}) as page order by page.${quote(idColumn)} ${direction}`;
    rows = await em.execute<Row[]>(sql, [keys, ...inner.params]);
  }
  const byParent = new Map<string, Row[]>();
  for (const row of rows) {
    const key = String(row[parentColumn]).toLowerCase();
    const list = byParent.get(key);
    if (list) list.push(row);
    else byParent.set(key, [row]);
  }
  return parentIds.map((parentId) => byParent.get(parentId.toLowerCase()) ?? []);
}

/** Each parent's page of children as plain data (shaped like the resource's list), in the order of `parentIds`. */
export async function childPages<T>(em: Em, shape: ChildShape<T>, parentIds: readonly string[], range: SeekRange): Promise<T[][]> {
  const meta = em.getMetadata(shape.entity);
  const driver = em.getDriver();
  const pages = await childRows(em, shape.entity, shape.parent, parentIds, range, shape.fields);
  return pages.map((rows) => rows.map((row) => markData((shape.map ?? ((data: Row) => rowData(em, shape.entity, data)))(driver.mapResult(row, meta) as Row) as object, meta.className) as T));
}
