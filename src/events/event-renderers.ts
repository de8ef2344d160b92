// What an event's `data` is: the resource as its GET answers it, rendered in the transaction of
// the change just before it commits (record-events.ts) and stored with the event, so a delivery
// never re-reads the current state (decisions.md "Events"). The REST layer registers one renderer
// per kind (rest/events/event-renderers.ts) in every process that changes data (the composition
// roots call registerEventRenderers). A renderer takes the ids of one transaction's events of its
// kind at once: set-based writers (sessions, billing boxes) record many and are rendered in one
// query per chunk of at most RENDER_CHUNK (500) events (record-events.ts). A kind without a renderer, every delete, and a resource no longer readable
// carry what identifies it. For the kinds whose set-based writers hold the rows they changed (as
// PostgreSQL answered them), the REST layer also registers the serializer its renderer applies to
// the read data (serializeEventData): such a writer renders from those rows, without reading again.
import type { Em } from '../platform/orm.ts';
import { plainData } from '../platform/plain-data.ts';
import type { EventKindName } from './event-kinds.ts';

/** The data of each id (by id); an id missing from the answer carries `{id}`. */
export type EventRenderer = (em: Em, resourceIds: string[]) => Promise<Map<string, unknown>>;

const renderers = new Map<string, EventRenderer>();
let registered = false;

/** A resource's data from its read data (what its reads answer: the GET's serializer); undefined: what identifies it. */
export type EventSerializer = (data: any) => unknown;

const serializers = new Map<string, EventSerializer>();

/**
 * Kinds whose data is the GET's serializer applied to the entity's own values (plainData), for
 * a flush that is the whole of its transaction (record-events.ts): an entity whose GET answers its
 * columns and nothing else, each as the flush writes it (no value the database computes).
 */
const fromWritten = new Map<string, EventSerializer>();

/** Renders one at a time: for kinds whose changes come one per transaction (the ORM's writes). */
export function oneByOne(render: (em: Em, resourceId: string) => Promise<unknown>): EventRenderer {
  return async (em, ids) => {
    const data = new Map<string, unknown>();
    for (const id of ids) {
      try {
        const rendered = await render(em, id);
        if (rendered !== null && rendered !== undefined) data.set(id, rendered);
      } catch {
        // Not readable (gone within the same transaction): what identifies it.
      }
    }
    return data;
  };
}

/** The kinds with a renderer (the others carry what identifies them). */
export function renderedKinds(): string[] {
  return [...renderers.keys()].sort();
}

export function registerEventRenderers(
  entries: Partial<Record<EventKindName, EventRenderer>>,
  serializing: Partial<Record<EventKindName, EventSerializer>> = {},
  written: Partial<Record<EventKindName, EventSerializer>> = {},
): void {
  for (const [kind, renderer] of Object.entries(entries)) renderers.set(kind, renderer!);
  for (const [kind, serializer] of Object.entries(serializing)) serializers.set(kind, serializer!);
  for (const [kind, serializer] of Object.entries(written)) fromWritten.set(kind, serializer!);
  registered = true;
}

/**
 * The data of an event about `entity` from the values a flush writes (its plain data through the
 * GET's serializer), or undefined when its kind is rendered by reading (at the commit).
 */
export function writtenEventData(kind: string, entity: object): unknown {
  const serialize = fromWritten.get(kind);
  return serialize ? serialize(plainData(entity)) ?? undefined : undefined;
}

/**
 * The data of events of `kind` about resources a writer holds as their reads answer them (in the
 * writer's transaction, after its last change of them), in their order: what the renderer of the
 * kind would read and answer.
 */
export function serializeEventData(kind: EventKindName, resources: readonly { id: string }[]): unknown[] {
  if (!registered) throw new Error('events are recorded in a process without event renderers (registerEventRenderers)');
  const serialize = serializers.get(kind);
  if (!serialize) throw new Error(`no serializer is registered for ${kind} events`);
  return resources.map((resource) => serialize(resource) ?? { id: resource.id });
}

export interface PendingEvent { id: string; kind: string; resource_id: string; modification: string }

/** The data of each event (by event id), one renderer call per kind. */
export async function renderEvents(em: Em, events: PendingEvent[]): Promise<Map<string, unknown>> {
  if (!registered) throw new Error('events are recorded in a process without event renderers (registerEventRenderers)');
  const byKind = new Map<string, PendingEvent[]>();
  for (const event of events) {
    const list = byKind.get(event.kind) ?? [];
    list.push(event);
    byKind.set(event.kind, list);
  }
  const data = new Map<string, unknown>();
  for (const [kind, list] of byKind) {
    const renderer = renderers.get(kind);
    const live = list.filter((e) => e.modification !== 'delete');
    const rendered = renderer && live.length ? await renderer(em, [...new Set(live.map((e) => e.resource_id))]) : new Map<string, unknown>();
    for (const event of list) {
      data.set(event.id, (event.modification !== 'delete' && rendered.get(event.resource_id)) || { id: event.resource_id });
    }
  }
  return data;
}
