// "Token validity" of the interface spec, checked in its order: (1) a non-defunct link valid at
// the moment, (2) its subscription valid then and not defunct (both resolved by
// resolve-token.ts, as session processing does), (3) the charge authorization rules (token not
// blocked, the subscription's customer not blocked). Validity is [from, until).
import { canSeeAdministration } from '../access/admin-scope.ts';
import type { Em } from '../platform/orm.ts';
import { callerScope } from '../access/admin-scope.ts';
import { resolveToken, resolveTokens, resolveTokensById, type SubscriptionKey, type TokenResolution } from './resolve-token.ts';
import type { Token } from './token.entity.ts';
import { validityNow } from '../platform/validity.ts';

export type AuthorizationReason = 'ok' | 'unknown_token' | 'token_blocked' | 'customer_blocked' | 'no_valid_link' | 'subscription_not_valid';

export interface Authorization {
  allowed: boolean;
  reason: AuthorizationReason;
  tokenId?: string;
  subscriptionId?: string;
  customerId?: string;
}

function decide(resolution: TokenResolution<SubscriptionKey>): Authorization {
  const { token, currentLinks, subscription } = resolution;
  if (!token) return { allowed: false, reason: 'unknown_token' };
  const tokenId = token.id;
  if (currentLinks.length === 0) return { allowed: false, reason: 'no_valid_link', tokenId };
  if (!subscription) {
    const first = currentLinks[0].subscription;
    return { allowed: false, reason: 'subscription_not_valid', tokenId, subscriptionId: first.id, customerId: first.customer.id };
  }
  const ids = { tokenId, subscriptionId: subscription.id, customerId: subscription.customer.id };
  if (token.chargeAuthBlocked) return { allowed: false, reason: 'token_blocked', ...ids };
  if (subscription.customer.chargeAuthBlocked) return { allowed: false, reason: 'customer_blocked', ...ids };
  return { allowed: true, reason: 'ok', ...ids };
}

/**
 * May the token (named by its evco_id, in any accepted spelling) start a session at `at`? A token
 * the caller cannot see is unknown; whatever decides its validity counts, also a customer of
 * another administration.
 */
export async function authorizeToken(em: Em, evcoId: string, at: Date): Promise<Authorization> {
  const resolution = await resolveToken(em, evcoId, at);
  if (resolution.token && !canSeeAdministration(callerScope(em), resolution.token.currentAdminId)) return decide({ ...resolution, token: null });
  return decide(resolution);
}

/** A token as its authorization needs it: its id and evco_id. */
type TokenKey = Pick<Token, 'id' | 'evcoId'>;

/** The authorization of several loaded tokens at once (lists: one query for all of them). */
export async function authorizeTokens(em: Em, tokens: TokenKey[], at: Date): Promise<Map<string, Authorization>> {
  const resolutions = await resolveTokens(em, tokens.map((token) => ({ evcoId: token.evcoId, at })));
  return new Map(tokens.map((token, i) => [token.id, decide(resolutions[i])]));
}

/** `is_currently_valid` (REST) and `isCurrentlyValid` (GraphQL) of each token, by token id: authorized at validityNow(). */
export async function currentValidity(em: Em, tokens: TokenKey[], at = validityNow()): Promise<Map<string, boolean>> {
  // The tokens are known: resolved by id (one query), no spellings of their evco_ids to try.
  const resolutions = await resolveTokensById(em, [...new Set(tokens.map((token) => token.id))], at);
  return new Map(tokens.map((token) => {
    const resolution = resolutions.get(token.id);
    return [token.id, resolution ? decide(resolution).allowed : false];
  }));
}

/**
 * `allowed` of the decision above (resolve-token.ts's resolution, then decide()) as an SQL
 * expression over a token row aliased `token`, at `at`: the token's first non-defunct link (by
 * created_at, id) in its own interval whose subscription is valid and not defunct decides, and
 * neither the token nor that subscription's customer may be blocked. Bounds compare as the
 * resolution's Dates do, at millisecond precision: `from <= at` of a bound read to the millisecond
 * is `from < at + 1 ms`, `at < until` is `until >= at + 1 ms`. A list reads it with its page (no
 * second statement, no link rows to parse); test/src/msp/token.queries.test.ts holds it equal to
 * currentValidity.
 */
export function currentValiditySql(token: string, at: Date): string {
  const next = `'${new Date(at.getTime() + 1).toISOString()}'::timestamptz`;
  return `coalesce((select not ${token}.charge_auth_blocked and not c.charge_auth_blocked
    from msp_token_link l join msp_token_subscription s on s.id = l.subscription_id join customer c on c.id = s.customer_id
    where l.token_id = ${token}.id and not l.defunct
      and coalesce(l.valid_from, s.valid_from) < ${next} and (l.valid_until is null or l.valid_until >= ${next})
      and not s.defunct and s.valid_from < ${next} and (s.valid_until is null or s.valid_until >= ${next})
    order by l.created_at, l.id limit 1), false)`;
}

/** Tokens as data with their `isCurrentlyValid` (currentValidity): one query for all of them. */
export async function withCurrentValidity<T extends TokenKey>(em: Em, tokens: T[]): Promise<(T & { isCurrentlyValid: boolean })[]> {
  const valid = tokens.length ? await currentValidity(em, tokens) : new Map<string, boolean>();
  return tokens.map((token) => Object.assign(token, { isCurrentlyValid: valid.get(token.id) ?? false }));
}

/**
 * The authorization of one loaded token at `at` (now unless given), resolved by its id as its published `valid`
 * (currentValidity) is: the two always agree. A remote start (OCPI StartSession, which the CPO takes as our
 * authorization) asks this before anything is stored or sent.
 */
export async function authorizeLoadedToken(em: Em, token: TokenKey, at = validityNow()): Promise<Authorization> {
  const resolution = (await resolveTokensById(em, [token.id], at)).get(token.id);
  return resolution ? decide(resolution) : { allowed: false, reason: 'unknown_token' };
}

const REFUSAL: Record<Exclude<AuthorizationReason, 'ok'>, string> = {
  unknown_token: 'the token is unknown',
  no_valid_link: 'the token is linked to no subscription now',
  subscription_not_valid: 'the token\'s subscription is not valid now (not started, ended or defunct)',
  token_blocked: 'the token\'s charge authorization is blocked',
  customer_blocked: 'the charge authorization of the token\'s customer is blocked',
};

/** Why a refused authorization refuses, for a caller's message: the reason's words, then its code. */
export function refusalText(authorization: Authorization): string {
  return authorization.reason === 'ok' ? 'authorized' : `${REFUSAL[authorization.reason]} (${authorization.reason})`;
}

export async function isTokenCurrentlyValid(em: Em, token: TokenKey, at = validityNow()): Promise<boolean> {
  return (await currentValidity(em, [token], at)).get(token.id)!;
}
