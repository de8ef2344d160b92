// The end user's token subscriptions (App API, GraphQL viewer): reads within the end user's scope
// (end-user-scope.ts), never a check per route.
import type { Em } from '../platform/orm.ts';
import { loadTokenSubscription } from '../msp/lock-token-subscription.ts';
import { TOKEN_SUBSCRIPTION } from '../msp/token-subscription-input.ts';
import { TokenSubscription } from '../msp/token-subscription.entity.ts';
import { inScope, type EndUserScope } from './end-user-scope.ts';

/** One subscription of the end user's scope (end-user-scope.ts), or 400 not_found. */
export async function getEndUserSubscription(em: Em, scope: EndUserScope, id: string): Promise<TokenSubscription> {
  const subscriptionId = inScope(scope.subscriptionIds, id, TOKEN_SUBSCRIPTION);
  return loadTokenSubscription(em, subscriptionId);
}

/** The end user's subscriptions, oldest first (the GraphQL viewer; at most the scope's, which is small). */
export async function endUserSubscriptions(em: Em, scope: EndUserScope, limit: number): Promise<TokenSubscription[]> {
  if (!scope.subscriptionIds.length) return [];
  return em.find(TokenSubscription, { id: { $in: scope.subscriptionIds } }, { populate: ['plan'], orderBy: { id: 'asc' }, limit });
}
