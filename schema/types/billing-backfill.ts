// The GraphQL twin of GET /billing-backfill: the progress of billing what was priced before each
// administration's first series, one item per administration the caller sees.
import { BACKFILL_STATES } from '../../src/billing/billing-backfill.entity.ts';
import { backfillList, type BackfillData } from '../../src/billing/billing-backfill.queries.ts';
import { builder } from '../builder.ts';
import { listConnection } from '../connection.ts';
import { enumOf } from '../enum.ts';
import { DateTime } from './date-time.ts';

const BillingBackfillState = enumOf('BillingBackfillState', BACKFILL_STATES,
  'pending (the series was created), running, done, or failed (the job is tried again).');

export const BillingBackfill = builder.objectRef<BackfillData>('BillingBackfill').implement({
  description: 'The billing backfill of an administration: its latest run (REST: GET /billing-backfill).',
  fields: (t) => ({
    adminId: t.exposeString('adminId'),
    state: t.field({ type: BillingBackfillState, resolve: (b) => b.state }),
    batchesDone: t.exposeInt('batchesDone'),
    batchesTotal: t.exposeInt('batchesTotal', { description: 'Counted at the start; sessions priced meanwhile may raise it.' }),
    sessionsDone: t.exposeInt('sessionsDone'),
    sessionsTotal: t.exposeInt('sessionsTotal', { description: 'Counted at the start; sessions priced meanwhile may raise it.' }),
    startedAt: t.field({ type: DateTime, nullable: true, resolve: (b) => b.startedAt }),
    finishedAt: t.field({ type: DateTime, nullable: true, resolve: (b) => b.finishedAt }),
    error: t.exposeString('error', { nullable: true, description: 'Why the last run failed.' }),
  }),
});

builder.queryFields((t) => ({
  billingBackfills: t.connection({
    type: BillingBackfill,
    description: 'Billing backfills of the administrations the caller sees (REST: GET /billing-backfill).',
    args: { adminId: t.arg.string() },
    resolve: (_root, args, context) => listConnection<BackfillData>(backfillList(context.em, { adminId: args.adminId ?? undefined }), args),
  }),
}));
