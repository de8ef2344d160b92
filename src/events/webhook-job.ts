// The graphile-worker task that delivers a subscription's events (deliver-webhooks.service.ts);
// one job per subscription (job key `webhook:<id>`) in a queue of its own (queue name `webhook:<id>`:
// graphile-worker runs a queue's jobs one after the other), so one message is in flight per subscription.
export const WEBHOOK_DELIVER = 'webhook_deliver';

export interface WebhookDeliverJob { subscription_id: string }

export function isWebhookDeliverJob(payload: unknown): payload is WebhookDeliverJob {
  return typeof payload === 'object' && payload !== null && typeof (payload as WebhookDeliverJob).subscription_id === 'string';
}
