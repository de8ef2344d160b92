// A token looked up by its EVCO id: with or without separators and check digit, in any casing
// (evco-id.ts `evcoIdVariants`: a stored evco_id matches in either spelling). Every look-up of one
// token by an evco_id goes through here. The token resolution of a batch of sessions
// (resolve-token.ts) reads many at once in one query with the same variants and, should both
// spellings be stored, prefers the one without check digit.
import { LockMode, type FindOneOptions } from '@mikro-orm/core';
import type { Em } from '../platform/orm.ts';
import { evcoIdVariants } from './evco-id.ts';
import { Token } from './token.entity.ts';

export interface TokenLookup {
  /** Also outside the caller's administrations (a peer's message, which has none; a check that an id is free in the instance). */
  everyAdministration?: boolean;
  /** Locked for update (and read afresh) until the transaction ends. */
  forUpdate?: boolean;
}

/** The token an evco_id names (as entity, for services), or null. */
export function findTokenByEvcoId(em: Em, evcoId: string, options: TokenLookup = {}): Promise<Token | null> {
  const find: FindOneOptions<Token> = {
    ...(options.everyAdministration ? { filters: false } : {}),
    ...(options.forUpdate ? { lockMode: LockMode.PESSIMISTIC_WRITE, refresh: true } : {}),
  };
  return em.findOne(Token, { evcoId: { $in: evcoIdVariants(evcoId) } }, find);
}

/** Which evco_ids name a token the em sees (in any spelling), for many at once: one query. */
export async function tokensSeen(em: Em, evcoIds: string[]): Promise<(evcoId: string) => boolean> {
  const variants = [...new Set(evcoIds.flatMap(evcoIdVariants))];
  const found = variants.length ? await em.find(Token, { evcoId: { $in: variants } }, { fields: ['evcoId'] }) : [];
  const stored = new Set(found.map((token) => token.evcoId.toLowerCase()));
  return (evcoId) => evcoIdVariants(evcoId).some((variant) => stored.has(variant.toLowerCase()));
}
