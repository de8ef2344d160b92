// The token reads both transports call (REST /msp-token, /msp-token-series, /msp-token-brand;
// GraphQL `tokens`, `token`, Token and TokenSeries): plain data, the caller's administrations only.
// Tokens are listed by evco_id, which is the REST `after` and the Relay cursor; series by id.
import { raw, type FilterQuery } from '@mikro-orm/core';
import { scopedRead } from '../access/admin-scope.ts';
import { NotFoundError } from '../platform/errors.ts';
import type { FieldPath } from '../platform/field-path.ts';
import { isUuid } from '../platform/ids.ts';
import type { Em } from '../platform/orm.ts';
import { plainData, type Data } from '../platform/plain-data.ts';
import { inIdOrder, refOf } from '../platform/plain-reads.ts';
import { SeekList } from '../platform/seek-page.ts';
import { currentValiditySql, withCurrentValidity } from './authorize-token.service.ts';
import { validityNow } from '../platform/validity.ts';
import { findTokenByEvcoId } from './token-lookup.ts';
import { TokenBrand } from './token-brand.entity.ts';
import { TokenSeries } from './token-series.entity.ts';
import { Token } from './token.entity.ts';

/** A token with is_currently_valid (REST; GraphQL isCurrentlyValid): authorized at validityNow() (authorize-token.service.ts). */
export type TokenData = Data<Token> & { isCurrentlyValid: boolean };
export type TokenSeriesData = Data<TokenSeries>;
export type TokenBrandData = Data<TokenBrand>;

type Row = Record<string, any>;

export interface TokenFilter {
  /** Only tokens that were (true) or were never (false) linked to a subscription. */
  used?: boolean;
}

/** An evco_id as a list key: an eMA ID is at most 64 characters. */
export const isTokenKey = (value: string): boolean => value.length > 0 && value.length <= 64;

/** The data of a token entity a write changed (or a look-up found), with its current validity. */
export async function tokenData(em: Em, token: Token): Promise<TokenData> {
  return (await withCurrentValidity(em, [plainData(token)]))[0];
}

const tokenOfRow = (row: Row): Data<Token> => ({
  ...row, series: refOf(row.series), initialAdmin: refOf(row.initialAdmin), currentAdmin: refOf(row.currentAdmin),
}) as Data<Token>;

/**
 * Tokens with their `isCurrentlyValid` at validityNow(), decided by PostgreSQL in the page's own
 * statement (currentValiditySql, the same decision as currentValidity).
 */
const tokens = (em: Em, where: FilterQuery<Token> = {}) => new SeekList<TokenData>(em, {
  entity: Token, ...scopedRead(em, where as Record<string, unknown>, 'currentAdmin'), key: 'evcoId', isKey: isTokenKey, plainColumns: true,
  fields: ['*', raw(`${currentValiditySql('e', validityNow())} as "is_currently_valid"`)],
  map: (row, answered) => Object.assign(tokenOfRow(row), { isCurrentlyValid: answered.is_currently_valid === true }) as TokenData,
});

export function tokenList(em: Em, filter: TokenFilter = {}): SeekList<TokenData> {
  return tokens(em, filter.used === undefined ? {} : { firstLinkedAt: filter.used ? { $ne: null } : null });
}

export function tokensByIds(em: Em, ids: readonly string[]): Promise<(TokenData | null)[]> {
  return inIdOrder(ids, (wanted) => tokens(em, { id: { $in: wanted } }).all());
}

/** The token an evco_id names (any accepted notation) among those the caller sees, or null. */
export async function findToken(em: Em, evcoId: string): Promise<TokenData | null> {
  const token = await findTokenByEvcoId(em, evcoId);
  return token && tokenData(em, token);
}

/** The token an evco_id names, or 400 not_found (at `path` when given). */
export async function getToken(em: Em, evcoId: string, path?: FieldPath): Promise<TokenData> {
  const token = await findToken(em, evcoId);
  if (!token) throw new NotFoundError('token', { path });
  return token;
}

/** The evco_ids of these tokens, whichever administration holds them now (a link keeps naming its token). */
export async function tokenEvcoIds(em: Em, ids: readonly string[]): Promise<Map<string, string>> {
  const wanted = [...new Set(ids.filter(isUuid))];
  if (!wanted.length) return new Map();
  // No applyFilters: past the administration filter.
  const rows: Row[] = await em.createQueryBuilder(Token, 't').select(['id', 'evcoId']).where({ id: { $in: wanted } }).execute('all', true);
  return new Map(rows.map((row) => [String(row.id), String(row.evcoId)]));
}

const seriesOfRow = (row: Row): TokenSeriesData => ({ ...row, admin: refOf(row.admin) }) as TokenSeriesData;
const series = (em: Em, where: FilterQuery<TokenSeries> = {}) => new SeekList<TokenSeriesData>(em, { entity: TokenSeries, where, map: seriesOfRow });

export function tokenSeriesList(em: Em): SeekList<TokenSeriesData> {
  return series(em);
}

/** A token series by id, or 400 not_found. */
export async function getTokenSeries(em: Em, id: string): Promise<TokenSeriesData> {
  const [found] = isUuid(id) ? await series(em, { id }).all() : [];
  if (!found) throw new NotFoundError('token series');
  return found;
}

export function tokenSeriesByIds(em: Em, ids: readonly string[]): Promise<(TokenSeriesData | null)[]> {
  return inIdOrder(ids, (wanted) => series(em, { id: { $in: wanted } }).all());
}

/** Every token brand (instance-wide), by code. */
export async function tokenBrands(em: Em): Promise<TokenBrandData[]> {
  return new SeekList<TokenBrandData>(em, { entity: TokenBrand, key: 'code', isKey: () => true }).all();
}
