// Our tokens as the OCPI tokens module publishes them: every token of the instance that can be an
// OCPI Token (token-of.ts: a uid of at most 36 characters), ordered by
// last change then id, paged by offset and limit, optionally in [date_from, date_to) of last change.
// The last change is the token's updated_at, which also moves when the blocked customer it is linked
// to changes (Token.updatedAt): the (updated_at, id) index reads the window and the order.
import { raw, type FilterQuery } from '@mikro-orm/core';
import type { Em } from '../platform/orm.ts';
import { Token } from '../msp/token.entity.ts';
import { ocpiTokenSql, ocpiTokensOf } from './token-of.ts';
import type { OcpiToken } from './schemas/token.ts';

/** A token's place in the list: its last change and id (a next page starts after it). */
export interface OcpiPosition { lastUpdated: Date; id: string }

export interface OcpiPageQuery {
  offset: number;
  limit: number;
  dateFrom?: Date;
  dateTo?: Date;
  /**
   * The page starts after this place (the Link of the previous page gives it) rather than at
   * `offset`: a token that changes while a CPO pages moves behind it and comes again, and the
   * tokens not yet read keep their place (by offset, one would be skipped for each that moved).
   */
  after?: OcpiPosition;
}

export async function ocpiTokenPage(em: Em, q: OcpiPageQuery): Promise<{ items: OcpiToken[]; total: number; next?: OcpiPosition }> {
  // The tokens that can be OCPI Tokens (token-of.ts), in SQL: offsets, positions and the total count the same items.
  const window = () => ({
    [raw((alias: string) => ocpiTokenSql(alias))]: [],
    ...(q.dateFrom || q.dateTo ? { updatedAt: { ...(q.dateFrom ? { $gte: q.dateFrom } : {}), ...(q.dateTo ? { $lt: q.dateTo } : {}) } } : {}),
  });
  const where: FilterQuery<Token> = q.after
    ? { ...window(), [raw((alias: string) => `(${alias}.updated_at, ${alias}.id) > (?::timestamptz, ?::uuid)`, [q.after.lastUpdated.toISOString(), q.after.id])]: [] }
    : window();
  // One more than a page: whether another follows.
  const tokens = await em.find(Token, where, { orderBy: [{ updatedAt: 'asc' }, { id: 'asc' }], offset: q.after ? 0 : q.offset, limit: q.limit + 1 });
  const total = await em.count(Token, window());
  const page = tokens.slice(0, q.limit);
  const last = page.at(-1);
  return { items: await ocpiTokensOf(em, page), total, ...(tokens.length > q.limit && last ? { next: { lastUpdated: last.updatedAt, id: last.id } } : {}) };
}
