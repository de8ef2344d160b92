// Small helpers of the plain reads (src/platform/plain-data.ts, docs/architecture.md "Reads"): a
// to-one reference of a plain row as `{ id }` (what plainData() makes of it), the mark of data a
// set-based read made (GraphQL's isDataOf), and the dataloader batch of a queries module (`xByIds`):
// the plain-data sibling of schema/load.ts's loadByIds.
import { isUuid } from './ids.ts';
import { DATA_OF } from './seek-page.ts';

/** Marks plain data read without the engine (a set-based read) as read from `entityName`, as SeekList and plainData() do. */
export function markedAs<T extends object>(data: T, entityName: string): T {
  Object.defineProperty(data, DATA_OF, { value: entityName });
  return data;
}

/** A to-one reference of a plain row (its key, or the joined row) as `{ id }`; null stays null. */
export function refOf(value: unknown): { id: string } | null {
  if (value === null || value === undefined) return null;
  return { id: String(typeof value === 'object' ? (value as { id: unknown }).id : value) };
}

/**
 * A dataloader batch: one read (`read`) for all ids, results in the order asked, null for an id the
 * caller does not see (the em is scoped). Ids that cannot exist are not sent to the database (a
 * uuid column rejects them); ids are compared case-insensitively (citext keys).
 */
export async function dataByIds<T extends { id: string }>(
  ids: readonly string[], read: (wanted: string[]) => Promise<T[]>, isId: (id: string) => boolean = isUuid,
): Promise<(T | null)[]> {
  const wanted = [...new Set(ids.filter(isId))];
  const found = wanted.length ? await read(wanted) : [];
  const byId = new Map(found.map((item) => [item.id.toLowerCase(), item]));
  return ids.map((id) => byId.get(id.toLowerCase()) ?? null);
}
