// Reads of token subscriptions, for REST and GraphQL.
import type { FilterQuery } from '@mikro-orm/core';
import { NotFoundError } from '../platform/errors.ts';
import { isUuid } from '../platform/ids.ts';
import type { Em } from '../platform/orm.ts';
import { notValidAt, validAt, validityNow } from '../platform/validity.ts';
import { loadLinkTokens } from './save-token-link.service.ts';
import { TokenLink } from './token-link.entity.ts';
import { TOKEN_SUBSCRIPTION } from './token-subscription-input.ts';
import { TokenSubscription } from './token-subscription.entity.ts';

export async function getTokenSubscription(em: Em, id: string): Promise<TokenSubscription> {
  const subscription = isUuid(id) ? await em.findOne(TokenSubscription, { id }, { populate: ['plan'] }) : null;
  if (!subscription) throw new NotFoundError(TOKEN_SUBSCRIPTION);
  return subscription;
}

/** Every link of these subscriptions (defunct ones too), oldest first, with their tokens. */
export async function loadSubscriptionLinks(em: Em, subscriptions: TokenSubscription[]): Promise<Map<string, TokenLink[]>> {
  const bySubscription = new Map<string, TokenLink[]>(subscriptions.map((s) => [s.id, []]));
  if (!subscriptions.length) return bySubscription;
  const links = await em.find(TokenLink, { subscription: { $in: subscriptions.map((s) => s.id) } }, { filters: false, orderBy: { id: 'asc' } });
  await loadLinkTokens(em, links);
  for (const link of links) bySubscription.get(link.subscription.id)?.push(link);
  return bySubscription;
}

export interface SubscriptionListQuery {
  isValid?: boolean;
  planId?: string;
  customerId?: string;
  hasMonetaryCredits?: boolean;
}

/** The list filters; is_valid: valid at validityNow() and not defunct, as the is_valid member answers (isCurrentlyValid). */
export function subscriptionListFilter(query: SubscriptionListQuery, now = validityNow()): FilterQuery<TokenSubscription> {
  const where: Record<string, unknown>[] = [];
  if (query.isValid === true) {
    where.push({ defunct: false, ...validAt(now) });
  } else if (query.isValid === false) {
    where.push({ $or: [{ defunct: true }, notValidAt(now)] });
  }
  if (query.planId !== undefined) where.push({ plan: query.planId });
  if (query.customerId !== undefined) where.push({ customer: query.customerId });
  if (query.hasMonetaryCredits === true) where.push({ monetaryCreditBalance: { $gt: '0' } });
  if (query.hasMonetaryCredits === false) where.push({ monetaryCreditBalance: { $lte: '0' } });
  return (where.length ? { $and: where } : {}) as FilterQuery<TokenSubscription>;
}
