import { markDefunct } from '../contracts/contract-service.ts';
import type { Em } from '../platform/orm.ts';
import { withdrawSubscriptionFees } from './fee-correction.ts';
import { lockTokenSubscription } from './lock-token-subscription.ts';
import { followLatestLinksOf, TOKEN_LINK } from './link-token.service.ts';
import type { TokenSubscription } from './token-subscription.entity.ts';
import { tokenSubscriptionData, type TokenSubscriptionData } from './token-subscription.queries.ts';

/** The entity form of markTokenSubscriptionDefunct, for other services (the end user's cancel). */
export function defunctTokenSubscriptionEntity(em: Em, id: string, externalUpdatedAt?: Date | null): Promise<TokenSubscription> {
  return em.transactional(async (tx) => {
    const subscription = await lockTokenSubscription(tx, id, { withPlan: true });
    // Links of tokens now in another administration too.
    await markDefunct(tx, subscription, externalUpdatedAt, { links: TOKEN_LINK, options: { filters: false } });
    // Its tokens go back to their latest live link's administration.
    await followLatestLinksOf(tx, subscription.id);
    await tx.flush();
    // Its fees billed in any period are withdrawn.
    await withdrawSubscriptionFees(tx, subscription.admin.id, [subscription.id]);
    return subscription;
  });
}

/** PUT /msp-token-subscription/{id}/defunct: the subscription and all its links, in one transaction; idempotent. */
export async function markTokenSubscriptionDefunct(em: Em, id: string, externalUpdatedAt?: Date | null): Promise<TokenSubscriptionData> {
  return tokenSubscriptionData(await defunctTokenSubscriptionEntity(em, id, externalUpdatedAt));
}
