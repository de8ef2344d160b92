// The token list both transports call (REST GET /msp-token, GraphQL `tokens`): ordered by
// evco_id, which is the REST `after` and the Relay cursor; the caller's administrations only.
import type { FilterQuery } from '@mikro-orm/core';
import type { Em } from '../platform/orm.ts';
import { SeekList } from '../platform/seek-page.ts';
import { Token } from './token.entity.ts';

export interface TokenFilter {
  /** Only tokens that were (true) or were never (false) linked to a subscription. */
  used?: boolean;
}

/** An evco_id as a list key: an eMA ID is at most 64 characters. */
export const isTokenKey = (value: string): boolean => value.length > 0 && value.length <= 64;

export function tokenList(em: Em, filter: TokenFilter = {}): SeekList<Token> {
  const where: FilterQuery<Token> = filter.used === undefined ? {} : { firstLinkedAt: filter.used ? { $ne: null } : null };
  // Entities: the serializers still walk the token's brand and series.
  return new SeekList<Token>(em, { entity: Token, where, key: 'evcoId', isKey: isTokenKey, entities: true });
}
