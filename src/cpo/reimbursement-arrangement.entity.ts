import { defineEntity, p } from '@mikro-orm/core';
import { ADMIN_SCOPE, adminScopeFilter } from '../access/admin-scope.ts';
import { DomainError } from '../platform/errors.ts';
import { createdAtProperty, idProperty, identifierProperty, updatedAtProperty } from '../platform/entity-properties.ts';
import { isContractValidAt } from '../platform/validity.ts';
import { ReimbursementPlan } from './reimbursement-plan.entity.ts';
import { Administration } from '../parties/administration.entity.ts';
import { Customer } from '../parties/customer.entity.ts';
import { recordsEvents } from '../events/event-kinds.ts';

/** What a charger owner (the customer) is reimbursed for the sessions at its EVSEs, in [valid_from, valid_until). */
export const ReimbursementArrangementSchema = defineEntity({
  name: 'ReimbursementArrangement',
  tableName: 'cpo_reimbursement_arrangement',
  filters: adminScopeFilter('admin'),
  properties: {
    id: idProperty(),
    admin: () => p.manyToOne(Administration).index(),
    customer: () => p.manyToOne(Customer).index().filters({ [ADMIN_SCOPE]: false }),
    /** The plan its reimbursements are calculated by (switch-plan). */
    plan: () => p.manyToOne(ReimbursementPlan).nullable().index(),
    buyerReference: p.string().nullable(),
    validFrom: p.datetime(),
    validUntil: p.datetime().nullable(),
    defunct: p.boolean().default(false),
    customFields: p.json<Record<string, unknown>>().onCreate(() => ({})),
    externalReference: identifierProperty().nullable().unique(),
    externalUpdatedAt: p.datetime().nullable(),
    createdAt: createdAtProperty(),
    updatedAt: updatedAtProperty(),
  },
});

export class ReimbursementArrangement extends ReimbursementArrangementSchema.class {
  isValidAt(at: Date): boolean {
    return isContractValidAt(this, at);
  }

  assertChangeable(): void {
    if (this.defunct) throw new DomainError('reimbursement_arrangement_defunct', 'a defunct reimbursement arrangement cannot change');
  }
}
ReimbursementArrangementSchema.setClass(ReimbursementArrangement);
recordsEvents(ReimbursementArrangement, 'cpo_reimbursement_arrangement');
