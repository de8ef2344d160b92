import { requestReviewSetOperation } from '../../src/billing/review-set.service.ts';
import { REVIEW_SET_OPERATION_STATES, REVIEW_SET_OPERATIONS } from '../../src/billing/review-set-operation.entity.ts';
import { boxList, type BoxData } from '../../src/billing/billing-box.queries.ts';
import {
  getReviewSetOperation, reviewSetList, reviewSetsByIds, type ReviewSetData, type ReviewSetOperationData,
} from '../../src/billing/review-set.queries.ts';
import { uuid } from '../../src/platform/input-schemas.ts';
import { validate } from '../../src/platform/input-validation.ts';
import { isDataOf } from '../../src/platform/seek-page.ts';
import { DomainError } from '../../src/platform/errors.ts';
import * as yup from 'yup';
import { builder } from '../builder.ts';
import { EMBEDDED_VALUE } from '../query-cost.ts';
import { listConnection } from '../connection.ts';
import { refFromArg } from '../ids.ts';
import { mutate } from '../mutation.ts';
import { BillingBox, BillingBoxConnection, BillingBoxState, PaymentInput, paymentOptions } from './billing-box.ts';
import { DateTime } from './date-time.ts';
import { enumOf } from '../enum.ts';
import { idArg } from '../ids.ts';

const BillingBoxCounts = builder.objectRef<Record<string, number>>('BillingBoxCounts').implement({
  description: 'Boxes of a review-set per state (REST: box_counts; 0 where REST leaves the state out).',
  fields: (t) => ({
    open: t.int({ resolve: (c) => c.open ?? 0 }),
    closed: t.int({ resolve: (c) => c.closed ?? 0 }),
    approved: t.int({ resolve: (c) => c.approved ?? 0 }),
    ready: t.int({ resolve: (c) => c.ready ?? 0 }),
    finalized: t.int({ resolve: (c) => c.finalized ?? 0 }),
  }),
});

export const BillingReviewSet = builder.loadableNode('BillingReviewSet', {
  description: 'The boxes of one billing series and invoicing period, reviewed together (REST: /billing-review-set).',
  id: { resolve: (set: ReviewSetData) => set.id },
  cacheResolved: (set) => set.id,
  isTypeOf: (value) => isDataOf(value, 'ReviewSet'),
  load: (ids: string[], context) => reviewSetsByIds(context.em, ids) as Promise<ReviewSetData[]>,
  fields: (t) => ({
    databaseId: t.exposeString('id'),
    adminId: t.exposeString('adminId'),
    code: t.exposeString('code'),
    seriesCode: t.exposeString('seriesCode'),
    periodFrom: t.field({ type: DateTime, resolve: (s) => s.periodFrom }),
    periodUntil: t.field({ type: DateTime, resolve: (s) => s.periodUntil }),
    state: t.exposeString('state', { description: 'open or closed.' }),
    closedAt: t.field({ type: DateTime, nullable: true, resolve: (s) => s.closedAt }),
    boxCounts: t.field({ type: BillingBoxCounts, extensions: EMBEDDED_VALUE, description: 'Boxes per state.', resolve: (s) => s.boxCounts }),
    deferredBoxCount: t.exposeInt('deferredCount'),
    boxes: t.connection({
      type: BillingBox, description: 'Its boxes by id.', args: { state: t.arg({ type: BillingBoxState }) },
      resolve: (set, args, context) => listConnection<BoxData>(boxList(context.em, { reviewSetId: set.id, state: args.state ?? undefined }), args),
    }, BillingBoxConnection),
  }),
});

const setId = (id: string | number) => (refFromArg(String(id), 'BillingReviewSet', false) as { id: string }).id;
const listRules = yup.object({ seriesId: uuid().nullable() });

