import * as yup from 'yup';
import { requestReviewSetOperation } from '../../src/billing/review-set.service.ts';
import { REVIEW_SET_OPERATION_STATES, REVIEW_SET_OPERATIONS } from '../../src/billing/review-set-operation.entity.ts';
import {
  getReviewSet, getReviewSetOperation, reviewSetList, type ReviewSetData, type ReviewSetOperationData,
} from '../../src/billing/review-set.queries.ts';
import { iso, oneOf, uuid } from '../../src/platform/input-schemas.ts';
import { seekPage } from '../rails/pagination.ts';
import { paymentBody, paymentOptions } from './payment-body.ts';
import { defineRoute, type RouteDef } from '../rails/route.ts';
import type { Context } from 'koa';
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
  box_counts: t.object({
    open: t.optional(t.integer()), closed: t.optional(t.integer()), approved: t.optional(t.integer()), ready: t.optional(t.integer()),
    finalized: t.optional(t.integer()),
  }, 'Boxes per state (a state without boxes is absent).'),
  deferred_box_count: t.integer(),
  created_at: t.timestamp(),
  updated_at: t.timestamp(),
});

const serialize = (r: ReviewSetData): Infer<typeof reviewSetShape> => ({
  id: r.id, admin_id: r.adminId, billing_series_id: r.seriesId, billing_series_code: r.seriesCode, code: r.code,
  period_from: iso(r.periodFrom), period_until: iso(r.periodUntil), state: r.state, closed_at: iso(r.closedAt),
  box_counts: r.boxCounts as Infer<typeof reviewSetShape>['box_counts'],
  deferred_box_count: r.deferredCount, created_at: iso(r.createdAt), updated_at: iso(r.updatedAt),
});

export const reviewSetOperationShape = representation('BillingReviewSetOperation', {
  id: t.string(),
  review_set_id: t.string(),
  admin_id: t.string(),
  operation: t.enum(REVIEW_SET_OPERATIONS),
  state: t.enum(REVIEW_SET_OPERATION_STATES),
  error: t.nullable(t.object({ code: t.string(), message: t.string() }, 'Why a failed operation was refused (the set was closed by other means meanwhile: invalid_state).')),
  created_at: t.timestamp(),
  finished_at: t.nullable(t.timestamp()),
});

const serializeOperation = (o: ReviewSetOperationData): Infer<typeof reviewSetOperationShape> => ({
  id: o.id, review_set_id: o.reviewSetId, admin_id: o.admin.id, operation: o.operation, state: o.state,
  error: o.state === 'failed' ? { code: o.errorCode ?? 'internal_error', message: o.errorMessage ?? '' } : null,
  created_at: iso(o.createdAt), finished_at: iso(o.finishedAt),
});

/** 202: the operation runs as a job; `Location` is where the caller follows it. */
function accepted(ctx: Context, operation: ReviewSetOperationData): Infer<typeof reviewSetOperationShape> {
  ctx.set('Location', `/main/v1/billing-review-set-operation/${operation.id}`);
  return serializeOperation(operation);
}

const FOLLOW = 'The work runs as a job (a set of 10,000 boxes takes longer than a request may wait for the database): the answer is 202 '
  + 'with the operation, `state: pending`, and `Location: /main/v1/billing-review-set-operation/{id}`, which answers it `done` or `failed` '
  + '(with `error`) once the worker is through. Operations of one set run in the order asked for.';

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
    method: 'post', path: '/billing-review-set/:id/close', tag: TAG, graphql: 'closeBillingReviewSet', extension: true, response: reviewSetOperationShape, status: 202,
    summary: "Close a review-set: the period's subscription fees are billed, then every open box of the set is closed",
    description: `${FOLLOW} A set that is not open is refused at once (400 \`invalid_state\`); asked again while its close is pending, the answer is that operation.`,
    handler: async ({ ctx, em, params, actor }) => accepted(ctx, await requestReviewSetOperation(em, params.id, 'close', actor.publicId)),
  }),
  defineRoute({
    method: 'post', path: '/billing-review-set/:id/approve', tag: TAG, graphql: 'approveBillingReviewSet', extension: true, body: paymentBody, bodyOptional: true,
    response: reviewSetOperationShape, status: 202, summary: 'Approve the closed boxes of a review-set that are not deferred',
    description: FOLLOW,
    handler: async ({ ctx, em, params, body, actor }) => accepted(ctx, await requestReviewSetOperation(em, params.id, 'approve', actor.publicId, paymentOptions(body))),
  }),
  defineRoute({
    method: 'get', path: '/billing-review-set-operation/:id', tag: TAG, extension: true, response: reviewSetOperationShape,
    summary: 'Follow a close or approve of a review-set: pending, then done or failed',
    handler: async ({ em, params }) => serializeOperation(await getReviewSetOperation(em, params.id)),
  }),
];
