import { LockMode } from '@mikro-orm/core';
import { findLink, markDefunct } from '../contracts/contract-service.ts';
import { DomainError, NotFoundError } from '../platform/errors.ts';
import type { FieldPath } from '../platform/field-path.ts';
import { isUuid } from '../platform/ids.ts';
import type { Patch } from '../platform/merge-patch.ts';
import type { Em } from '../platform/orm.ts';
import { parseEvcoId } from './evco-id.ts';
import { assertNoOverlap, followLatestLink, linkToken, lockToken, TOKEN_LINK, tokenLinkSpan } from './link-token.service.ts';
import { TokenLink } from './token-link.entity.ts';
import { findTokenByEvcoId } from './token-lookup.ts';
import { TokenSubscription } from './token-subscription.entity.ts';
import { tokenLinkData, type TokenLinkData } from './token-subscription.queries.ts';
import { Token } from './token.entity.ts';

export interface TokenLinkFields {
  validFrom: Date;
  validUntil: Date;
  externalUpdatedAt: Date;
}

export type TokenLinkPatch = Patch<TokenLinkFields>;

export interface NewTokenLink {
  subscriptionId?: string | null;
  evcoId?: string | null;
  validFrom?: Date | null;
  validUntil?: Date | null;
}

/**
 * The tokens of these links, whichever administration holds them now: a token that moved on
 * stays part of its old subscription's history.
 */
export async function loadLinkTokens(em: Em, links: TokenLink[]): Promise<void> {
  const ids = [...new Set(links.map((link) => link.token.id))];
  if (ids.length) await em.find(Token, { id: { $in: ids } }, { filters: false });
}

/** The link entity a write changes (its subscription and token loaded), or 400 not_found. */
async function loadTokenLink(em: Em, id: string): Promise<TokenLink> {
  const link = await findLink(em, TOKEN_LINK, id);
  await loadLinkTokens(em, [link]);
  return link;
}

/** A token the caller can see, named by its EVCO id (any accepted notation). */
export async function visibleTokenByEvcoId(em: Em, evcoId: string | null | undefined, path: FieldPath): Promise<Token> {
  if (evcoId === null || evcoId === undefined) throw new DomainError('validation_failed', 'evco_id is required', { path });
  try {
    parseEvcoId(evcoId);
  } catch (error) {
    if (error instanceof DomainError) throw new DomainError(error.code, error.message, { path });
    throw error;
  }
  const token = await findTokenByEvcoId(em, evcoId);
  if (!token) throw new NotFoundError('token', { path });
  return token;
}

/** POST /msp-token-link (extension): links a visible token to a visible, non-defunct subscription. */
export function createTokenLink(em: Em, input: NewTokenLink): Promise<TokenLinkData> {
  return em.transactional(async (tx) => {
    const path = ['subscription_id'];
    if (input.subscriptionId === null || input.subscriptionId === undefined) {
      throw new DomainError('validation_failed', 'subscription_id is required', { path });
    }
    // Shared lock: a concurrent defunct cascade waits for this link, or this waits for it.
    const subscription = isUuid(input.subscriptionId)
      ? await tx.findOne(TokenSubscription, { id: input.subscriptionId }, { lockMode: LockMode.PESSIMISTIC_READ, refresh: true })
      : null;
    if (!subscription) throw new NotFoundError('token subscription', { path });
    const token = await visibleTokenByEvcoId(tx, input.evcoId, ['evco_id']);
    const link = await linkToken(tx, { subscription, token, validFrom: input.validFrom, validUntil: input.validUntil });
    await tx.flush();
    return tokenLinkData(link);
  });
}

function same(a: Date | null, b: Date | null): boolean {
  return a === b || (a !== null && b !== null && a.getTime() === b.getTime());
}

/**
 * POST (merge) or the deprecated PUT (replace: absent members are reset) on /msp-token-link/{id}.
 * valid_from null defers to the subscription. Moving a bound re-checks the one-subscription-at-
 * a-time rule under the token's lock. A defunct link keeps its bounds; external_updated_at is
 * still recorded.
 */
export function updateTokenLink(em: Em, id: string, patch: TokenLinkPatch): Promise<TokenLinkData> {
  return em.transactional(async (tx) => {
    const link = await loadTokenLink(tx, id);
    const validFrom = patch.validFrom === undefined ? (link.validFrom ?? null) : patch.validFrom;
    const validUntil = patch.validUntil === undefined ? (link.validUntil ?? null) : patch.validUntil;
    const fromMoves = !same(validFrom, link.validFrom ?? null);
    const untilMoves = !same(validUntil, link.validUntil ?? null);
    if (fromMoves || untilMoves) {
      link.assertChangeable(fromMoves ? ['valid_from'] : ['valid_until']);
      const span = tokenLinkSpan(link.subscription, { validFrom, validUntil }, ['valid_until']);
      await lockToken(tx, link.token);
      await assertNoOverlap(tx, link.token, span, { exclude: link });
      link.validFrom = validFrom;
      link.validUntil = validUntil;
      if (fromMoves) await followLatestLink(tx, link.token);
    }
    if (patch.externalUpdatedAt !== undefined) link.externalUpdatedAt = patch.externalUpdatedAt;
    await tx.flush();
    return tokenLinkData(link);
  });
}

/** PUT /msp-token-link/{id}/defunct: idempotent; an optional external_updated_at is recorded. */
export function markTokenLinkDefunct(em: Em, id: string, externalUpdatedAt?: Date | null): Promise<TokenLinkData> {
  return em.transactional(async (tx) => {
    const link = await markDefunct(tx, await loadTokenLink(tx, id), externalUpdatedAt);
    await followLatestLink(tx, link.token);
    await tx.flush();
    return tokenLinkData(link);
  });
}
