import * as yup from 'yup';
import { approveReviewSet, closeReviewSet } from '../../src/billing/review-set.service.ts';
import { getReviewSet, reviewSetList, type ReviewSetData } from '../../src/billing/review-set.queries.ts';
import { iso, oneOf, text, uuid } from '../../src/platform/input-schemas.ts';
import { seekPage } from '../rails/pagination.ts';
import { paymentBody, paymentOptions } from './payment-body.ts';
import { defineRoute, type RouteDef } from '../rails/route.ts';
import { representation, t, type Infer } from '../rails/shape.ts';

const TAG = 'Billing';

export const reviewSetShape = representation('BillingReviewSet', {
  id: t.string(),
  admin_id: t.string(),
  billing_series_id: t.string(),
  billing_series_code: t.string(),
  code: t.string(),
  period_from: t.timestamp(),
  period_until: t.timestamp(),
  state: t.string('open or closed'),
  closed_at: t.nullable(t.timestamp()),
  box_counts: t.record(t.integer()),
  deferred_box_count: t.integer(),
  created_at: t.timestamp(),
  updated_at: t.timestamp(),
});

const serialize = (r: ReviewSetData): Infer<typeof reviewSetShape> => ({
  id: r.id, admin_id: r.adminId, billing_series_id: r.seriesId, billing_series_code: r.seriesCode, code: r.code,
  period_from: iso(r.periodFrom), period_until: iso(r.periodUntil), state: r.state, closed_at: iso(r.closedAt), box_counts: r.boxCounts,
  deferred_box_count: r.deferredCount, created_at: iso(r.createdAt), updated_at: iso(r.updatedAt),
});

export const billingReviewSetRoutes: RouteDef[] = [
  defineRoute({
    method: 'get', path: '/billing-review-set', tag: TAG, paged: true, summary: 'List review-sets (one per series and invoicing period)',
    response: reviewSetShape, query: yup.object({ billing_series_id: uuid(), state: oneOf(['open', 'closed'] as const) }),
    handler: async ({ ctx, em, query, rawQuery }) =>
      seekPage(ctx, { list: reviewSetList(em, { seriesId: query.billing_series_id, state: query.state }), rawQuery, path: ctx.path, serialize }),
  }),
  defineRoute({
    method: 'get', path: '/billing-reviewset-id/:id', tag: TAG, summary: 'Get a review-set', response: reviewSetShape,
    handler: async ({ em, params }) => serialize(await getReviewSet(em, params.id)),
  }),
  defineRoute({
    method: 'get', path: '/billing-review-set/:id', tag: TAG, extension: true, summary: 'Get a review-set', response: reviewSetShape,
    handler: async ({ em, params }) => serialize(await getReviewSet(em, params.id)),
  }),
  defineRoute({
    method: 'post', path: '/billing-review-set/:id/close', tag: TAG, extension: true, response: reviewSetShape,
    summary: "Close a review-set: the period's subscription fees are billed, then every open box of the set is closed",
    handler: async ({ em, params }) => serialize(await closeReviewSet(em, params.id)),
  }),
  defineRoute({
    method: 'post', path: '/billing-review-set/:id/approve', tag: TAG, extension: true, body: paymentBody, bodyOptional: true,
    response: reviewSetShape, summary: 'Approve the closed boxes of a review-set that are not deferred',
    handler: async ({ em, params, body }) => serialize(await approveReviewSet(em, params.id, paymentOptions(body))),
  }),
];
