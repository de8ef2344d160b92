// Our tokens as the OCPI tokens module publishes them: every token of the instance that can be an
// OCPI Token (token-of.ts: a uid of at most 36 characters), and every former identity of a token
// (ocpi-retired-token.entity.ts, published not valid), in one list ordered by last change then id,
// paged by offset and limit, optionally in [date_from, date_to) of last change.
// A token's last change is its updated_at, which also moves when what decides its `valid` changes
// (Token.updatedAt); a retired identity's is the moment it was retired. The list is the UNION ALL of
// the two, each read by its (last change, id) index in order (the planner merges them), so offsets,
// `after` positions and the total count are of the same merged items. Ids are UUIDv7 in both tables:
// the pair (last change, id) places every item once.
import type { Em } from '../platform/orm.ts';
import { Token } from '../msp/token.entity.ts';
import { OCPI_TOKEN_TYPES } from './ocpi-retired-token.entity.ts';
import { ocpiRetiredTokenOf, ocpiTokenSql, ocpiTokensOf } from './token-of.ts';
import type { OcpiToken } from './schemas/token.ts';

/** An item's place in the list: its last change and id (a next page starts after it). */
export interface OcpiPosition { lastUpdated: Date; id: string }

export interface OcpiPageQuery {
  offset: number;
  limit: number;
  dateFrom?: Date;
  dateTo?: Date;
  /**
   * The page starts after this place (the Link of the previous page gives it) rather than at
   * `offset`: a token that changes while a CPO pages moves behind it and comes again, and the
   * items not yet read keep their place (by offset, one would be skipped for each that moved).
   */
  after?: OcpiPosition;
}

interface Row {
  kind: 'token' | 'retired';
  id: string;
  last_updated: Date | string;
  uid: string | null;
  type: typeof OCPI_TOKEN_TYPES[number] | null;
  evco_id: string | null;
}

/** The conditions of one branch on its last-change column: the date window, and the place after which a page starts. */
function branch(column: string, idColumn: string, q: OcpiPageQuery, withAfter: boolean): { sql: string; params: unknown[] } {
  const parts: string[] = [];
  const params: unknown[] = [];
  if (q.dateFrom) { parts.push(`${column} >= ?::timestamptz`); params.push(q.dateFrom.toISOString()); }
  if (q.dateTo) { parts.push(`${column} < ?::timestamptz`); params.push(q.dateTo.toISOString()); }
  if (withAfter && q.after) {
    parts.push(`(${column}, ${idColumn}) > (?::timestamptz, ?::uuid)`);
    params.push(q.after.lastUpdated.toISOString(), q.after.id);
  }
  return { sql: parts.map((part) => ` and ${part}`).join(''), params };
}

/**
 * The two branches of the list: the tokens that can be OCPI Tokens (token-of.ts, in SQL) and the retired identities (the
 * same rule on theirs). `first`: each branch only its first so many in (last change, id) order, read by its index in order.
 */
function union(q: OcpiPageQuery, withAfter: boolean, columns: { token: string; retired: string }, first?: number): { sql: string; params: unknown[] } {
  const tokens = branch('t.updated_at', 't.id', q, withAfter);
  const retired = branch('r.retired_at', 'r.id', q, withAfter);
  const top = (order: string) => (first === undefined ? { sql: '', params: [] } : { sql: ` order by ${order} limit ?`, params: [first] });
  const [topTokens, topRetired] = [top('t.updated_at, t.id'), top('r.retired_at, r.id')];
  return {
    sql: `(select ${columns.token} from msp_token t where ${ocpiTokenSql('t')}${tokens.sql}${topTokens.sql})
      union all (select ${columns.retired} from ocpi_retired_token r where ${ocpiTokenSql('r')}${retired.sql}${topRetired.sql})`,
    params: [...tokens.params, ...topTokens.params, ...retired.params, ...topRetired.params],
  };
}

const asDate = (value: Date | string) => (value instanceof Date ? value : new Date(value));

export async function ocpiTokenPage(em: Em, q: OcpiPageQuery): Promise<{ items: OcpiToken[]; total: number; next?: OcpiPosition }> {
  // One more than a page: whether another follows. The page's items are among the first offset + limit + 1 of each
  // branch, which each reads by its index in order (a top-N of its own); only those are merged and sorted.
  const offset = q.after ? 0 : q.offset;
  const list = union(q, true, {
    token: `'token'::text as kind, t.id, t.updated_at as last_updated, null::text as uid, null::text as type, null::text as evco_id`,
    retired: `'retired'::text, r.id, r.retired_at, r.uid::text, r.type, r.evco_id::text`,
  }, offset + q.limit + 1);
  const rows = await em.execute<Row[]>(`select * from (${list.sql}) x order by x.last_updated, x.id offset ? limit ?`,
    [...list.params, offset, q.limit + 1]);
  const counted = union(q, false, { token: 'count(*) as n', retired: 'count(*)' });
  const counts = await em.execute<{ n: string | number }[]>(counted.sql, counted.params);
  const total = counts.reduce((sum, row) => sum + Number(row.n), 0);

  const page = rows.slice(0, q.limit);
  const tokenIds = page.filter((row) => row.kind === 'token').map((row) => row.id);
  const tokens = tokenIds.length ? await em.find(Token, { id: { $in: tokenIds } }) : [];
  const published = new Map((await ocpiTokensOf(em, tokens)).map((item, i) => [tokens[i]!.id, item]));
  const items = page.map((row) => (row.kind === 'token'
    ? published.get(row.id)!
    : ocpiRetiredTokenOf({ uid: row.uid!, type: row.type!, evcoId: row.evco_id!, retiredAt: asDate(row.last_updated) })));
  const last = page.at(-1);
  return { items, total, ...(rows.length > q.limit && last ? { next: { lastUpdated: asDate(last.last_updated), id: last.id } } : {}) };
}
