import { defineEntity, p } from '@mikro-orm/core';
import { adminScopeFilter } from '../access/admin-scope.ts';
import { createdAtProperty, idProperty, updatedAtProperty } from '../platform/entity-properties.ts';
import { DomainError } from '../platform/errors.ts';
import { Administration } from '../parties/administration.entity.ts';
import { BillingSeries } from './billing-series.entity.ts';

export const REVIEW_SET_STATES = ['open', 'closed'] as const;

/** The boxes of one series and one invoicing period, reviewed together. */
export const ReviewSetSchema = defineEntity({
  name: 'ReviewSet',
  tableName: 'billing_review_set',
  filters: adminScopeFilter('admin'),
  uniques: [{ properties: ['series', 'periodFrom'] }],
  properties: {
    id: idProperty(),
    admin: () => p.manyToOne(Administration),
    series: () => p.manyToOne(BillingSeries),
    /** `<series code>-<period label>`, e.g. INV-2026-03. */
    code: p.string(),
    periodFrom: p.datetime(),
    periodUntil: p.datetime(),
    state: p.enum(REVIEW_SET_STATES).default('open'),
    closedAt: p.datetime().nullable(),
    createdAt: createdAtProperty(),
    updatedAt: updatedAtProperty(),
  },
});

export class ReviewSet extends ReviewSetSchema.class {
  close(now: Date): void {
    if (this.state !== 'open') throw new DomainError('invalid_state', `the review-set is ${this.state}`);
    this.state = 'closed';
    this.closedAt = now;
  }
}
ReviewSetSchema.setClass(ReviewSet);
