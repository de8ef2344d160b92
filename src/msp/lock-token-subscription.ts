import { LockMode } from '@mikro-orm/core';
import { NotFoundError } from '../platform/errors.ts';
import { isUuid } from '../platform/ids.ts';
import type { Em } from '../platform/orm.ts';
import { TOKEN_SUBSCRIPTION } from './token-subscription-input.ts';
import { TokenSubscription } from './token-subscription.entity.ts';

/**
 * A subscription visible to the caller, row-locked for the rest of the transaction and re-read
 * after the lock, so its balance is the committed one (with its plan when the answer shows it).
 * Invisible or missing: not_found.
 */
export async function lockTokenSubscription(em: Em, id: string, options: { withPlan?: boolean } = {}): Promise<TokenSubscription> {
  const subscription = isUuid(id) ? await em.findOne(TokenSubscription, { id }, { lockMode: LockMode.PESSIMISTIC_WRITE, refresh: true }) : null;
  if (!subscription) throw new NotFoundError(TOKEN_SUBSCRIPTION);
  // Its plan read after, unlocked: a FOR UPDATE of the join locked the plan's row too, so writes of
  // any two subscriptions of one plan waited for each other.
  if (options.withPlan) await em.populate(subscription, ['plan']);
  return subscription;
}

/**
 * A subscription visible to the caller, with its plan, as an entity: for other services that work
 * on it (the end user's). REST and GraphQL read token-subscription.queries.ts. Invisible or
 * missing: not_found.
 */
export async function loadTokenSubscription(em: Em, id: string): Promise<TokenSubscription> {
  const subscription = isUuid(id) ? await em.findOne(TokenSubscription, { id }, { populate: ['plan'] }) : null;
  if (!subscription) throw new NotFoundError(TOKEN_SUBSCRIPTION);
  return subscription;
}
