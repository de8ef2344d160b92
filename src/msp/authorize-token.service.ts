// "Token validity" of the interface spec, checked in its order: (1) a non-defunct link valid at
// the moment, (2) its subscription valid then and not defunct, (3) the charge authorization
// rules (token not blocked, the subscription's customer not blocked). Validity is [from, until).
import type { Em } from '../platform/orm.ts';
import { findTokenByEvcoId } from './save-token.service.ts';
import { TokenLink } from './token-link.entity.ts';
import type { Token } from './token.entity.ts';

export type AuthorizationReason = 'ok' | 'unknown_token' | 'token_blocked' | 'customer_blocked' | 'no_valid_link' | 'subscription_not_valid';

export interface Authorization {
  allowed: boolean;
  reason: AuthorizationReason;
  tokenId?: string;
  subscriptionId?: string;
  customerId?: string;
}

/**
 * The non-defunct links of the tokens with subscription and customer, in one query. They are
 * read past the administration filter: the token is visible, and whatever decides its validity
 * counts, also a customer of another administration.
 */
async function linksOf(em: Em, tokens: Token[]): Promise<Map<string, TokenLink[]>> {
  const byToken = new Map<string, TokenLink[]>(tokens.map((token) => [token.id, []]));
  if (tokens.length === 0) return byToken;
  const links = await em.find(TokenLink, { token: { $in: tokens.map((t) => t.id) }, defunct: false }, {
    populate: ['subscription', 'subscription.customer'], filters: false, orderBy: { createdAt: 'asc' },
  });
  for (const link of links) byToken.get(link.token.id)?.push(link);
  return byToken;
}

function decide(token: Token, links: TokenLink[], at: Date): Authorization {
  const tokenId = token.id;
  const current = links.filter((link) => link.isValidAt(at));
  if (current.length === 0) return { allowed: false, reason: 'no_valid_link', tokenId };
  const link = current.find((l) => l.subscription.isValidAt(at));
  if (!link) {
    const subscription = current[0].subscription;
    return { allowed: false, reason: 'subscription_not_valid', tokenId, subscriptionId: subscription.id, customerId: subscription.customer.id };
  }
  const ids = { tokenId, subscriptionId: link.subscription.id, customerId: link.subscription.customer.id };
  if (token.chargeAuthBlocked) return { allowed: false, reason: 'token_blocked', ...ids };
  if (link.subscription.customer.chargeAuthBlocked) return { allowed: false, reason: 'customer_blocked', ...ids };
  return { allowed: true, reason: 'ok', ...ids };
}

/** May the token (named by its evco_id, in any accepted spelling) start a session at `at`? */
export async function authorizeToken(em: Em, evcoId: string, at: Date): Promise<Authorization> {
  const token = await findTokenByEvcoId(em, evcoId);
  if (!token) return { allowed: false, reason: 'unknown_token' };
  const links = await linksOf(em, [token]);
  return decide(token, links.get(token.id)!, at);
}

/** The authorization of several loaded tokens at once (lists: one query for all of them). */
export async function authorizeTokens(em: Em, tokens: Token[], at: Date): Promise<Map<string, Authorization>> {
  const links = await linksOf(em, tokens);
  return new Map(tokens.map((token) => [token.id, decide(token, links.get(token.id)!, at)]));
}

/** `is_currently_valid` of each token, by token id. */
export async function currentValidity(em: Em, tokens: Token[], at = new Date()): Promise<Map<string, boolean>> {
  const decisions = await authorizeTokens(em, tokens, at);
  return new Map([...decisions].map(([id, decision]) => [id, decision.allowed]));
}

export async function isTokenCurrentlyValid(em: Em, token: Token, at = new Date()): Promise<boolean> {
  return (await currentValidity(em, [token], at)).get(token.id)!;
}
