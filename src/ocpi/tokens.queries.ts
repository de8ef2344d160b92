// Our tokens as the OCPI tokens module publishes them: every token of the instance, ordered by
// last change then id, paged by offset and limit, optionally in [date_from, date_to) of last change.
import type { FilterQuery } from '@mikro-orm/core';
import type { Em } from '../platform/orm.ts';
import { Token } from '../msp/token.entity.ts';
import { ocpiTokensOf } from './token-of.ts';
import type { OcpiToken } from './schemas/token.ts';

export interface OcpiPageQuery { offset: number; limit: number; dateFrom?: Date; dateTo?: Date }

export async function ocpiTokenPage(em: Em, q: OcpiPageQuery): Promise<{ items: OcpiToken[]; total: number }> {
  const where: FilterQuery<Token> = q.dateFrom || q.dateTo
    ? { updatedAt: { ...(q.dateFrom ? { $gte: q.dateFrom } : {}), ...(q.dateTo ? { $lt: q.dateTo } : {}) } } : {};
  const [tokens, total] = await em.findAndCount(Token, where, { orderBy: [{ updatedAt: 'asc' }, { id: 'asc' }], offset: q.offset, limit: q.limit });
  return { items: await ocpiTokensOf(em, tokens), total };
}
