import { p } from '@mikro-orm/core';
import { definePlan } from '../contracts/contract-properties.ts';
import { recordsEvents } from '../events/event-kinds.ts';

/** cpms_supplied: the CPMS states the reimbursement; calculated: the service computes it from the components' inputs. */
export const REIMBURSEMENT_MODES = ['cpms_supplied', 'calculated'] as const;
export const REIMBURSEMENT_COMPONENTS = ['energy', 'time', 'parking_time', 'flat'] as const;

/** How charger owners are reimbursed: the mode and the cost components whose inputs price a session. */
export const ReimbursementPlanSchema = definePlan('ReimbursementPlan', 'cpo_reimbursement_plan', {
  mode: p.enum(REIMBURSEMENT_MODES).default('calculated'),
  components: p.json<string[]>().onCreate(() => ['energy']),
  /** A rule script (src/pricing/script) run after the components; it sees the custom variables. */
  script: p.text().nullable(),
});

export class ReimbursementPlan extends ReimbursementPlanSchema.class {}
ReimbursementPlanSchema.setClass(ReimbursementPlan);
recordsEvents(ReimbursementPlan, 'cpo_reimbursement_plan');
