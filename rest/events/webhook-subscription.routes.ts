// Webhook subscriptions (decisions.md "Events"), their delivery attempts, redelivery, and the
// event log as an audit trail (GET /event, extension).
import * as yup from 'yup';
import { eventList, type EventData } from '../../src/events/event.queries.ts';
import { eventFilterRules } from '../../src/events/event-input-rules.ts';
import { webhookSubscriptionRules } from '../../src/webhooks/webhook-input-rules.ts';
import {
  getWebhookSubscription, webhookAttemptList, webhookSubscriptionList, type WebhookAttemptData, type WebhookSubscriptionData,
} from '../../src/webhooks/webhook-subscription.queries.ts';
import { MODIFICATION_KINDS } from '../../src/events/event.entity.ts';
import {
  createWebhookSubscription, redeliver, updateWebhookSubscription, type WebhookSubscriptionInput,
} from '../../src/webhooks/webhook-subscription.service.ts';
import { iso, text } from '../../src/platform/input-schemas.ts';
import { seekPage } from '../rails/pagination.ts';
import { defineRoute, type RouteDef } from '../rails/route.ts';
import { representation, t, type Infer } from '../rails/shape.ts';

const TAG = 'Events';

export const webhookSubscriptionShape = representation('WebhookSubscription', {
  id: t.string(),
  url: t.string(),
  kinds: t.array(t.string()),
  admin_ids: t.nullable(t.array(t.string())),
  disabled: t.boolean(),
  disabled_reason: t.nullable(t.string()),
  external_reference: t.nullable(t.string()),
  consecutive_failures: t.integer(),
  failing_since: t.nullable(t.timestamp()),
  created_at: t.timestamp(),
  updated_at: t.timestamp(),
});

export function serializeWebhookSubscription(s: WebhookSubscriptionData): Infer<typeof webhookSubscriptionShape> {
  return {
    id: s.id, url: s.url, kinds: s.kinds, admin_ids: s.adminIds ?? null, disabled: s.disabled, disabled_reason: s.disabledReason ?? null,
    external_reference: s.externalReference ?? null, consecutive_failures: s.consecutiveFailures,
    failing_since: iso(s.failingSince), created_at: iso(s.createdAt), updated_at: iso(s.updatedAt),
  };
}

const attemptShape = representation('WebhookDeliveryAttempt', {
  id: t.string(), event_id: t.string(), attempt: t.integer(), succeeded: t.boolean(), status_code: t.nullable(t.integer()),
  error: t.nullable(t.string()), duration_ms: t.integer(), attempted_at: t.timestamp(),
});

const serializeAttempt = (a: WebhookAttemptData): Infer<typeof attemptShape> => ({
  id: String(a.id), event_id: String(a.eventId), attempt: a.attempt, succeeded: a.succeeded, status_code: a.statusCode ?? null,
  error: a.error ?? null, duration_ms: a.durationMs, attempted_at: iso(a.attemptedAt),
});

export const eventShape = representation('Event', {
  id: t.string(), kind: t.string(), resource_id: t.string(), modification_kind: t.enum(MODIFICATION_KINDS), admin_id: t.nullable(t.string()),
  actor: t.string('The credential (public id), `worker` or `system` that caused the change.'),
  changes: t.nullable(t.map(t.schema<[unknown, unknown]>({ type: 'array', prefixItems: [{ description: 'from' }, { description: 'to' }], minItems: 2, maxItems: 2 }),
    'An update: {field: [from, to]} of the fields that changed (the resource kind\'s field names).')), occurred_at: t.timestamp(),
});

export const serializeEvent = (e: EventData): Infer<typeof eventShape> => ({
  id: String(e.id), kind: e.kind, resource_id: e.resourceId, modification_kind: e.modification, admin_id: e.adminId ?? null, actor: e.actor,
  changes: e.changes ?? null, occurred_at: iso(e.occurredAt),
});

