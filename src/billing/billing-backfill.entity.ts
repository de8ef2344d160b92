import { defineEntity, p } from '@mikro-orm/core';
import { adminScopeFilter } from '../access/admin-scope.ts';
import { idProperty } from '../platform/entity-properties.ts';
import { Administration } from '../parties/administration.entity.ts';

export const BACKFILL_STATES = ['pending', 'running', 'done', 'failed'] as const;
export type BackfillState = (typeof BACKFILL_STATES)[number];

/**
 * The progress of an administration's billing backfill (billing what was priced before its first
 * series, src/billing/billing-backfill.service.ts): one row per administration, its latest run.
 * `pending` from the series' transaction until the worker starts it; `running` with batches and
 * sessions done of the totals counted at its start (a run that meets sessions priced meanwhile
 * raises the totals); `done`; or `failed` with the reason (the job is retried: `running` again).
 */
export const BillingBackfillSchema = defineEntity({
  name: 'BillingBackfill',
  tableName: 'billing_backfill',
  filters: adminScopeFilter('admin'),
  properties: {
    id: idProperty(),
    admin: () => p.manyToOne(Administration).unique(),
    state: p.enum(BACKFILL_STATES),
    batchesDone: p.integer().default(0),
    batchesTotal: p.integer().default(0),
    sessionsDone: p.integer().default(0),
    sessionsTotal: p.integer().default(0),
    startedAt: p.datetime().nullable(),
    finishedAt: p.datetime().nullable(),
    error: p.text().nullable(),
    updatedAt: p.datetime(),
  },
});

export class BillingBackfill extends BillingBackfillSchema.class {}
BillingBackfillSchema.setClass(BillingBackfill);
