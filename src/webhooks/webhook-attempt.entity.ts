import { defineEntity, p } from '@mikro-orm/core';

/** One delivery attempt of an event to a subscription: the answer's status, or the error. */
export const WebhookAttemptSchema = defineEntity({
  name: 'WebhookAttempt',
  tableName: 'webhook_attempt',
  indexes: [{ properties: ['subscriptionId', 'id'] }],
  properties: {
    id: p.bigint('string').primary().autoincrement(),
    subscriptionId: p.uuid(),
    eventId: p.bigint('string'),
    attempt: p.integer(),
    succeeded: p.boolean(),
    statusCode: p.integer().nullable(),
    error: p.text().nullable(),
    durationMs: p.integer(),
    attemptedAt: p.datetime().onCreate(() => new Date()),
  },
});

export class WebhookAttempt extends WebhookAttemptSchema.class {}
WebhookAttemptSchema.setClass(WebhookAttempt);
