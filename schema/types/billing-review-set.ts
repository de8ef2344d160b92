import { approveReviewSet, closeReviewSet } from '../../src/billing/review-set.service.ts';
import { boxList, type BoxData } from '../../src/billing/billing-box.queries.ts';
import { reviewSetList, reviewSetsByIds, type ReviewSetData } from '../../src/billing/review-set.queries.ts';
import { uuid } from '../../src/platform/input-schemas.ts';
import { validate } from '../../src/platform/input-validation.ts';
import * as yup from 'yup';
import { builder } from '../builder.ts';
import { listConnection } from '../connection.ts';
import { refFromArg } from '../ids.ts';
import { mutate } from '../mutation.ts';
import { BillingBox, BillingBoxConnection, BillingBoxState, PaymentInput, paymentOptions } from './billing-box.ts';
import { DateTime } from './date-time.ts';
import { JsonScalar } from './json.ts';

export const BillingReviewSet = builder.loadableNode('BillingReviewSet', {
  description: 'The boxes of one billing series and invoicing period, reviewed together (REST: /billing-review-set).',
  id: { resolve: (set: ReviewSetData) => set.id },
  cacheResolved: (set) => set.id,
  isTypeOf: (value) => typeof value === 'object' && value !== null && 'boxCounts' in value,
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
    boxCounts: t.field({ type: JsonScalar, description: 'Boxes per state.', resolve: (s) => s.boxCounts }),
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

builder.mutationFields((t) => ({
  closeBillingReviewSet: t.field({
    type: BillingReviewSet, nullable: true, description: "Bills the period's fees, then closes every open box of the set.",
    args: { id: t.arg.id({ required: true }) },
    resolve: (_root, args, context) => mutate(context, null, (em) => closeReviewSet(em, setId(args.id))),
  }),
  approveBillingReviewSet: t.field({
    type: BillingReviewSet, nullable: true, description: 'Approves the closed boxes of the set that are not deferred.',
    args: { id: t.arg.id({ required: true }), payment: t.arg({ type: PaymentInput }) },
    resolve: (_root, args, context) => mutate(context, 'payment', (em) => approveReviewSet(em, setId(args.id), paymentOptions(args.payment))),
  }),
}));
