// Relay connections paged by the id index: `first + 1` rows ordered by id after (or before) a
// cursor, never a whole table. A cursor is the REST id of the edge's record.
import type { EntityName, FilterQuery } from '@mikro-orm/core';
import { parseCursorConnectionArgs, resolveCursorConnection, type ResolveCursorConnectionArgs } from '@pothos/plugin-relay';
import { DomainError, InvalidInputError } from '../src/platform/errors.ts';
import { isUuid } from '../src/platform/ids.ts';
import type { Em } from '../src/platform/orm.ts';

export const DEFAULT_PAGE_SIZE = 50;
export const MAX_PAGE_SIZE = 1000;

export interface ConnectionArgs {
  first?: number | null;
  last?: number | null;
  after?: string | null;
  before?: string | null;
}

export type PageRange = ResolveCursorConnectionArgs;

const SIZES = { defaultSize: DEFAULT_PAGE_SIZE, maxSize: MAX_PAGE_SIZE };

/** Client mistakes become DomainErrors with the argument as param (never a database error). */
export function checkConnectionArgs(args: ConnectionArgs): void {
  for (const name of ['first', 'last'] as const) {
    const value = args[name];
    if (value !== null && value !== undefined && value < 0) {
      throw new InvalidInputError(`${name} must not be negative`, { param: `$.${name}` });
    }
  }
  for (const name of ['after', 'before'] as const) {
    const cursor = args[name];
    if (cursor !== null && cursor !== undefined && !isUuid(cursor)) {
      throw new DomainError('not_found', `${name} does not name an item of this list`, { param: `$.${name}` });
    }
  }
}

export function pageRange(args: ConnectionArgs): PageRange {
  checkConnectionArgs(args);
  const { after, before, limit, inverted } = parseCursorConnectionArgs({ args, ...SIZES });
  return { after, before, limit, inverted };
}

/** Builds the connection from rows loaded for `pageRange(args)`. */
export function toConnection<E extends { id: string }>(args: ConnectionArgs, rows: E[]) {
  return resolveCursorConnection({ args, toCursor: (row: E) => row.id, ...SIZES }, async () => rows);
}

/** One page of a list, e.g. all customers the caller sees. */
export async function findConnection<E extends { id: string }>(em: Em, entity: EntityName<E>, where: FilterQuery<E>, args: ConnectionArgs) {
  const range = pageRange(args);
  const id: Record<string, string> = {};
  if (range.after) id.$gt = range.after;
  if (range.before) id.$lt = range.before;
  const rows: E[] = await em.find(entity as EntityName<any>, Object.keys(id).length ? { ...(where as object), id } : where, {
    orderBy: { id: range.inverted ? 'desc' : 'asc' },
    limit: range.limit,
  });
  return toConnection(args, rows);
}
