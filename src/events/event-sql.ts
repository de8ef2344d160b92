// Events of the set-based writers (session ingestion and processing, the billing core), which
// change rows without the ORM: one INSERT per batch, in the writer's transaction or statement.
// recordEventRows renders their data as the commit would (record-events.ts renderEventData: one
// renderer call per kind for the whole batch) and inserts the events with it, so the writer
// records them after its last change of their resources in the transaction (an event row written
// once, not inserted and then updated with its data at the commit). The billing core's box events
// are inserted by its statements and rendered at the commit; it says so (noteEventsWritten).
import { boundQuery } from '../platform/bound-sql.ts';
import type { Em } from '../platform/orm.ts';
import { currentActor } from './actor-context.ts';
import type { EventKindName } from './event-kinds.ts';
import type { ModificationKind } from './event.entity.ts';
import { noteEventsWritten, RENDER_CHUNK, renderEventData } from './record-events.ts';

export { noteEventsWritten };

export interface EventRow {
  kind: EventKindName;
  resource_id: string;
  modification: ModificationKind;
  admin_id: string | null;
  changes?: Record<string, [unknown, unknown]> | null;
  /** Its data when the writer rendered it from the rows it holds (serializeEventData); else rendered here. */
  data?: unknown;
}

const INSERT = `insert into svc_event (kind, resource_id, modification, admin_id, actor, changes, data, occurred_at)
  select kind, resource_id, modification, admin_id, $1, changes, data, now()
  from jsonb_to_recordset($2::jsonb) as x(kind text, resource_id text, modification text, admin_id text, changes jsonb, data jsonb)`;

/**
 * Records events in the transaction of `em` with their data: the caller has made its last change of
 * their resources in this transaction. Rows without data are rendered now, as the commit would, and
 * like it RENDER_CHUNK at a time (a chunk's data is not held with the next's).
 */
export async function recordEventRows(em: Em, rows: EventRow[]): Promise<void> {
  if (!rows.length) return;
  if (!em.isInTransaction()) throw new Error('events are recorded in the transaction of their change');
  const chunk = rows.some((row) => row.data === undefined) ? RENDER_CHUNK : rows.length;
  for (let start = 0; start < rows.length; start += chunk) {
    const part = rows.slice(start, start + chunk);
    const unrendered = part.filter((row) => row.data === undefined);
    const rendered = unrendered.length ? await renderEventData(em, unrendered) : [];
    let next = 0;
    const withData = part.map((row) => (row.data === undefined ? { ...row, data: rendered[next++] } : row));
    await boundQuery(em, INSERT, [currentActor(), JSON.stringify(withData)]);
  }
}

/** The kind of a session row's events: its own resource (REST /msp-charge-session or /cpo-charge-session). */
export const sessionEventKind = (source: string): EventKindName => (source === 'cpo_charge_session' ? 'cpo_charge_session' : 'msp_charge_session');

/**
 * The `create` events of the boxes a statement's `created` CTE inserted (the billing core, always
 * in a transaction); the actor is its last parameter. The caller notes the write (noteEventsWritten).
 */
export const BOX_CREATED_EVENTS = `insert into svc_event (kind, resource_id, modification, admin_id, actor, occurred_at)
  select 'billing_box', id::text, 'create', admin_id, ?, now() from created order by id`;
