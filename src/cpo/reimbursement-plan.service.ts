// Reimbursement plans (create and merge-update are extensions), their calculation inputs and an
// arrangement's own inputs (PUT sets one input from a date, a null value or DELETE removes it),
// and switching an arrangement's plan. The writes answer plain data; the reads are in
// reimbursement.queries.ts.
import { applyPlanName, applyPlanPublishing, createPlan, updatePlan, type PlanInput as PlanBasics, type PlanKind } from '../contracts/plan.ts';
import { DATE_FORMAT, parseDate } from '../platform/timestamp.ts';
import { isNegative, parseDecimal } from '../money/decimal.ts';
import { DomainError, InvalidInputError, NotFoundError } from '../platform/errors.ts';
import { createUnlessTaken } from '../platform/flush-unique.ts';
import { isUuid } from '../platform/ids.ts';
import type { Em } from '../platform/orm.ts';
import { plainData } from '../platform/plain-data.ts';
import { localMidnight } from '../billing/periods.ts';
import { MAX_SCRIPT_LENGTH, scriptSyntaxError } from '../pricing/script/run-rule-script.ts';
import { CalculationInput } from './calculation-input.entity.ts';
import { ReimbursementArrangement } from './reimbursement-arrangement.entity.ts';
import { REIMBURSEMENT_COMPONENTS, REIMBURSEMENT_MODES, ReimbursementPlan } from './reimbursement-plan.entity.ts';
import { COMPONENT_NAME } from '../pricing/script/run-rule-script.ts';
import {
  calculationInputs, type ArrangementData, type CalculationInputData, type InputOwnerRef, type ReimbursementPlanData,
} from './reimbursement.queries.ts';

export interface PlanInput extends PlanBasics {
  adminId?: string | null;
  mode?: string | null;
  components?: string[] | null;
  /** A rule script run after the components (it reads the custom variables as input.variables); null removes it. */
  script?: string | null;
}


/** The key of a calculation input: owner, valid_from, component and variable. */
const INPUT_KEY_UNIQUE = 'cpo_reimbursement_calculation_input_owner_kind_ow_a7074_unique';

/** The plan entity a write changes, or 400 not_found. */
async function loadPlan(em: Em, id: string): Promise<ReimbursementPlan> {
  const plan = isUuid(id) ? await em.findOne(ReimbursementPlan, { id }) : null;
  if (!plan) throw new NotFoundError('reimbursement plan');
  return plan;
}

function apply(plan: ReimbursementPlan, input: PlanInput): void {
  applyPlanName(plan, input);
  if (input.mode !== undefined) {
    if (!input.mode || !(REIMBURSEMENT_MODES as readonly string[]).includes(input.mode)) {
      throw new InvalidInputError(`mode must be one of ${REIMBURSEMENT_MODES.join(', ')}`, { path: ['mode'] });
    }
    plan.mode = input.mode as ReimbursementPlan['mode'];
  }
  if (input.components !== undefined) {
    const components = input.components ?? [];
    const bad = components.findIndex((c) => !(REIMBURSEMENT_COMPONENTS as readonly string[]).includes(c) && c !== 'custom');
    if (bad >= 0) throw new InvalidInputError(`components are ${REIMBURSEMENT_COMPONENTS.join(', ')} or custom`, { path: ['components', bad] });
    plan.components = [...new Set(components)];
  }
  if (input.script !== undefined) {
    // A blank script would run as one that returns nothing, dropping the custom variables a plan without one prices.
    const error = input.script === null ? null : input.script.trim() === '' ? 'must not be blank (null removes the script)'
      : input.script.length > MAX_SCRIPT_LENGTH ? `at most ${MAX_SCRIPT_LENGTH} characters` : scriptSyntaxError(input.script);
    if (error) throw new InvalidInputError(`script: ${error}`, { path: ['script'] });
    plan.script = input.script;
  }
  applyPlanPublishing(plan, input);
}

const PLAN: PlanKind<ReimbursementPlan, PlanInput> = {
  entity: ReimbursementPlan, unique: { cpo_reimbursement_plan_external_reference_unique: ['external_reference'] }, apply,
};

