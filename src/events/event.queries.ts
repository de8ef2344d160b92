// The event log as an audit trail (REST GET /event, GraphQL events): who changed which record,
// when, from what to what; paged by id, the order the events were written in (their transactions
// commit in an order of their own: a page may show an event while one of a smaller id is still to
// commit; webhook deliveries follow the commit positions instead). A credential limited to
// administrations sees the events of those administrations only. Plain data, without the
// rendered `data` a delivery carries.
import type { FilterQuery } from '@mikro-orm/core';
import type { Em } from '../platform/orm.ts';
import type { Data } from '../platform/plain-data.ts';
import { eagerFields } from '../platform/eager-fields.ts';
import { SeekList } from '../platform/seek-page.ts';
import { Event } from './event.entity.ts';
import { callerScope } from '../access/admin-scope.ts';

export interface EventFilter { kind?: string; resourceId?: string; actor?: string }

export type EventData = Omit<Data<Event>, 'data'>;

const MAX_BIGINT = 9223372036854775807n;

/** An event's id (and a delivery attempt's): a positive bigint (19 digits may exceed one: a 500 of the statement). */
export const isEventId = (value: string) => /^[1-9]\d{0,18}$/.test(value) && BigInt(value) <= MAX_BIGINT;

export function eventList(em: Em, filter: EventFilter = {}): SeekList<EventData> {
  const scope = callerScope(em);
  const visible: FilterQuery<Event> = scope.all ? {} : { adminId: { $in: scope.ids } };
  const where: FilterQuery<Event> = {
    ...(filter.kind ? { kind: filter.kind } : {}),
    ...(filter.resourceId ? { resourceId: filter.resourceId } : {}),
    ...(filter.actor ? { actor: filter.actor } : {}),
    ...visible,
  };
  return new SeekList<EventData>(em, {
    entity: Event, where, scope: visible, isKey: isEventId, fields: eagerFields(em.getMetadata(Event)), map: (row) => row as EventData,
  });
}
