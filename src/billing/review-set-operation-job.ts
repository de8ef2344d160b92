// The worker's part of a review-set close or approve (review-set.service.ts): one job per review-set
// (job key `billing_review_set:<id>`) runs its pending operations in the order they were asked for.
export const REVIEW_SET_OPERATIONS_JOB = 'billing_review_set_operations';

export interface ReviewSetOperationsJob { review_set_id: string }

export function isReviewSetOperationsJob(payload: unknown): payload is ReviewSetOperationsJob {
  return typeof payload === 'object' && payload !== null && typeof (payload as ReviewSetOperationsJob).review_set_id === 'string';
}