builder.queryFields((t) => ({
  billingReviewSets: t.connection({
    type: BillingReviewSet,
    description: 'Review-sets by id (REST: GET /billing-review-set).',
    args: { seriesId: t.arg.id() },
    resolve: (_root, args, context) => {
      validate(listRules, { seriesId: args.seriesId });
      return listConnection<ReviewSetData>(reviewSetList(context.em, { seriesId: args.seriesId ? String(args.seriesId) : undefined }), args);
    },
  }),
  billingReviewSet: t.field({
    type: BillingReviewSet, nullable: true, args: { id: t.arg.id({ required: true }) }, resolve: (_root, args) => setId(args.id),
  }),
}));

const ReviewSetOperationKind = enumOf('BillingReviewSetOperationKind', REVIEW_SET_OPERATIONS, 'What the operation does to its review-set.');
const ReviewSetOperationState = enumOf('BillingReviewSetOperationState', REVIEW_SET_OPERATION_STATES, 'pending until the worker is through, then done or failed.');

const ReviewSetOperationError = builder.objectRef<{ code: string; message: string }>('BillingReviewSetOperationError').implement({
  description: 'Why a failed operation was refused (the set was closed by other means meanwhile: invalid_state).',
  fields: (t) => ({ code: t.exposeString('code'), message: t.exposeString('message') }),
});

export const BillingReviewSetOperation = builder.objectRef<ReviewSetOperationData>('BillingReviewSetOperation').implement({
  description: 'A close or approve of a review-set, run as a job (REST: /billing-review-set-operation). Follow it with billingReviewSetOperation.',
  fields: (t) => ({
    databaseId: t.exposeString('id'),
    operation: t.field({ type: ReviewSetOperationKind, resolve: (o) => o.operation }),
    state: t.field({ type: ReviewSetOperationState, resolve: (o) => o.state }),
    error: t.field({
      type: ReviewSetOperationError, nullable: true,
      resolve: (o) => (o.state === 'failed' ? { code: o.errorCode ?? 'internal_error', message: o.errorMessage ?? '' } : null),
    }),
    createdAt: t.field({ type: DateTime, resolve: (o) => o.createdAt }),
    finishedAt: t.field({ type: DateTime, nullable: true, resolve: (o) => o.finishedAt ?? null }),
    reviewSet: t.field({ type: BillingReviewSet, nullable: true, resolve: (o) => o.reviewSetId }),
  }),
});

builder.queryFields((t) => ({
  billingReviewSetOperation: t.field({
    type: BillingReviewSetOperation, nullable: true, args: { id: t.arg.id({ required: true }) },
    description: 'A close or approve of a review-set: pending, then done or failed (REST: GET /billing-review-set-operation/{id}).',
    resolve: async (_root, args, context) => {
      try {
        return await getReviewSetOperation(context.em, idArg(args.id, 'BillingReviewSetOperation'));
      } catch (error) {
        if (error instanceof DomainError && error.code === 'not_found') return null;
        throw error;
      }
    },
  }),
}));

const RUNS_AS_JOB = ' It runs as a job: the answer is the pending operation; follow it with billingReviewSetOperation.';

builder.mutationFields((t) => ({
  closeBillingReviewSet: t.field({
    type: BillingReviewSetOperation, nullable: true,
    description: `Bills the period's fees, then closes every open box of the set.${RUNS_AS_JOB} Asked again while the close is pending, the answer is that operation.`,
    args: { id: t.arg.id({ required: true }) },
    resolve: (_root, args, context) => mutate(context, null, (em) => requestReviewSetOperation(em, setId(args.id), 'close', context.actor.publicId)),
  }),
  approveBillingReviewSet: t.field({
    type: BillingReviewSetOperation, nullable: true, description: `Approves the closed boxes of the set that are not deferred.${RUNS_AS_JOB}`,
    args: { id: t.arg.id({ required: true }), payment: t.arg({ type: PaymentInput }) },
    resolve: (_root, args, context) => mutate(context, 'payment',
      (em) => requestReviewSetOperation(em, setId(args.id), 'approve', context.actor.publicId, paymentOptions(args.payment))),
  }),
}));
