// What a delivery's `data` is: the resource as its GET answers it, rendered when the delivery is
// made. The REST layer registers one renderer per kind (rest/events/event-renderers.ts); a kind
// without one, and every delete, carries what identifies the resource.
import type { Em } from '../platform/orm.ts';

export type EventRenderer = (em: Em, resourceId: string) => Promise<unknown | null>;

const renderers = new Map<string, EventRenderer>();

export function registerEventRenderer(kind: string, renderer: EventRenderer): void {
  renderers.set(kind, renderer);
}

export async function renderEventData(em: Em, kind: string, resourceId: string, modification: string): Promise<unknown> {
  const renderer = modification === 'delete' ? undefined : renderers.get(kind);
  if (!renderer) return { id: resourceId };
  try {
    return (await renderer(em, resourceId)) ?? { id: resourceId };
  } catch {
    // Gone since (deleted later) or not readable: what identifies it.
    return { id: resourceId };
  }
}
