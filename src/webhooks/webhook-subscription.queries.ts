// Webhook subscriptions and their delivery attempts (REST GET /webhook-subscription[/{id}[/delivery]],
// GraphQL webhookSubscriptions and the WebhookSubscription node), paged by id: plain data, never
// the secret. A subscription belongs to the administrations it names: a credential limited to
// administrations sees only subscriptions within them.
import type { FilterQuery } from '@mikro-orm/core';
import { callerScope, type AdminScope } from '../access/admin-scope.ts';
import { isEventId } from '../events/event.queries.ts';
import { NotFoundError } from '../platform/errors.ts';
import type { Em } from '../platform/orm.ts';
import { plainData, type Data } from '../platform/plain-data.ts';
import { eagerFields } from '../platform/eager-fields.ts';
import { dataByIds, markData, type RowShape } from '../platform/plain-reads.ts';
import { SeekList } from '../platform/seek-page.ts';
import { WebhookAttempt } from './webhook-attempt.entity.ts';
import { WebhookSubscription } from './webhook-subscription.entity.ts';

export type WebhookSubscriptionData = Omit<Data<WebhookSubscription>, 'secretCiphertext'>;
export type WebhookAttemptData = Data<WebhookAttempt>;

const WHAT = 'webhook subscription';

/** The secret is lazy: a read never selects it (the default fields leave lazy ones out). */
const SUBSCRIPTION: RowShape<WebhookSubscriptionData> = { entity: WebhookSubscription, map: (row) => row as WebhookSubscriptionData };

/** Whether a credential of `scope` sees the subscription (the SQL form: webhookSubscriptionList). */
export function isVisibleTo(subscription: Pick<WebhookSubscription, 'allAdmins' | 'adminIds'>, scope: AdminScope): boolean {
  if (scope.all) return true;
  return !subscription.allAdmins && !!subscription.adminIds?.length && subscription.adminIds.every((id) => scope.ids.includes(id));
}

/**
 * The administrations whose events a subscription delivers: every one (events of none too) for a
 * subscription of every administration, else those it names (deliver-webhooks.service.ts, redeliver).
 */
export function deliveredAdministrations(subscription: Pick<WebhookSubscription, 'allAdmins' | 'adminIds'>): AdminScope {
  return subscription.allAdmins && !subscription.adminIds ? { all: true, ids: [] } : { all: false, ids: subscription.adminIds ?? [] };
}

/** The subscriptions a credential of `scope` sees, as a condition (isVisibleTo's SQL form). */
function visibleTo(scope: AdminScope): FilterQuery<WebhookSubscription> {
  return (scope.all ? {} : { allAdmins: false, adminIds: { $contained: scope.ids } }) as FilterQuery<WebhookSubscription>;
}

/** The subscriptions a credential sees: all, or those within its administrations. */
export function webhookSubscriptionList(em: Em): SeekList<WebhookSubscriptionData> {
  const where = visibleTo(callerScope(em));
  return new SeekList<WebhookSubscriptionData>(em, { ...SUBSCRIPTION, fields: eagerFields(em.getMetadata(WebhookSubscription)), where, scope: where });
}

/** GraphQL's WebhookSubscription loader: one query; null for a subscription the caller does not see, as every node. */
export async function webhookSubscriptionsByIds(em: Em, ids: readonly string[]): Promise<(WebhookSubscriptionData | null)[]> {
  const scope = callerScope(em);
  const found = await dataByIds(em, SUBSCRIPTION, ids);
  return found.map((subscription) => (subscription && isVisibleTo(subscription, scope) ? subscription : null));
}

export async function getWebhookSubscription(em: Em, id: string): Promise<WebhookSubscriptionData> {
  const [subscription] = await webhookSubscriptionsByIds(em, [id]);
  if (!subscription) throw new NotFoundError(WHAT);
  return subscription;
}

/**
 * A subscription's delivery attempts, oldest first (the subscription is checked by the caller). Its
 * scope, which `after` is checked with (SeekList.has), is the list itself: attempts of this
 * subscription, and only while the caller sees it (an attempt has no administration of its own).
 */
export function webhookAttemptList(em: Em, subscriptionId: string): SeekList<WebhookAttemptData> {
  const scope = callerScope(em);
  const where: FilterQuery<WebhookAttempt> = scope.all ? { subscriptionId } : {
    subscriptionId: { $in: em.createQueryBuilder(WebhookSubscription, 's').select('s.id').where({ id: subscriptionId, ...visibleTo(scope) as object }) },
  };
  return new SeekList<WebhookAttemptData>(em, { entity: WebhookAttempt, where, scope: where, isKey: isEventId, map: (row) => row as WebhookAttemptData });
}

/** A subscription a service created or changed, as the answers show it (never its secret). */
export function webhookSubscriptionData(subscription: WebhookSubscription): WebhookSubscriptionData {
  const { secretCiphertext: _secret, ...data } = plainData(subscription);
  return markData(data, 'WebhookSubscription');
}
