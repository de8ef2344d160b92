import type { Em } from '../platform/orm.ts';
import { lockTokenSubscription } from './lock-token-subscription.ts';
import { TokenLink } from './token-link.entity.ts';
import type { TokenSubscription } from './token-subscription.entity.ts';

/** PUT /msp-token-subscription/{id}/defunct: the subscription and all its links, in one transaction; idempotent. */
export function markTokenSubscriptionDefunct(em: Em, id: string, externalUpdatedAt?: Date | null): Promise<TokenSubscription> {
  return em.transactional(async (tx) => {
    const subscription = await lockTokenSubscription(tx, id, { withPlan: true });
    subscription.defunct = true;
    if (externalUpdatedAt) subscription.externalUpdatedAt = externalUpdatedAt;
    const links = await tx.find(TokenLink, { subscription, defunct: false }, { filters: false });
    for (const link of links) link.defunct = true;
    await tx.flush();
    return subscription;
  });
}
