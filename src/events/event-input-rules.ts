// The bounds of the event log's filters and of a webhook subscription's members, one home for
// REST (GET /event, /webhook-subscription) and GraphQL (events, create/updateWebhookSubscription).
// Named as the services name them; REST names its members in snake_case.
import * as yup from 'yup';
import { oneOf, text } from '../platform/input-schemas.ts';
import { knownEventKinds } from './event-kinds.ts';

export const eventFilterRules = {
  /** A known kind (an unknown one is 400 at the filter, not an empty list). */
  kind: () => oneOf(knownEventKinds),
  resourceId: () => text(255),
  actor: () => text(255),
};

export const webhookSubscriptionRules = {
  url: () => text(2000),
  kinds: () => yup.array(text(64).defined()).max(100),
  secret: () => text(256),
  adminIds: () => yup.array(text(64).defined()).max(100),
  externalReference: () => text(),
};
