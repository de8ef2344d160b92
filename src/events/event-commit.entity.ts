import { defineEntity, p } from '@mikro-orm/core';

/**
 * The commit of a transaction that recorded events: written once per transaction by a statement
 * trigger on svc_event; at commit a deferred trigger (migration `events`) gives it the next
 * `position` under a transaction-level advisory lock held only for the commit, so positions follow
 * commit order. Events are delivered in (position, event id) order; `committedAt` is their occurred_at.
 */
export const EventCommitSchema = defineEntity({
  name: 'EventCommit',
  tableName: 'svc_event_commit',
  properties: {
    txId: p.bigint('string').primary().autoincrement(false),
    position: p.bigint('string').nullable().unique(),
    committedAt: p.datetime().nullable(),
  },
});

export class EventCommit extends EventCommitSchema.class {}
EventCommitSchema.setClass(EventCommit);
