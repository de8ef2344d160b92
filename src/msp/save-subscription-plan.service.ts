import { PUBLISHING_ORDER, recurringCostAmount } from '../contracts/plan.ts';
import { administrationNamed, visibleAdministration } from '../parties/customer-input.ts';
import { DomainError, InvalidInputError, type ErrorDetail } from '../platform/errors.ts';
import { assertExternalReferenceFree, setsOtherExternalReference } from '../platform/external-reference.ts';
import { createAtReference, flushUnique } from '../platform/flush-unique.ts';
import type { Patch } from '../platform/merge-patch.ts';
import type { Em } from '../platform/orm.ts';
import { plainData } from '../platform/plain-data.ts';
import { boundsOrderFailure } from '../platform/validity.ts';
import { assertNamedRecordsVisible, getByRef, type ResourceRef } from '../platform/resource-ref.ts';
import { assertRatePlanUsableBy } from '../pricing/rate-plan-link.ts';
import { SubscriptionPlan, type RecurringCost } from './subscription-plan.entity.ts';
import type { SubscriptionPlanData } from './subscription-plan.queries.ts';

export const RECURRING_PERIODS = ['month', 'quarter', 'year'] as const;

export interface SubscriptionPlanFields {
  adminId: string;
  name: string;
  description: string;
  publishFrom: Date;
  publishUntil: Date;
  ratePlanId: string;
  recurringCosts: RecurringCost[];
  useCustomerReimbursementVat: boolean;
  creditExcludedComponents: string[];
  externalReference: string;
}

export type SubscriptionPlanPatch = Patch<SubscriptionPlanFields>;

const WHAT = 'subscription plan';
const EXTERNAL_REFERENCE_UNIQUE = 'msp_subscription_plan_external_reference_unique';
const UNIQUE = { [EXTERNAL_REFERENCE_UNIQUE]: ['external_reference'] };

/** Amounts as exact decimal strings (never negative), normalized. */
function checkRecurringCosts(costs: RecurringCost[], failures: ErrorDetail[]): RecurringCost[] {
  return costs.map((cost, i) => ({
    description: cost.description, amount_excl_vat: recurringCostAmount(cost.amount_excl_vat, ['recurring_costs', i, 'amount_excl_vat'], failures), period: cost.period,
  }));
}

/** Applies a merge patch (admin_id is set on create only). Every failed check is reported. */
function applyPlanPatch(plan: SubscriptionPlan, patch: SubscriptionPlanPatch): void {
  const failures: ErrorDetail[] = [];
  if (patch.name === null || (patch.name !== undefined && patch.name.trim() === '')) {
    failures.push({ path: ['name'], message: 'name is required' });
  }
  const recurringCosts = patch.recurringCosts ? checkRecurringCosts(patch.recurringCosts, failures) : patch.recurringCosts;
  const publishFrom = patch.publishFrom === undefined ? (plan.publishFrom ?? null) : patch.publishFrom;
  const publishUntil = patch.publishUntil === undefined ? (plan.publishUntil ?? null) : patch.publishUntil;
  const unordered = boundsOrderFailure(publishFrom, publishUntil, PUBLISHING_ORDER);
  if (unordered) failures.push(unordered);
  if (failures.length) throw DomainError.of('invalid_input', failures);
  if (patch.name !== undefined) plan.name = patch.name!;
  if (patch.description !== undefined) plan.description = patch.description;
  plan.publishFrom = publishFrom;
  plan.publishUntil = publishUntil;
  if (patch.ratePlanId !== undefined) plan.ratePlanId = patch.ratePlanId;
  if (recurringCosts !== undefined) plan.recurringCosts = recurringCosts ?? [];
  if (patch.useCustomerReimbursementVat !== undefined) plan.useCustomerReimbursementVat = patch.useCustomerReimbursementVat ?? false;
  if (patch.creditExcludedComponents !== undefined) plan.creditExcludedComponents = [...new Set(patch.creditExcludedComponents ?? [])];
  if (patch.externalReference !== undefined) plan.externalReference = patch.externalReference;
}

/** A new plan from the patch, checked (but its external_reference), not flushed. */
async function newPlan(em: Em, patch: SubscriptionPlanPatch): Promise<SubscriptionPlan> {
  if (patch.name === undefined || patch.name === null) throw new InvalidInputError('name is required', { path: ['name'] });
  const admin = await visibleAdministration(em, patch.adminId);
  const plan = em.create(SubscriptionPlan, { admin, name: patch.name });
  applyPlanPatch(plan, patch);
  if (patch.ratePlanId) await assertRatePlanUsableBy(em, patch.ratePlanId, admin);
  return plan;
}

async function createIn(em: Em, patch: SubscriptionPlanPatch): Promise<SubscriptionPlan> {
  await assertExternalReferenceFree(em, SubscriptionPlan, patch.externalReference, WHAT);
  const plan = await newPlan(em, patch);
  await flushUnique(em, UNIQUE);
  return plan;
}

/** POST /msp-token-subscription-plan (extension). */
export async function createSubscriptionPlan(em: Em, patch: SubscriptionPlanPatch): Promise<SubscriptionPlanData> {
  return plainData(await em.transactional((tx) => createIn(tx, patch)));
}

/**
 * POST /msp-token-subscription-plan/{id}: merge-update; on `ext_ref.<ref>` a missing plan is created.
 * The same create sent several times at once stores the plan once; the others merge into it.
 */
export async function upsertSubscriptionPlan(em: Em, ref: ResourceRef, patch: SubscriptionPlanPatch): Promise<SubscriptionPlanData> {
  const step = await createAtReference(em, SubscriptionPlan, ref, patch, EXTERNAL_REFERENCE_UNIQUE, WHAT, async (tx, creating) => {
    const plan = await newPlan(tx, creating);
    await tx.flush();
    return plainData(plan);
  });
  if ('created' in step) return step.created;
  patch = step.merge;
  return plainData(await em.transactional(async (tx) => {
    const plan = await getByRef(tx, SubscriptionPlan, ref, WHAT);
    await assertNamedRecordsVisible(tx, [administrationNamed(patch.adminId)]);
    if (setsOtherExternalReference(patch.externalReference, plan.externalReference)) {
      await assertExternalReferenceFree(tx, SubscriptionPlan, patch.externalReference, WHAT);
    }
    applyPlanPatch(plan, patch);
    if (patch.ratePlanId) await assertRatePlanUsableBy(tx, patch.ratePlanId, plan.admin);
    await flushUnique(tx, UNIQUE);
    return plan;
  }));
}
