// The ORM side of the outbox: every flush that creates, updates or deletes an entity registered in
// event-kinds.ts adds its events to the same flush, so they commit or roll back with the change.
// An update records the fields that changed as `{field: [from, to]}` (timestamps of the row itself
// and bookkeeping excluded, secrets hidden); an update that changes nothing else records nothing.
// Just before a transaction commits, the events it recorded get their `data`, rendered in that
// transaction (event-renderers.ts); a set-based writer (event-sql.ts) records its events with the
// data rendered the same way, after its last change of their resources (renderEventData).
import { ChangeSetType, type ChangeSet, type EventSubscriber, type FlushEventArgs, type Transaction, type TransactionEventArgs } from '@mikro-orm/core';
import { ADMIN_SCOPE, UNSCOPED } from '../access/admin-scope.ts';
import { boundQuery } from '../platform/bound-sql.ts';
import type { Em } from '../platform/orm.ts';
import { currentActor } from './actor-context.ts';
import { eventKindOf, kindOf } from './event-kinds.ts';
import { renderEvents, writtenEventData, type PendingEvent } from './event-renderers.ts';
import { Event, type ModificationKind } from './event.entity.ts';

const IGNORED = new Set(['updatedAt', 'createdAt']);
const HIDDEN = '(hidden)';
const MODIFICATION: Partial<Record<ChangeSetType, ModificationKind>> = {
  [ChangeSetType.CREATE]: 'create', [ChangeSetType.UPDATE]: 'update', [ChangeSetType.DELETE]: 'delete', [ChangeSetType.DELETE_EARLY]: 'delete',
};

const plain = (value: unknown): unknown => {
  if (value instanceof Date) return value.toISOString();
  if (value && typeof value === 'object' && 'id' in (value as object) && !Array.isArray(value)) return (value as { id: unknown }).id;
  return value ?? null;
};

function changesOf(cs: ChangeSet<any>, ignore: string[] = [], secret: string[] = []): Record<string, [unknown, unknown]> | null {
  const changes: Record<string, [unknown, unknown]> = {};
  for (const field of Object.keys(cs.payload ?? {})) {
    if (IGNORED.has(field) || ignore.includes(field)) continue;
    const original = (cs.originalEntity as Record<string, unknown> | undefined)?.[field];
    if (secret.includes(field)) {
      // A lazy secret loaded after the row counts as a change of nothing; a new one is recorded without its value.
      if (original !== undefined && original !== (cs.entity as Record<string, unknown>)[field]) changes.secret = [HIDDEN, HIDDEN];
      continue;
    }
    changes[field] = [plain(original), plain((cs.entity as Record<string, unknown>)[field])];
  }
  return Object.keys(changes).length ? changes : null;
}

/** The administration an event about `entity` belongs to (its `admin`, or an `adminId` it holds). */
export const adminIdOf = (entity: Record<string, any>): string | null => {
  const admin = entity.admin;
  if (admin && typeof admin === 'object') return String(admin.id);
  return typeof entity.adminId === 'string' ? entity.adminId : null;
};

/**
 * How many times this process wrote events: a transaction that saw no write of events since it
 * began has nothing to render (no query at its commit). Set-based writers count themselves.
 */
let eventWrites = 0;
const writesAtStart = new WeakMap<object, number>();
/** Units of work that flushed events outside a transaction: the flush's own transaction renders them. */
const flushedOutside = new WeakSet<object>();
/** Units of work whose flush outside a transaction gave every event its data (writtenEventData)... */
const renderedAtFlush = new WeakSet<object>();
/** ...and the transactions those flushes opened: nothing to render at their commit. */
const renderedTransactions = new WeakSet<object>();

/** Units of work flushing their transaction's last change (flushAsLastChange). */
const lastChange = new WeakSet<object>();

/**
 * Flushes `em`, in a transaction, as the last change that transaction makes: its events get their
 * data now, from the values written, as a flush outside a transaction does, and the commit has
 * nothing to render for them (three statements fewer). The caller holds the rows it changes locked.
 */
export async function flushAsLastChange(em: Em): Promise<void> {
  lastChange.add(em);
  try {
    await em.flush();
  } finally {
    lastChange.delete(em);
  }
}

export function noteEventsWritten(): void {
  eventWrites++;
}

/**
 * Events rendered and stored per statement: a transaction that recorded many (a backfill's boxes,
 * a batch of sessions) is rendered in chunks, so that its data is never held all at once.
 */
export const RENDER_CHUNK = 500;

// Ordered by the bigint id (not the text alias): each chunk starts after the last one's id.
const PENDING = `select e.id::text as id, e.kind, e.resource_id, e.modification from svc_event e
  where e.tx_id = txid_current() and e.data is null and e.id > $1::bigint order by e.id limit ${RENDER_CHUNK}`;
