import { defineEntity, p } from '@mikro-orm/core';
import { adminScopeFilter } from '../access/admin-scope.ts';
import { DomainError } from '../platform/errors.ts';
import { createdAtProperty, idProperty, updatedAtProperty } from '../platform/entity-properties.ts';
import { isLinkValidAt } from '../platform/validity.ts';
import { Administration } from '../parties/administration.entity.ts';
import { Evse } from './evse.entity.ts';
import { ReimbursementArrangement } from './reimbursement-arrangement.entity.ts';
import { recordsEvents } from '../events/event-kinds.ts';

/** An EVSE under a reimbursement arrangement; `validFrom` null defers to the arrangement's. */
export const ReimbursementLinkSchema = defineEntity({
  name: 'ReimbursementLink',
  tableName: 'cpo_reimbursement_link',
  filters: adminScopeFilter('admin'),
  properties: {
    id: idProperty(),
    admin: () => p.manyToOne(Administration),
    arrangement: () => p.manyToOne(ReimbursementArrangement).index(),
    evse: () => p.manyToOne(Evse).index(),
    validFrom: p.datetime().nullable(),
    validUntil: p.datetime().nullable(),
    defunct: p.boolean().default(false),
    externalUpdatedAt: p.datetime().nullable(),
    createdAt: createdAtProperty(),
    updatedAt: updatedAtProperty(),
  },
});

export class ReimbursementLink extends ReimbursementLinkSchema.class {
  /** The link and its arrangement are both valid at `at` (the arrangement must be loaded). */
  isValidAt(at: Date): boolean {
    return isLinkValidAt(this, this.arrangement, at);
  }

  markDefunct(): void {
    this.defunct = true;
  }

  assertChangeable(): void {
    if (this.defunct) throw new DomainError('reimbursement_link_defunct', 'a defunct reimbursement link cannot change');
  }
}
ReimbursementLinkSchema.setClass(ReimbursementLink);
recordsEvents(ReimbursementLink, 'cpo_reimbursement_link');
