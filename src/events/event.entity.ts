import { defineEntity, p } from '@mikro-orm/core';

export const MODIFICATION_KINDS = ['create', 'update', 'delete'] as const;
export type ModificationKind = (typeof MODIFICATION_KINDS)[number];

/**
 * The outbox and audit trail: one row per create, update or delete of a resource the API exposes,
 * written in the transaction of the change (by the ORM subscriber record-events.ts, or by the
 * set-based writers through event-sql.ts). `txId` names the transaction, whose commit position
 * (event-commit.entity.ts) orders deliveries. `changes` holds `{field: [from, to]}` of an update,
 * `data` what a delivery carries.
 */
export const EventSchema = defineEntity({
  name: 'Event',
  tableName: 'svc_event',
  indexes: [{ properties: ['kind', 'resourceId', 'id'] }, { properties: ['txId'] }],
  properties: {
    id: p.bigint('string').primary().autoincrement(),
    kind: p.string(),
    resourceId: p.string(),
    modification: p.enum(MODIFICATION_KINDS),
    adminId: p.string().nullable().index(),
    actor: p.string(),
    changes: p.json<Record<string, [unknown, unknown]>>().nullable(),
    /** The resource as its GET answered when the change committed (record-events.ts); dropped after delivery and retention. */
    data: p.json<unknown>().nullable().lazy().default(null),
    occurredAt: p.datetime().onCreate(() => new Date()),
    txId: p.bigint('string').defaultRaw('txid_current()'),
  },
});

export class Event extends EventSchema.class {}
EventSchema.setClass(Event);
