// Webhook subscriptions and the event log (audit trail) for consoles; the same services and
// queries as REST /webhook-subscription and /event.
import * as yup from 'yup';
import { eventFilterRules } from '../../src/events/event-input-rules.ts';
import { eventList, type EventData } from '../../src/events/event.queries.ts';
import { webhookSubscriptionRules } from '../../src/webhooks/webhook-input-rules.ts';
import {
  webhookAttemptList, webhookSubscriptionList, webhookSubscriptionsByIds, type WebhookAttemptData, type WebhookSubscriptionData,
} from '../../src/webhooks/webhook-subscription.queries.ts';
import {
  createWebhookSubscription, redeliver, updateWebhookSubscription, type WebhookSubscriptionInput,
} from '../../src/webhooks/webhook-subscription.service.ts';
import { text } from '../../src/platform/input-schemas.ts';
import { validate } from '../../src/platform/input-validation.ts';
import { isDataOf } from '../../src/platform/seek-page.ts';
import { builder } from '../builder.ts';
import { listConnection } from '../connection.ts';
import { refFromArg } from '../ids.ts';
import { FIELD_ARGUMENTS, mutate } from '../mutation.ts';
import { DateTime } from './date-time.ts';
import { JsonScalar } from './json.ts';

const WebhookDeliveryAttempt = builder.objectRef<WebhookAttemptData>('WebhookDeliveryAttempt').implement({
  description: 'One attempt to deliver an event (REST: /webhook-subscription/{id}/delivery).',
  fields: (t) => ({
    databaseId: t.string({ resolve: (a) => String(a.id) }),
    eventId: t.string({ resolve: (a) => String(a.eventId) }),
    attempt: t.exposeInt('attempt'),
    succeeded: t.exposeBoolean('succeeded'),
    statusCode: t.int({ nullable: true, resolve: (a) => a.statusCode ?? null }),
    error: t.string({ nullable: true, resolve: (a) => a.error ?? null }),
    durationMs: t.exposeInt('durationMs'),
    attemptedAt: t.field({ type: DateTime, resolve: (a) => a.attemptedAt }),
  }),
});

export const WebhookSubscription = builder.loadableNode('WebhookSubscription', {
  description: 'Where events of some kinds are delivered (REST: /webhook-subscription). The secret is never answered.',
  id: { resolve: (s: WebhookSubscriptionData) => s.id },
  cacheResolved: (s) => s.id,
  isTypeOf: (value) => isDataOf(value, 'WebhookSubscription'),
  load: (ids: string[], context) => webhookSubscriptionsByIds(context.em, ids),
  fields: (t) => ({
    databaseId: t.exposeString('id'),
    url: t.exposeString('url'),
    kinds: t.exposeStringList('kinds'),
    adminIds: t.stringList({ nullable: true, description: 'Null: every administration.', resolve: (s) => s.adminIds ?? null }),
    disabled: t.exposeBoolean('disabled'),
    disabledReason: t.string({ nullable: true, resolve: (s) => s.disabledReason ?? null }),
    consecutiveFailures: t.exposeInt('consecutiveFailures'),
    failingSince: t.field({ type: DateTime, nullable: true, resolve: (s) => s.failingSince ?? null }),
    createdAt: t.field({ type: DateTime, resolve: (s) => s.createdAt }),
    deliveryAttempts: t.connection({
      type: WebhookDeliveryAttempt, description: 'Its delivery log: attempts oldest first (REST: GET /webhook-subscription/{id}/delivery).',
      resolve: (s, args, context) => listConnection<WebhookAttemptData & { id: string }>(webhookAttemptList(context.em, s.id), args),
    }),
  }),
});

const AuditEvent = builder.objectRef<EventData>('AuditEvent').implement({
  description: 'One create, update or delete (REST: GET /event): who (actor), when, and for an update the fields from → to.',
  fields: (t) => ({
    eventId: t.string({ description: 'The event id (REST id, envelope id of deliveries).', resolve: (e) => String(e.id) }),
    kind: t.exposeString('kind'),
    resourceId: t.exposeString('resourceId'),
    modificationKind: t.string({ resolve: (e) => e.modification }),
    adminId: t.string({ nullable: true, resolve: (e) => e.adminId ?? null }),
    actor: t.exposeString('actor'),
    changes: t.field({ type: JsonScalar, nullable: true, description: '{field: [from, to]} of an update.', resolve: (e) => e.changes ?? null }),
    occurredAt: t.field({ type: DateTime, resolve: (e) => e.occurredAt }),
  }),
});

