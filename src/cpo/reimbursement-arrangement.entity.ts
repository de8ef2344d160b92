import { p } from '@mikro-orm/core';
import { contractEntity } from '../contracts/contract-entity.ts';
import { defineContract } from '../contracts/contract-properties.ts';
import { ReimbursementPlan } from './reimbursement-plan.entity.ts';
import { recordsEvents } from '../events/event-kinds.ts';

/** What a charger owner (the customer) is reimbursed for the sessions at its EVSEs, in [valid_from, valid_until). */
export const ReimbursementArrangementSchema = defineContract('ReimbursementArrangement', 'cpo_reimbursement_arrangement', {
  /** The plan its reimbursements are calculated by (switch-plan). */
  plan: () => p.manyToOne(ReimbursementPlan).nullable().index(),
});

export class ReimbursementArrangement extends contractEntity(ReimbursementArrangementSchema.class, {
  code: 'reimbursement_arrangement_defunct', message: 'a defunct reimbursement arrangement cannot change',
}) {}
ReimbursementArrangementSchema.setClass(ReimbursementArrangement);
recordsEvents(ReimbursementArrangement, 'cpo_reimbursement_arrangement');
