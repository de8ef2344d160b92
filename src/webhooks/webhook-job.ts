// The graphile-worker task that delivers a subscription's events (deliver-webhooks.service.ts);
// one job per subscription (job key `webhook:<id>`); a run holds the subscription's session-level
// advisory lock, so one message is in flight per subscription, and a crashed run's lock goes with
// its connection (a queue or job lock of graphile-worker would wait hours for a dead worker).
export const WEBHOOK_DELIVER = 'webhook_deliver';

export interface WebhookDeliverJob { subscription_id: string }

export function isWebhookDeliverJob(payload: unknown): payload is WebhookDeliverJob {
  return typeof payload === 'object' && payload !== null && typeof (payload as WebhookDeliverJob).subscription_id === 'string';
}