/** What GraphQL types cannot say: the bounds of REST GET /event and of the /webhook-subscription body. */
const filterRules = yup.object({ kind: eventFilterRules.kind(), resourceId: eventFilterRules.resourceId(), actor: eventFilterRules.actor() });
// Null passes to the service as REST's body lets it: it clears adminIds and externalReference, and is
// 400 invalid_input at url, kinds, secret and disabled ("cannot be cleared").
const subscriptionRules = yup.object({
  url: webhookSubscriptionRules.url().nullable(), kinds: webhookSubscriptionRules.kinds().nullable(), secret: webhookSubscriptionRules.secret().nullable(),
  adminIds: webhookSubscriptionRules.adminIds().nullable(), externalReference: webhookSubscriptionRules.externalReference().nullable(),
  disabled: yup.boolean().nullable(),
});

const redeliverRules = yup.object({ fromEventId: text(20).defined('${path} is required') });

const SubscriptionConnection = builder.connectionObject({ type: WebhookSubscription, name: 'WebhookSubscriptionConnection' }, { name: 'WebhookSubscriptionEdge' });
const EventConnection = builder.connectionObject({ type: AuditEvent, name: 'AuditEventConnection' }, { name: 'AuditEventEdge' });

builder.queryFields((t) => ({
  webhookSubscriptions: t.connection({
    type: WebhookSubscription, description: 'Webhook subscriptions the caller sees (REST: GET /webhook-subscription).',
    resolve: (_root, args, context) => listConnection<WebhookSubscriptionData>(webhookSubscriptionList(context.em), args),
  }, SubscriptionConnection),
  events: t.connection({
    type: AuditEvent, description: 'The event log in commit order, as an audit trail (REST: GET /event).',
    args: { kind: t.arg.string(), resourceId: t.arg.string(), actor: t.arg.string() },
    resolve: (_root, args, context) => {
      const filter = { kind: args.kind || undefined, resourceId: args.resourceId || undefined, actor: args.actor || undefined };
      validate(filterRules, filter);
      return listConnection<EventData>(eventList(context.em, filter), args);
    },
  }, EventConnection),
}));

const subscriptionId = (raw: string | number) => {
  const ref = refFromArg(String(raw), 'WebhookSubscription', false);
  return 'id' in ref ? ref.id : String(raw);
};

builder.mutationFields((t) => ({
  createWebhookSubscription: t.field({
    type: WebhookSubscription, nullable: true, description: 'REST: POST /webhook-subscription.',
    args: {
      url: t.arg.string({ required: true }), kinds: t.arg.stringList({ required: true }), secret: t.arg.string({ required: true }),
      adminIds: t.arg.stringList(), externalReference: t.arg.string(),
    },
    resolve: (_root, args, context) => {
      const input = { url: args.url, kinds: args.kinds, secret: args.secret, adminIds: args.adminIds ?? undefined, externalReference: args.externalReference ?? undefined };
      validate(subscriptionRules, input);
      return mutate(context, FIELD_ARGUMENTS, (em) => createWebhookSubscription(em, input));
    },
  }),
  updateWebhookSubscription: t.field({
    type: WebhookSubscription, nullable: true,
    description: 'Merge-update: an absent argument is unchanged; disabled: true disables, false enables; null clears adminIds (every administration, or '
      + 'the caller\'s) and externalReference, and is refused for url, kinds, secret and disabled (REST: POST /webhook-subscription/{id}).',
    args: {
      id: t.arg.id({ required: true }), url: t.arg.string(), kinds: t.arg.stringList(), secret: t.arg.string(), disabled: t.arg.boolean(),
      adminIds: t.arg.stringList(), externalReference: t.arg.string(),
    },
    resolve: (_root, args, context) => {
      // Absent stays undefined and null stays null: the service tells them apart as REST's body does.
      const input: WebhookSubscriptionInput = {
        url: args.url, kinds: args.kinds, secret: args.secret, disabled: args.disabled, adminIds: args.adminIds, externalReference: args.externalReference,
      };
      validate(subscriptionRules, input);
      return mutate(context, FIELD_ARGUMENTS, (em) => updateWebhookSubscription(em, subscriptionId(args.id), input));
    },
  }),
  redeliverWebhookSubscription: t.field({
    type: WebhookSubscription, nullable: true, description: 'Delivers again from an event on (REST: POST /webhook-subscription/{id}/redeliver).',
    args: { id: t.arg.id({ required: true }), fromEventId: t.arg.string({ required: true, description: 'The event id (AuditEvent.eventId).' }) },
    resolve: (_root, args, context) => {
      validate(redeliverRules, { fromEventId: args.fromEventId });
      return mutate(context, FIELD_ARGUMENTS, (em) => redeliver(em, subscriptionId(args.id), args.fromEventId));
    },
  }),
}));