const STORE = `update svc_event e set data = x.data from jsonb_to_recordset($1::jsonb) as x(id bigint, data jsonb) where e.id = x.id`;

/** A unit of work of its own inside the transaction of `em`, seeing every administration: where event data is rendered. */
function renderingEm(em: Em, transaction: Transaction): Em {
  const tx = em.fork({ clear: true });
  tx.setTransactionContext(transaction);
  tx.setFilterParams(ADMIN_SCOPE, UNSCOPED as unknown as Record<string, unknown>);
  return tx;
}

/**
 * The data of events a set-based writer is about to record (event-sql.ts), in their order,
 * rendered now in the transaction of `em`, as its commit would render them.
 */
export async function renderEventData(em: Em, events: Omit<PendingEvent, 'id'>[]): Promise<unknown[]> {
  const transaction = em.getTransactionContext();
  if (!transaction) throw new Error('events are recorded in the transaction of their change');
  const data = await renderEvents(renderingEm(em, transaction), events.map((event, i) => ({ ...event, id: String(i) })));
  return events.map((_, i) => data.get(String(i)));
}

/**
 * Renders and stores the data of the events the current transaction recorded (run just before it
 * commits), RENDER_CHUNK events at a time in id order, each chunk's renderer calls by kind.
 */
export async function renderPendingEvents(em: Em): Promise<void> {
  for (let after = '0'; ;) {
    const pending = await boundQuery<PendingEvent>(em, PENDING, [after]);
    if (!pending.length) return;
    const data = await renderEvents(em, pending);
    await boundQuery(em, STORE, [JSON.stringify(pending.map((e) => ({ id: e.id, data: data.get(e.id) })))]);
    if (pending.length < RENDER_CHUNK) return;
    after = pending[pending.length - 1].id;
    // What the chunk's renderers loaded into this unit of work is not needed by the next chunk.
    em.clear();
  }
}

export class RecordEvents implements EventSubscriber {
  onFlush({ em, uow }: FlushEventArgs): void {
    // A flush outside a transaction runs in one of its own that holds nothing but this flush: what
    // it writes is what the rows are at the commit, so the kinds whose data is their entity's
    // values (writtenEventData) are rendered now and inserted with their data.
    const outside = !em.isInTransaction();
    const renderNow = outside || lastChange.has(em);
    renderedAtFlush.delete(em);
    const events: Event[] = [];
    let unrendered = 0;
    for (const cs of uow.getChangeSets()) {
      const registered = eventKindOf(cs.meta.className);
      const modification = MODIFICATION[cs.type];
      if (!registered || !modification) continue;
      const changes = modification === 'update' ? changesOf(cs, registered.ignore, registered.secret) : null;
      if (modification === 'update' && !changes) continue;
      const entity = cs.entity as Record<string, any>;
      const kind = kindOf(registered, entity);
      const data = renderNow && modification !== 'delete' ? writtenEventData(kind, entity) : undefined;
      if (data === undefined) unrendered++;
      events.push(em.create(Event, {
        kind,
        resourceId: registered.idOf ? registered.idOf(entity) : String(entity.id),
        modification,
        adminId: registered.adminOf ? registered.adminOf(entity) ?? null : adminIdOf(entity),
        actor: currentActor(),
        changes,
        ...(data === undefined ? {} : { data }),
      }));
    }
    for (const event of events) uow.computeChangeSet(event);
    if (!events.length) return;
    if (!unrendered) {
      // Every event has its data: the flush's own transaction (or the transaction whose last change
      // this is) has nothing to render for them at its commit.
      if (outside) renderedAtFlush.add(em);
      return;
    }
    noteEventsWritten();
    // The flush opens its transaction after this: its start cannot see this write.
    if (outside) flushedOutside.add(em);
  }

  afterTransactionStart({ em, transaction }: TransactionEventArgs): void {
    if (!transaction || transaction.savepointName) return;
    writesAtStart.set(transaction, eventWrites);
    // The transaction a flush outside a transaction opened for itself, right after its onFlush.
    if (renderedAtFlush.delete(em as object)) renderedTransactions.add(transaction);
  }

  async beforeTransactionCommit({ em, transaction }: TransactionEventArgs): Promise<void> {
    // A savepoint's release is not the commit: its events are rendered with the outer transaction's.
    if (!transaction || transaction.savepointName) return;
    // A flush's own transaction whose every event got its data at the flush.
    if (renderedTransactions.delete(transaction)) return;
    const start = writesAtStart.get(transaction);
    if (!flushedOutside.delete(em) && start !== undefined && start === eventWrites) return;
    // A unit of work of its own inside the committing transaction, seeing every administration.
    await renderPendingEvents(renderingEm(em as Em, transaction));
  }
}
