import { defineEntity, p } from '@mikro-orm/core';

/**
 * The commit of a transaction that recorded events: written at its commit by a deferred trigger
 * queued for its first svc_event row (migrations `event_positions`, `event_commit_mark`), with the
 * next `position` of a sequence, commits side by side; a reader goes up to the settled
 * position (src/events/settled-position.ts). Events are delivered in (position, event id) order;
 * `committedAt`, the moment the position was taken, is their occurred_at.
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
