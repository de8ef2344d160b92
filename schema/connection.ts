// Relay connections paged by the id index: `first + 1` rows ordered by id after (or before) a
// cursor, never a whole table. A cursor is the REST id of the edge's record (or the REST key of
// a list ordered otherwise, e.g. tokens by evco_id).
import type { EntityName, FilterQuery } from '@mikro-orm/core';
import { parseCursorConnectionArgs, resolveCursorConnection, type ResolveCursorConnectionArgs } from '@pothos/plugin-relay';
import { DomainError, InvalidInputError } from '../src/platform/errors.ts';
import { isUuid } from '../src/platform/ids.ts';
import type { Em } from '../src/platform/orm.ts';

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

/** The property a connection is ordered and paged by, and which cursors can name an item. */
export interface ConnectionKey {
  property: string;
  isCursor: (cursor: string) => boolean;
}

const BY_ID: ConnectionKey = { property: 'id', isCursor: isUuid };

/** Client mistakes become DomainErrors with the argument as param (never a database error). */
export function checkConnectionArgs(args: ConnectionArgs, isCursor: (cursor: string) => boolean = isUuid): void {
  for (const name of ['first', 'last'] as const) {
    const value = args[name];
    if (value !== null && value !== undefined && value < 0) {
      throw new InvalidInputError(`${name} must not be negative`, { path: [name] });
    }
  }
  for (const name of ['after', 'before'] as const) {
    const cursor = args[name];
    if (cursor !== null && cursor !== undefined && !isCursor(cursor)) {
      throw new DomainError('not_found', `${name} does not name an item of this list`, { path: [name] });
    }
  }
}

export function pageRange(args: ConnectionArgs, isCursor?: (cursor: string) => boolean): PageRange {
  checkConnectionArgs(args, isCursor);
  const { after, before, limit, inverted } = parseCursorConnectionArgs({ args, ...SIZES });
  return { after, before, limit, inverted };
}

/** Builds the connection from rows loaded for `pageRange(args)`. */
export function toConnection<E extends { id: string }>(args: ConnectionArgs, rows: E[], property = 'id') {
  return resolveCursorConnection({ args, toCursor: (row: E) => String((row as Record<string, unknown>)[property]), ...SIZES }, async () => rows);
}

/** One page of a list, e.g. all customers the caller sees. */
export async function findConnection<E extends { id: string }>(
  em: Em, entity: EntityName<E>, where: FilterQuery<E>, args: ConnectionArgs, key: ConnectionKey = BY_ID,
) {
  const range = pageRange(args, key.isCursor);
  const bounds: Record<string, string> = {};
  if (range.after) bounds.$gt = range.after;
  if (range.before) bounds.$lt = range.before;
  const rows: E[] = await em.find(entity as EntityName<any>, Object.keys(bounds).length ? { ...(where as object), [key.property]: bounds } : where, {
    orderBy: { [key.property]: range.inverted ? 'desc' : 'asc' },
    limit: range.limit,
  });
  return toConnection(args, rows, key.property);
}
