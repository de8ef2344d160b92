// A new entity and its `create` event written by one statement, without a flush: for the creates
// that come at request rate (a customer upsert), where a flush costs three round trips (begin with
// the event, the row, commit) and the unit of work's bookkeeping, besides the statement itself.
// The entity is built as every create builds it (em.create without persisting, then its methods);
// its row is what the flush would insert (its onCreate values, MikroORM's conversions of each
// value), and its event the one RecordEvents would add at that flush, with the data rendered from
// the values written (writtenEventData). Committed on its own, or in the em's transaction.
import type { EntityName } from '@mikro-orm/core';
import { boundQuery } from '../platform/bound-sql.ts';
import type { Em } from '../platform/orm.ts';
import { currentActor } from './actor-context.ts';
import { eventKindOf, kindOf } from './event-kinds.ts';
import { writtenEventData } from './event-renderers.ts';
import { adminIdOf } from './record-events.ts';

export interface InsertCreatedOptions {
  /** The property whose unique constraint makes the insert do nothing when another row holds the value. */
  unlessTaken?: string;
  /** The insert happens only when this row exists with exactly this id (an administration the entity belongs to, as stored). */
  requires?: { entity: EntityName<any>; id: string };
}

/**
 * Inserts `entity` (from `em.create(…, { persist: false })`) and its `create` event; false when the
 * row was not inserted (`unlessTaken` held by another row, or `requires` missing), and then neither
 * was its event. Only for entities whose events render from the values written.
 */
export async function insertCreated<T extends object>(em: Em, entity: T, options: InsertCreatedOptions = {}): Promise<boolean> {
  const meta = em.getMetadata((entity as { constructor: EntityName<any> }).constructor);
  const quote = (name: string) => em.getPlatform().quoteIdentifier(name);
  const target = entity as Record<string, unknown>;
  for (const prop of meta.props) {
    if (prop.onCreate && target[prop.name] == null) target[prop.name] = prop.onCreate(entity, em);
  }
  const registered = eventKindOf(meta.className);
  if (!registered) throw new Error(`${meta.className} records no events: insert it with a flush`);
  const kind = kindOf(registered, entity);
  const data = writtenEventData(kind, entity);
  if (data === undefined) throw new Error(`${kind} events are rendered at the commit: insert ${meta.className} with a flush`);

  // What the flush would write: each property's database value under its column, cast to the column's type.
  const written: Record<string, unknown> = em.getComparator().prepareEntity(entity);
  const params: unknown[] = [];
  const columns: string[] = [];
  const values: string[] = [];
  for (const [name, value] of Object.entries(written)) {
    const prop = meta.properties[name];
    if (!prop?.fieldNames || prop.fieldNames.length !== 1 || value === undefined) throw new Error(`${meta.className}.${name} is not one column`);
    params.push(value);
    columns.push(quote(prop.fieldNames[0]));
    // The type without its length or precision: a cast to varchar(40) would cut a longer value, where the insert refuses it.
    values.push(`$${params.length}::${prop.columnTypes[0].replace(/\(.*\)$/, '')}`);
  }
  const param = (value: unknown): string => `$${params.push(value)}`;
  const requires = options.requires
    ? ` where exists (select 1 from ${quote(em.getMetadata(options.requires.entity).tableName)} where id = ${param(options.requires.id)} and id::text = $${params.length}::text)`
    : '';
  const taken = options.unlessTaken ? ` on conflict (${quote(meta.properties[options.unlessTaken].fieldNames[0])}) do nothing` : '';
  const adminId = registered.adminOf ? registered.adminOf(entity) ?? null : adminIdOf(target);
  const resourceId = registered.idOf ? registered.idOf(entity) : String(target.id);
  const sql = `with inserted as (insert into ${quote(meta.tableName)} (${columns.join(', ')}) select ${values.join(', ')}${requires}${taken} returning 1)
    insert into svc_event (kind, resource_id, modification, admin_id, actor, data, occurred_at)
    select ${param(kind)}, ${param(resourceId)}, 'create', ${param(adminId)}, ${param(currentActor())}, ${param(JSON.stringify(data))}::jsonb, now()
    from inserted returning 1`;
  return (await boundQuery(em, sql, params)).length === 1;
}
