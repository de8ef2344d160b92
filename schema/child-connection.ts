// The connections of many parents in one query, e.g. the billing addresses of 50 customers:
// a LATERAL subquery per parent id, each paged by the id index like a root connection.
import type { EntityDictionary, EntityName } from '@mikro-orm/core';
import { ADMIN_SCOPE, type AdminScope } from '../src/access/admin-scope.ts';
import type { Em } from '../src/platform/orm.ts';
import { pageRange, toConnection, type ConnectionArgs } from './connection.ts';

/**
 * The administration filter of `entity` as SQL conditions on `alias`, since the ORM applies no
 * filter to raw SQL; null when the caller sees no administration at all.
 */
function scopeConditions(em: Em, entity: EntityName<any>, alias: string): { sql: string[]; params: unknown[] } | null {
  const meta = em.getMetadata(entity);
  const filter = meta.filters[ADMIN_SCOPE];
  if (!filter) return { sql: [], params: [] };
  const scope = em.getFilterParams(ADMIN_SCOPE) as AdminScope | undefined;
  const cond = (filter.cond as (args: unknown) => Record<string, { $in: string[] }>)(scope ?? { all: false, ids: [] });
  const sql: string[] = [];
  const params: unknown[] = [];
  for (const [property, { $in: ids }] of Object.entries(cond)) {
    if (ids.length === 0) return null;
    sql.push(`${alias}.${em.getPlatform().quoteIdentifier(meta.properties[property].fieldNames[0])} in (?)`);
    params.push(ids);
  }
  return { sql, params };
}

export async function childConnections<E extends { id: string }>(
  em: Em, entity: EntityName<E>, parentProperty: string, parentIds: readonly string[], args: ConnectionArgs,
) {
  const range = pageRange(args);
  const meta = em.getMetadata(entity as EntityName<any>);
  const quote = (name: string) => em.getPlatform().quoteIdentifier(name);
  const parent = meta.properties[parentProperty];
  const parentColumn = parent.fieldNames[0];
  const id = quote(meta.properties.id.fieldNames[0]);
  const scope = scopeConditions(em, entity as EntityName<any>, 't');
  let rows: E[] = [];
  if (scope) {
    const where = [`t.${quote(parentColumn)} = p.key`, ...scope.sql];
    const params: unknown[] = [[...new Set(parentIds)], ...scope.params];
    if (range.after) { where.push(`t.${id} > ?`); params.push(range.after); }
    if (range.before) { where.push(`t.${id} < ?`); params.push(range.before); }
    params.push(range.limit);
    const direction = range.inverted ? 'desc' : 'asc';
    const sql = `select page.* from unnest(array[?]::${parent.columnTypes[0]}[]) as p(key)
      cross join lateral (select t.* from ${quote(meta.tableName)} as t where ${where.join(' and ')}
        order by t.${id} ${direction} limit ?) as page
      order by page.${id} ${direction}`;
    const raw = await em.execute<EntityDictionary<E>[]>(sql, params);
    rows = raw.map((row) => em.map(entity, row));
  }
  const byParent = new Map<string, E[]>();
  for (const row of rows) {
    const key = String((row as Record<string, any>)[parentProperty].id).toLowerCase();
    const list = byParent.get(key);
    if (list) list.push(row);
    else byParent.set(key, [row]);
  }
  return Promise.all(parentIds.map((parentId) => toConnection(args, byParent.get(parentId.toLowerCase()) ?? [])));
}
