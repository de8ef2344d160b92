// The rule "a token belongs to one subscription at a time, whatever the validity of that
// subscription": the spans [effective valid_from, valid_until) of a token's non-defunct links
// never overlap. Equal bounds are a seamless hand-over. Every check runs under the token's row
// lock, so two transactions cannot both link one token.
import { LockMode } from '@mikro-orm/core';
import { clashingLink, newLink, orderedLinkSpan, type LinkKind, type LinkSpan } from '../contracts/contract-service.ts';
import { DomainError } from '../platform/errors.ts';
import type { FieldPath } from '../platform/field-path.ts';
import type { Em } from '../platform/orm.ts';
import { TokenLink } from './token-link.entity.ts';
import type { TokenSubscription } from './token-subscription.entity.ts';
import { Token } from './token.entity.ts';

export interface LinkTokenInput {
  subscription: TokenSubscription;
  token: Token;
  /** null or absent: the link defers to the subscription's valid_from. */
  validFrom?: Date | null;
  validUntil?: Date | null;
  /** The place of the object in the request that describes the link (`['links', 0]`); the whole input by default. */
  at?: FieldPath;
}

export type { LinkSpan };

export const TOKEN_LINK: LinkKind<TokenLink> = { entity: TokenLink, contract: 'subscription', what: 'token link', populate: ['subscription'] };

/** A token created in this unit of work and not yet written: nobody else can see it, it has no links. */
function isUnwritten(em: Em, token: Token): boolean {
  return em.getUnitOfWork().getPersistStack().has(token);
}

/**
 * Serializes every change of one token's links (callers run inside a transaction, the token without
 * changes of their own yet). The token is read again under the lock: em.lock() alone keeps what was
 * read before it, so the second of two links at once overwrote the first one's first_linked_at and
 * missed its move of the token's administration.
 */
export async function lockToken(em: Em, token: Token): Promise<void> {
  if (isUnwritten(em, token)) return;
  await em.findOneOrFail(Token, { id: token.id }, { filters: false, lockMode: LockMode.PESSIMISTIC_WRITE, refresh: true });
}

/**
 * The token goes with its latest live link (by effective start, then by id), recomputed when a link
 * of it is made defunct or moved: a move that is undone gives the token back (since 2026-11-29, found
 * by probing: B, whose link was made defunct, kept A's token, could block it, and A could not undo
 * that). Takes the token's lock. A token without a live link stays where it is.
 */
export async function followLatestLink(em: Em, token: Token): Promise<void> {
  await lockToken(em, token);
  const links = await em.find(TokenLink, { token, defunct: false }, { filters: false, populate: ['subscription'] });
  const latest = links.sort((a, b) => a.effectiveFrom().getTime() - b.effectiveFrom().getTime() || a.id.localeCompare(b.id)).at(-1);
  if (latest && latest.subscription.admin.id.toLowerCase() !== token.currentAdmin.id.toLowerCase()) token.currentAdmin = latest.subscription.admin;
}

/**
 * The tokens linked to a subscription whose latest live link (followLatestLink's order) is of another
 * administration than the one they are with: one statement, so a fleet's defunct looks at each token
 * no more than that.
 */
const DRIFTED_TOKENS = `select t.id from msp_token t
  join lateral (select s.admin_id from msp_token_link l join msp_token_subscription s on s.id = l.subscription_id
    where l.token_id = t.id and not l.defunct order by coalesce(l.valid_from, s.valid_from) desc, l.id desc limit 1) latest on true
  where t.id in (select token_id from msp_token_link where subscription_id = ?) and lower(latest.admin_id) <> lower(t.current_admin_id)
  order by t.id`;

/** followLatestLink for the tokens of a subscription that need it (its defunct: their links defunct with it), in id order. */
export async function followLatestLinksOf(em: Em, subscriptionId: string): Promise<void> {
  const drifted = await em.execute<{ id: string }[]>(DRIFTED_TOKENS, [subscriptionId]);
  for (const { id } of drifted) await followLatestLink(em, em.getReference(Token, id));
}

/** The span of a link with these bounds, ordered (the subscription's start when the link defers to it), else 400 at `path`. */
export function tokenLinkSpan(subscription: TokenSubscription, bounds: { validFrom?: Date | null; validUntil?: Date | null }, path: FieldPath): LinkSpan {
  return orderedLinkSpan(subscription, bounds, { path, message: 'valid_until must be after valid_from (the subscription\'s when the link defers to it)' });
}

/**
 * Refuses a span that overlaps another non-defunct link of the token, in any administration
 * (the rule is instance-wide). The token must be locked and written; so must its other links.
 * Answers those other links.
 */
export async function assertNoOverlap(em: Em, token: Token, span: LinkSpan, options: { exclude?: TokenLink; path?: FieldPath } = {}): Promise<TokenLink[]> {
  const links = (await em.find(TokenLink, { token, defunct: false }, { filters: false, populate: ['subscription'], orderBy: { id: 'asc' } }))
    .filter((link) => link !== options.exclude);
  const clash = clashingLink(links, span);
  if (!clash) return links;
  // Name the clashing link only to a caller who may see it (decisions.md: no hints of other administrations).
  const visible = (await em.count(TokenLink, { id: clash.id })) > 0;
  const which = visible
    ? `subscription ${clash.subscription.id} (link ${clash.id}) from ${clash.effectiveFrom().toISOString()} ${clash.validUntil ? `until ${clash.validUntil.toISOString()}` : 'without an end'}`
    : 'a subscription of another administration';
  throw new DomainError('overlapping_token_link',
    `the token is already linked to ${which}; a token belongs to one subscription at a time: end that link first `
    + '(its valid_until equal to this valid_from is a seamless hand-over)',
    { path: options.path ?? ['valid_from'] });
}

/** Creates (persists, does not flush) a link of `token` to `subscription`; run it inside a transaction. */
export async function linkToken(em: Em, input: LinkTokenInput): Promise<TokenLink> {
  const { subscription, token } = input;
  const prefix = input.at ?? [];
  if (subscription.defunct) {
    throw new DomainError('subscription_defunct', 'a token cannot be linked to a defunct subscription', { path: [...prefix, 'subscription_id'] });
  }
  const span = tokenLinkSpan(subscription, input, [...prefix, 'valid_until']);
  let others: TokenLink[] = [];
  if (!isUnwritten(em, token)) {
    await lockToken(em, token);
    others = await assertNoOverlap(em, token, span, { path: [...prefix, 'valid_from'] });
  }
  const link = newLink(em, TOKEN_LINK, subscription, { token }, input);
  // The first link's own creation time (a clock read a moment later could come after it).
  token.firstLinkedAt ??= link.createdAt ?? new Date();
  // The token goes with its latest link; a link filling a gap in the past does not move it.
  if (others.every((other) => other.effectiveFrom().getTime() <= span.from.getTime())) token.currentAdmin = subscription.admin;
  return link;
}
