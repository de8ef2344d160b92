import { defineEntity, p } from '@mikro-orm/core';
import { adminScopeFilter } from '../access/admin-scope.ts';
import { createdAtProperty, idProperty } from '../platform/entity-properties.ts';
import { Administration } from '../parties/administration.entity.ts';
import type { PaymentOptions } from './billing-box.entity.ts';

export const REVIEW_SET_OPERATIONS = ['close', 'approve'] as const;
export type ReviewSetOperationKind = (typeof REVIEW_SET_OPERATIONS)[number];
export const REVIEW_SET_OPERATION_STATES = ['pending', 'done', 'failed'] as const;

/**
 * A close or approve of a review-set that a request asked for and the worker carries out (it may
 * take longer than a request may wait for the database: 10,000 boxes). `review_set_id` has no
 * foreign key: recording a request must not wait for a running close that holds the set FOR UPDATE.
 */
export const ReviewSetOperationSchema = defineEntity({
  name: 'ReviewSetOperation',
  tableName: 'billing_review_set_operation',
  filters: adminScopeFilter('admin'),
  properties: {
    id: idProperty(),
    admin: () => p.manyToOne(Administration),
    reviewSetId: p.uuid().index(),
    operation: p.enum(REVIEW_SET_OPERATIONS),
    /** Approve: the payment inputs for its boxes. */
    payment: p.json<PaymentOptions>().nullable(),
    state: p.enum(REVIEW_SET_OPERATION_STATES).default('pending'),
    errorCode: p.string().nullable(),
    errorMessage: p.text().nullable(),
    /** The credential whose request it was (the actor of the events the work records). */
    requestedBy: p.string(),
    createdAt: createdAtProperty(),
    finishedAt: p.datetime().nullable(),
  },
});

export class ReviewSetOperation extends ReviewSetOperationSchema.class {}
ReviewSetOperationSchema.setClass(ReviewSetOperation);
