// The ORM side of the outbox: every flush that creates, updates or deletes an entity registered in
// event-kinds.ts adds its events to the same flush, so they commit or roll back with the change.
// An update records the fields that changed as `{field: [from, to]}` (timestamps of the row itself
// excluded); an update that changes nothing else records nothing.
import { ChangeSetType, type ChangeSet, type EventSubscriber, type FlushEventArgs } from '@mikro-orm/core';
import { currentActor } from './actor-context.ts';
import { eventKindOf } from './event-kinds.ts';
import { Event, type ModificationKind } from './event.entity.ts';

const IGNORED = new Set(['updatedAt', 'createdAt']);
const MODIFICATION: Partial<Record<ChangeSetType, ModificationKind>> = {
  [ChangeSetType.CREATE]: 'create', [ChangeSetType.UPDATE]: 'update', [ChangeSetType.DELETE]: 'delete', [ChangeSetType.DELETE_EARLY]: 'delete',
};

const plain = (value: unknown): unknown => {
  if (value instanceof Date) return value.toISOString();
  if (value && typeof value === 'object' && 'id' in (value as object) && !Array.isArray(value)) return (value as { id: unknown }).id;
  return value ?? null;
};

function changesOf(cs: ChangeSet<any>, ignore: string[] = []): Record<string, [unknown, unknown]> | null {
  const changes: Record<string, [unknown, unknown]> = {};
  for (const field of Object.keys(cs.payload ?? {})) {
    if (IGNORED.has(field) || ignore.includes(field)) continue;
    const original = (cs.originalEntity as Record<string, unknown> | undefined)?.[field];
    changes[field] = [plain(original), plain((cs.entity as Record<string, unknown>)[field])];
  }
  return Object.keys(changes).length ? changes : null;
}

const adminIdOf = (entity: Record<string, any>): string | null => {
  const admin = entity.admin;
  if (admin && typeof admin === 'object') return String(admin.id);
  return typeof entity.adminId === 'string' ? entity.adminId : null;
};

export class RecordEvents implements EventSubscriber {
  onFlush({ em, uow }: FlushEventArgs): void {
    const events: Event[] = [];
    for (const cs of uow.getChangeSets()) {
      const registered = eventKindOf(cs.meta.className);
      const modification = MODIFICATION[cs.type];
      if (!registered || !modification) continue;
      const changes = modification === 'update' ? changesOf(cs, registered.ignore) : null;
      if (modification === 'update' && !changes) continue;
      const entity = cs.entity as Record<string, any>;
      events.push(em.create(Event, {
        kind: typeof registered.kind === 'string' ? registered.kind : registered.kind(entity),
        resourceId: registered.idOf ? registered.idOf(entity) : String(entity.id),
        modification,
        adminId: registered.adminOf ? registered.adminOf(entity) ?? null : adminIdOf(entity),
        actor: currentActor(),
        changes,
      }));
    }
    for (const event of events) uow.computeChangeSet(event);
  }
}
