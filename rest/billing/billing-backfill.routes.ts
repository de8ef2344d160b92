// GET /billing-backfill (extension): the progress of billing what was priced before each
// administration's first series (src/billing/billing-backfill.service.ts), one item per
// administration the caller sees.
import * as yup from 'yup';
import { BACKFILL_STATES } from '../../src/billing/billing-backfill.entity.ts';
import { backfillList, type BackfillData } from '../../src/billing/billing-backfill.queries.ts';
import { iso, text } from '../../src/platform/input-schemas.ts';
import { seekPage } from '../rails/pagination.ts';
import { defineRoute, type RouteDef } from '../rails/route.ts';
import { representation, t, type Infer } from '../rails/shape.ts';

export const backfillShape = representation('BillingBackfill', {
  admin_id: t.string(),
  state: t.enum(BACKFILL_STATES),
  batches_done: t.integer(),
  batches_total: t.integer('Counted at the start; sessions priced meanwhile may raise it.'),
  sessions_done: t.integer(),
  sessions_total: t.integer('Counted at the start; sessions priced meanwhile may raise it.'),
  started_at: t.nullable(t.timestamp()),
  finished_at: t.nullable(t.timestamp()),
  error: t.nullable(t.string('Why the last run failed (the job is tried again).')),
}, 'The billing backfill of an administration: its latest run, from pending (the series was created) through running to done or failed.');

const serializeBackfill = (b: BackfillData): Infer<typeof backfillShape> => ({
  admin_id: b.adminId, state: b.state, batches_done: b.batchesDone, batches_total: b.batchesTotal,
  sessions_done: b.sessionsDone, sessions_total: b.sessionsTotal,
  started_at: b.startedAt ? iso(b.startedAt) : null, finished_at: b.finishedAt ? iso(b.finishedAt) : null, error: b.error,
});

export const billingBackfillRoutes: RouteDef[] = [
  defineRoute({
    method: 'get', path: '/billing-backfill', tag: 'Billing configuration', extension: true, paged: true, response: backfillShape,
    summary: 'Progress of billing what was priced before each administration\'s first series',
    description: 'Creating an administration\'s first billing series bills the sessions priced before, in batches (SVC_BILLING_BACKFILL_BATCH '
      + 'sessions each) run by the worker. One item per administration the caller sees: its latest run.',
    query: yup.object({ admin_id: text(64) }),
    handler: async ({ ctx, em, query, rawQuery }) => seekPage(ctx, { list: backfillList(em, { adminId: query.admin_id }), rawQuery, path: ctx.path, serialize: serializeBackfill }),
  }),
];
