import { defineEntity, p } from '@mikro-orm/core';
import { DomainError } from '../platform/errors.ts';
import { createdAtProperty, idProperty, identifierProperty, updatedAtProperty } from '../platform/entity-properties.ts';
import { recordsEvents } from '../events/event-kinds.ts';

/**
 * Where events of some kinds go: an HTTP endpoint, signed with the subscription's secret (stored
 * encrypted, secret-box.ts). `adminIds` limits it to administrations (null: every administration
 * its creator sees, `allAdmins`). (`lastPosition`, `lastEventId`) is the delivery cursor: every event
 * after it in (commit position, event id) order of the subscription's kinds and administrations is
 * still to be delivered.
 */
export const WebhookSubscriptionSchema = defineEntity({
  name: 'WebhookSubscription',
  tableName: 'webhook_subscription',
  properties: {
    id: idProperty(),
    url: p.text(),
    kinds: p.json<string[]>(),
    adminIds: p.json<string[]>().nullable(),
    /** The creator sees every administration: null adminIds means all of them. */
    allAdmins: p.boolean().default(false),
    secretCiphertext: p.text().lazy(),
    disabled: p.boolean().default(false),
    disabledReason: p.string().nullable(),
    externalReference: identifierProperty().nullable().unique(),
    lastPosition: p.bigint('string'),
    lastEventId: p.bigint('string').default('0'),
    consecutiveFailures: p.integer().default(0),
    failingSince: p.datetime().nullable(),
    createdAt: createdAtProperty(),
    updatedAt: updatedAtProperty(),
  },
});

export class WebhookSubscription extends WebhookSubscriptionSchema.class {
  disable(reason: string): void {
    this.disabled = true;
    this.disabledReason = reason;
  }

  enable(): void {
    if (!this.disabled) return;
    this.disabled = false;
    this.disabledReason = null;
    this.consecutiveFailures = 0;
    this.failingSince = null;
  }

  assertDeliverable(): void {
    if (this.disabled) throw new DomainError('invalid_state', 'the webhook subscription is disabled');
  }
}
WebhookSubscriptionSchema.setClass(WebhookSubscription);
// Delivery bookkeeping (cursor, failure count) is not a change of the subscription (the delivery
// writes it with plain SQL anyway); the secret's ciphertext never appears in an event.
recordsEvents<WebhookSubscription>(WebhookSubscription, 'webhook_subscription', {
  adminOf: () => null, ignore: ['lastPosition', 'lastEventId', 'consecutiveFailures', 'failingSince'], secret: ['secretCiphertext'],
});