const body = yup.object({
  url: webhookSubscriptionRules.url().nullable(),
  kinds: webhookSubscriptionRules.kinds().nullable(),
  secret: webhookSubscriptionRules.secret().nullable(),
  admin_ids: webhookSubscriptionRules.adminIds().nullable(),
  external_reference: webhookSubscriptionRules.externalReference().nullable(),
  disabled: yup.boolean().nullable(),
});
const input = (b: yup.InferType<typeof body>): WebhookSubscriptionInput => ({
  url: b.url, kinds: b.kinds, secret: b.secret, adminIds: b.admin_ids, externalReference: b.external_reference, disabled: b.disabled,
});

export const webhookSubscriptionRoutes: RouteDef[] = [
  defineRoute({
    method: 'get', path: '/webhook-subscription', tag: TAG, summary: 'List webhook subscriptions', paged: true, response: webhookSubscriptionShape,
    handler: ({ ctx, em, rawQuery }) => seekPage(ctx, {
      list: webhookSubscriptionList(em), rawQuery, path: '/main/v1/webhook-subscription', serialize: serializeWebhookSubscription,
    }),
  }),
  defineRoute({
    method: 'post', path: '/webhook-subscription', graphql: 'createWebhookSubscription', tag: TAG, summary: 'Subscribe an HTTPS endpoint to event kinds', body, response: webhookSubscriptionShape,
    description: 'Deliveries are POSTs of {id, occurred_at, modification_kind, kind, data}, signed in X-SVC-Signature: t=<unix>,v1=<hex HMAC-SHA256 of '
      + '"<t>.<body>" with the secret>. Only events after the subscription\'s creation are delivered. The secret is never returned.',
    handler: async ({ em, body: b }) => serializeWebhookSubscription(await createWebhookSubscription(em, input(b))),
  }),
  defineRoute({
    method: 'get', path: '/webhook-subscription/:id', tag: TAG, summary: 'Get a webhook subscription', response: webhookSubscriptionShape,
    handler: async ({ em, params }) => serializeWebhookSubscription(await getWebhookSubscription(em, params.id)),
  }),
  defineRoute({
    method: 'post', path: '/webhook-subscription/:id', graphql: 'updateWebhookSubscription', tag: TAG, summary: 'Merge-update a webhook subscription (disabled: true disables, false enables)',
    body, response: webhookSubscriptionShape,
    handler: async ({ em, params, body: b }) => serializeWebhookSubscription(await updateWebhookSubscription(em, params.id, input(b))),
  }),
  defineRoute({
    method: 'get', path: '/webhook-subscription/:id/delivery', tag: TAG, summary: 'Delivery attempts of a subscription, oldest first', paged: true,
    response: attemptShape,
    handler: async ({ ctx, em, params, rawQuery }) => {
      const subscription = await getWebhookSubscription(em, params.id);
      return seekPage(ctx, { list: webhookAttemptList(em, subscription.id), rawQuery, path: `/main/v1/webhook-subscription/${subscription.id}/delivery`, serialize: serializeAttempt });
    },
  }),
  defineRoute({
    method: 'post', path: '/webhook-subscription/:id/redeliver', graphql: 'redeliverWebhookSubscription', tag: TAG, summary: 'Deliver again from an event on', extension: true,
    body: yup.object({ from_event_id: text(20).defined('${path} is required') }), response: webhookSubscriptionShape,
    handler: async ({ em, params, body: b }) => serializeWebhookSubscription(await redeliver(em, params.id, b.from_event_id)),
  }),
  defineRoute({
    method: 'get', path: '/event', tag: TAG, summary: 'The event log: every create, update and delete, by id (audit trail; webhooks deliver in commit order)', paged: true,
    extension: true, response: eventShape,
    description: 'Filters (AND): kind, resource_id, actor. "Who changed this record, when, from what to what": kind and resource_id.',
    query: yup.object({ kind: eventFilterRules.kind(), resource_id: eventFilterRules.resourceId(), actor: eventFilterRules.actor() }),
    handler: ({ ctx, em, rawQuery, query }) => seekPage(ctx, {
      list: eventList(em, { kind: query.kind || undefined, resourceId: query.resource_id || undefined, actor: query.actor || undefined }),
      rawQuery, path: '/main/v1/event', serialize: serializeEvent,
    }),
  }),
];
