// CPO subscription plans: the plan (name, publishing window: not enforced when subscriptions are
// created) and its recurring costs keyed by valid_from (POST /cpo-subscription-plan/{id}/{valid_from}
// merge-updates the version of that date, creating it when missing). The writes answer plain
// data; the reads are in cpo-subscription.queries.ts.
import { applyPlanName, applyPlanPublishing, createPlan, recurringCostAmount, updatePlan, type PlanInput, type PlanKind } from '../contracts/plan.ts';
import { DATE_FORMAT, parseDate } from '../platform/timestamp.ts';
import { DomainError, InvalidInputError, NotFoundError, type ErrorDetail } from '../platform/errors.ts';
import { createUnlessTaken } from '../platform/flush-unique.ts';
import { isUuid } from '../platform/ids.ts';
import type { Em } from '../platform/orm.ts';
import { plainData } from '../platform/plain-data.ts';
import { EXT_REF_PREFIX } from '../platform/resource-ref.ts';
import { localMidnight } from '../billing/periods.ts';
import { CpoSubscriptionPlanVersion, type CpoRecurringCost } from './cpo-subscription-plan-version.entity.ts';
import { CpoSubscriptionPlan } from './cpo-subscription-plan.entity.ts';
import type { CpoPlanData } from './cpo-subscription.queries.ts';

export interface CpoPlanInput extends PlanInput {
  adminId?: string | null;
}

const PERIODS = ['month', 'quarter', 'year'];
const PER = ['subscription', 'evse'];
const VERSION_UNIQUE = 'cpo_subscription_plan_version_plan_id_valid_from_unique';

/** The plan entity a write uses (id or `ext_ref.<reference>`), or 400 not_found. */
export async function loadCpoPlan(em: Em, ref: string): Promise<CpoSubscriptionPlan> {
  const externalReference = ref.startsWith(EXT_REF_PREFIX) ? ref.slice(EXT_REF_PREFIX.length) : null;
  const plan = externalReference !== null ? await em.findOne(CpoSubscriptionPlan, { externalReference })
    : isUuid(ref) ? await em.findOne(CpoSubscriptionPlan, { id: ref }) : null;
  if (!plan) throw new NotFoundError('CPO subscription plan');
  return plan;
}

const PLAN: PlanKind<CpoSubscriptionPlan, CpoPlanInput> = {
  entity: CpoSubscriptionPlan, unique: { cpo_subscription_plan_external_reference_unique: ['external_reference'] },
  apply: (plan, input) => {
    applyPlanName(plan, input);
    applyPlanPublishing(plan, input);
  },
};

export async function createCpoPlan(em: Em, input: CpoPlanInput): Promise<CpoPlanData> {
  return plainData(await createPlan(em, PLAN, input));
}

export async function updateCpoPlan(em: Em, ref: string, input: CpoPlanInput): Promise<CpoPlanData> {
  return plainData(await updatePlan(em, PLAN, await loadCpoPlan(em, ref), input));
}

function checkCosts(costs: unknown): CpoRecurringCost[] {
  if (!Array.isArray(costs)) throw new InvalidInputError('recurring_costs must be a list', { path: ['recurring_costs'] });
  const failures: ErrorDetail[] = [];
  const checked = costs.map((cost: Record<string, unknown>, i) => {
    const at = (member: string) => ['recurring_costs', i, member];
    if (typeof cost?.description !== 'string' || !cost.description) failures.push({ path: at('description'), message: 'description is required' });
    if (!PERIODS.includes(String(cost?.period))) failures.push({ path: at('period'), message: `period must be one of ${PERIODS.join(', ')}` });
    const per = cost?.per ?? 'subscription';
    if (!PER.includes(String(per))) failures.push({ path: at('per'), message: `per must be one of ${PER.join(', ')}` });
    const amount = recurringCostAmount(cost?.amount_excl_vat, at('amount_excl_vat'), failures);
    return { description: String(cost?.description), amount_excl_vat: amount, period: cost?.period, per } as CpoRecurringCost;
  });
  if (failures.length) throw DomainError.of('invalid_input', failures);
  return checked;
}

/** Merge-updates (or creates) the plan's version valid from a date (YYYY-MM-DD: local midnight of the administration). */
export async function setCpoPlanVersion(em: Em, ref: string, date: string, input: { recurringCosts?: unknown }): Promise<CpoPlanData> {
  const plan = await loadCpoPlan(em, ref);
  if (!parseDate(date)) throw new InvalidInputError(`valid_from in the path must be ${DATE_FORMAT}`, { path: [] });
  await em.populate(plan, ['admin']);
  const validFrom = localMidnight(date, plan.admin.timeZone);
  const recurringCosts = input.recurringCosts === undefined ? undefined : input.recurringCosts === null ? [] : checkCosts(input.recurringCosts);
  let version = await em.findOne(CpoSubscriptionPlanVersion, { plan, validFrom });
  if (!version) {
    // The (plan, valid_from) constraint is the check: the same version sent at once is stored once.
    const created = await createUnlessTaken(em, VERSION_UNIQUE, async (tx) => {
      tx.create(CpoSubscriptionPlanVersion, { plan: plan.id, validFrom, recurringCosts: recurringCosts ?? [] });
      await tx.flush();
      return true;
    });
    if (created) return plainData(plan);
    // A request sent at the same moment created it first: this one merges into it, as a request right after it would.
    version = await em.findOne(CpoSubscriptionPlanVersion, { plan, validFrom });
  }
  version ??= em.create(CpoSubscriptionPlanVersion, { plan, validFrom, recurringCosts: [] });
  if (recurringCosts !== undefined) version.recurringCosts = recurringCosts;
  await em.flush();
  return plainData(plan);
}
