// The bounds of a webhook subscription's members, one home for REST (/webhook-subscription) and
// GraphQL (create/updateWebhookSubscription). Named as the services name them; REST names its
// members in snake_case.
import * as yup from 'yup';
import { externalRef, text } from '../platform/input-schemas.ts';

export const webhookSubscriptionRules = {
  url: () => text(2000),
  kinds: () => yup.array(text(64).defined()).max(100),
  secret: () => text(256),
  adminIds: () => yup.array(text(64).defined()).max(100),
  externalReference: () => externalRef(),
};
