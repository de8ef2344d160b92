// Webhook subscriptions and their delivery attempts as lists (REST GET /webhook-subscription and its
// attempts, GraphQL webhookSubscriptions), paged by id.
import type { FilterQuery } from '@mikro-orm/core';
import { callerScope } from '../access/admin-scope.ts';
import { isEventId } from '../events/event.queries.ts';
import type { Em } from '../platform/orm.ts';
import { SeekList } from '../platform/seek-page.ts';
import { WebhookAttempt } from './webhook-attempt.entity.ts';
import { WebhookSubscription } from './webhook-subscription.entity.ts';

/** The subscriptions a credential sees: all, or those within its administrations. */
export function webhookSubscriptionList(em: Em): SeekList<WebhookSubscription> {
  const scope = callerScope(em);
  const where = (scope.all ? {} : { allAdmins: false, adminIds: { $contained: scope.ids } }) as FilterQuery<WebhookSubscription>;
  return new SeekList<WebhookSubscription>(em, { entity: WebhookSubscription, where, entities: true });
}

/** A subscription's delivery attempts, oldest first (the subscription is checked by the caller). */
export function webhookAttemptList(em: Em, subscriptionId: string): SeekList<WebhookAttempt> {
  return new SeekList<WebhookAttempt>(em, { entity: WebhookAttempt, where: { subscriptionId }, isKey: isEventId, entities: true });
}
