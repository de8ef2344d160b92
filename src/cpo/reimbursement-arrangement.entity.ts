import { defineEntity, p } from '@mikro-orm/core';
import { adminScopeFilter } from '../access/admin-scope.ts';
import { contractEntity } from '../contracts/contract-entity.ts';
import { contractProperties } from '../contracts/contract-properties.ts';
import { ReimbursementPlan } from './reimbursement-plan.entity.ts';
import { recordsEvents } from '../events/event-kinds.ts';

/** What a charger owner (the customer) is reimbursed for the sessions at its EVSEs, in [valid_from, valid_until). */
export const ReimbursementArrangementSchema = defineEntity({
  name: 'ReimbursementArrangement',
  tableName: 'cpo_reimbursement_arrangement',
  filters: adminScopeFilter('admin'),
  properties: {
    ...contractProperties(),
    /** The plan its reimbursements are calculated by (switch-plan). */
    plan: () => p.manyToOne(ReimbursementPlan).nullable().index(),
  },
});

export class ReimbursementArrangement extends contractEntity(ReimbursementArrangementSchema.class, {
  code: 'reimbursement_arrangement_defunct', message: 'a defunct reimbursement arrangement cannot change',
}) {}
ReimbursementArrangementSchema.setClass(ReimbursementArrangement);
recordsEvents(ReimbursementArrangement, 'cpo_reimbursement_arrangement');
