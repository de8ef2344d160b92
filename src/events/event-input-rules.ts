// The bounds of the event log's filters, one home for REST (GET /event) and GraphQL (events).
// Named as the services name them; REST names its members in snake_case.
import { oneOf, text } from '../platform/input-schemas.ts';
import { knownEventKinds } from './event-kinds.ts';

export const eventFilterRules = {
  /** A known kind (an unknown one is 400 at the filter, not an empty list). */
  kind: () => oneOf(knownEventKinds),
  resourceId: () => text(255),
  actor: () => text(255),
};
