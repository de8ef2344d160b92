// A token looked up by its EVCO id: with or without separators and check digit, in any casing
// (evco-id.ts `evcoIdVariants`: a stored evco_id matches in either spelling). Every look-up of one
// token by an evco_id goes through here. The token resolution of a batch of sessions
// (resolve-token.ts) reads many at once in one query with the same variants and, should both
// spellings be stored, prefers the one without check digit. The casing compared is always the
// database's (citext), which JavaScript's toLowerCase does not repeat (U+0130: i against i + U+0307).
import { LockMode, type FindOneOptions } from '@mikro-orm/core';
import { callerScope } from '../access/admin-scope.ts';
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

// The evco_ids asked for, as sent, that name a token of the caller's administrations in one of their spellings.
const SEEN = `select distinct k.asked from json_to_recordset(?::json) as k(asked text, variant citext)
  join msp_token t on t.evco_id = k.variant
  where ?::boolean or t.current_admin_id in (select value::citext from json_array_elements_text(?::json))`;

/** Which evco_ids name a token the em sees (in any spelling, as the pipeline's resolve-token.ts matches it), for many at once: one query. */
export async function tokensSeen(em: Em, evcoIds: string[]): Promise<(evcoId: string) => boolean> {
  const asked = [...new Set(evcoIds)].flatMap((evcoId) => evcoIdVariants(evcoId).map((variant) => ({ asked: evcoId, variant })));
  const scope = callerScope(em);
  const found = asked.length ? await em.execute<{ asked: string }[]>(SEEN, [JSON.stringify(asked), scope.all, JSON.stringify(scope.ids)]) : [];
  const seen = new Set(found.map((row) => row.asked));
  return (evcoId) => seen.has(evcoId);
}