export async function createReimbursementPlan(em: Em, input: PlanInput): Promise<ReimbursementPlanData> {
  return plainData(await createPlan(em, PLAN, input, { mode: 'calculated', components: ['energy'] }));
}

export async function updateReimbursementPlan(em: Em, id: string, input: PlanInput): Promise<ReimbursementPlanData> {
  return plainData(await updatePlan(em, PLAN, await loadPlan(em, id), input));
}

async function ownerOf(em: Em, ref: InputOwnerRef): Promise<{ adminId: string; timeZone: string; plan: ReimbursementPlan | null }> {
  if (ref.kind === 'plan') {
    const plan = await loadPlan(em, ref.id);
    await em.populate(plan, ['admin']);
    return { adminId: plan.admin.id, timeZone: plan.admin.timeZone, plan };
  }
  const arrangement = isUuid(ref.id) ? await em.findOne(ReimbursementArrangement, { id: ref.id }, { populate: ['admin', 'plan'] }) : null;
  if (!arrangement) throw new NotFoundError('reimbursement arrangement');
  return { adminId: arrangement.admin.id, timeZone: arrangement.admin.timeZone, plan: arrangement.plan ?? null };
}

/** Sets (value) or removes (null) the input of a component, or of a custom variable, from a date on; answers the owner's inputs. */
export async function setCalculationInput(
  em: Em, ref: InputOwnerRef, date: string, componentType: string, varName: string, value: string | null,
): Promise<CalculationInputData[]> {
  const owner = await ownerOf(em, ref);
  if (!parseDate(date)) throw new InvalidInputError(`valid_from in the path must be ${DATE_FORMAT}`, { path: [] });
  // A custom variable is priced as a subtotal of its name: the names a script's subtotal may have.
  if (componentType === 'custom' ? !COMPONENT_NAME.test(varName) : !(REIMBURSEMENT_COMPONENTS as readonly string[]).includes(componentType)) {
    throw new InvalidInputError(componentType === 'custom'
      ? 'the variable name must be 1 to 50 lower-case letters, digits and _, starting with a letter' : `the component is one of ${REIMBURSEMENT_COMPONENTS.join(', ')}`, { path: [] });
  }
  const parsed = value === null ? null : parseDecimal(value, ['value']);
  if (parsed !== null && isNegative(parsed)) throw new InvalidInputError('value must not be negative', { path: ['value'] });
  const validFrom = localMidnight(date, owner.timeZone);
  const where = { ownerKind: ref.kind, ownerId: ref.id, validFrom, componentType, varName };
  let existing = await em.findOne(CalculationInput, where);
  if (parsed === null) {
    if (existing) em.remove(existing);
  } else {
    if (!existing) {
      // The key's unique constraint is the check: the same set sent at once stores the input once.
      const created = await createUnlessTaken(em, INPUT_KEY_UNIQUE, async (tx) => {
        tx.create(CalculationInput, { ...where, admin: owner.adminId, value: parsed });
        await tx.flush();
        return true;
      });
      if (created) return calculationInputs(em, ref);
      // A request sent at the same moment created it first: this one sets its value, as a request right after it would.
      existing = await em.findOne(CalculationInput, where);
    }
    if (existing) existing.value = parsed;
    else em.create(CalculationInput, { ...where, admin: owner.adminId, value: parsed });
  }
  await em.flush();
  return calculationInputs(em, ref);
}

export async function switchArrangementPlan(em: Em, arrangementId: string, planId: string | null | undefined): Promise<ArrangementData> {
  const arrangement = isUuid(arrangementId) ? await em.findOne(ReimbursementArrangement, { id: arrangementId }, { populate: ['customer'] }) : null;
  if (!arrangement) throw new NotFoundError('reimbursement arrangement');
  arrangement.assertChangeable();
  const plan = planId && isUuid(planId) ? await em.findOne(ReimbursementPlan, { id: planId }) : null;
  if (!plan) throw new NotFoundError('reimbursement plan', { path: ['plan_id'] });
  if (plan.admin.id.toLowerCase() !== arrangement.admin.id.toLowerCase()) {
    throw new DomainError('administration_mismatch', 'the plan and the arrangement belong to different administrations', { path: ['plan_id'] });
  }
  arrangement.plan = plan;
  await em.flush();
  return plainData(arrangement);
}
