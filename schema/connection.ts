// Relay connections paged by the id index: `first + 1` rows ordered by id after (or before) a
// cursor, never a whole table. A cursor is the REST id of the edge's record (or the REST key of
// a list ordered otherwise, e.g. tokens by evco_id).
import { parseCursorConnectionArgs, resolveCursorConnection, type ResolveCursorConnectionArgs } from '@pothos/plugin-relay';
import { DomainError, InvalidInputError } from '../src/platform/errors.ts';
import { isUuid } from '../src/platform/ids.ts';
import { SeekList } from '../src/platform/seek-page.ts';

export const DEFAULT_PAGE_SIZE = 50;
/** A larger first/last is refused before execution (schema/limits.ts). */
export const MAX_PAGE_SIZE = 100;

export interface ConnectionArgs {
  first?: number | null;
  last?: number | null;
  after?: string | null;
  before?: string | null;
}

export type PageRange = ResolveCursorConnectionArgs;

const SIZES = { defaultSize: DEFAULT_PAGE_SIZE, maxSize: MAX_PAGE_SIZE };

/** Client mistakes become DomainErrors with the argument as param (never a database error). */
export function checkConnectionArgs(args: ConnectionArgs, isCursor: (cursor: string) => boolean = isUuid): void {
  for (const name of ['first', 'last'] as const) {
    const value = args[name];
    if (value !== null && value !== undefined && value < 0) {
      throw new InvalidInputError(`${name} must not be negative`, { path: [name] });
    }
  }
  // Relay's paging takes one direction at a time: with both, Pothos pages by `first` and drops `last`.
  if (args.first !== null && args.first !== undefined && args.last !== null && args.last !== undefined) {
    throw new InvalidInputError('first and last must not be given together', { path: ['last'] });
  }
  for (const name of ['after', 'before'] as const) {
    const cursor = args[name];
    if (cursor !== null && cursor !== undefined && !isCursor(cursor)) throw cursorNotFound(name);
  }
}

const cursorNotFound = (name: 'after' | 'before') => new DomainError('not_found', `${name} does not name an item of this list`, { path: [name] });

export function pageRange(args: ConnectionArgs, isCursor?: (cursor: string) => boolean): PageRange {
  checkConnectionArgs(args, isCursor);
  const { after, before, limit, inverted } = parseCursorConnectionArgs({ args, ...SIZES });
  return { after, before, limit, inverted };
}

/** Builds the connection from rows loaded for `pageRange(args)`. */
export function toConnection<E extends { id: string }>(args: ConnectionArgs, rows: E[], property = 'id') {
  return resolveCursorConnection({ args, toCursor: (row: E) => String((row as Record<string, unknown>)[property]), ...SIZES }, async () => rows);
}

/**
 * One page of a list from a queries module (src/platform/seek-page.ts); cursors are the REST keys.
 * `after` and `before` must name an item the caller sees, as REST's `after` (decisions.md
 * "Pagination": the list's filters do not apply to that check). `Node` is the schema type's shape:
 * the plain items carry the fields it reads, and its isTypeOf accepts them (isDataOf).
 */
export async function listConnection<Node extends object>(list: SeekList<object>, args: ConnectionArgs) {
  const range = pageRange(args, (cursor) => list.isKey(cursor));
  for (const name of ['after', 'before'] as const) {
    const cursor = args[name];
    if (cursor !== null && cursor !== undefined && !(await list.has(cursor))) throw cursorNotFound(name);
  }
  return toConnection(args, await list.page(range) as (Node & { id: string })[], list.key);
}
