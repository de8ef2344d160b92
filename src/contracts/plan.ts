// The members every plan of the contract families shares (MSP subscription plans, CPO
// subscription plans, reimbursement plans): name, description, the publishing window (not enforced
// when contracts are made) and the external reference. Each family applies its own members between.
import type { EntityName, RequiredEntityData } from '@mikro-orm/core';
import { compareDecimal, isNegative, parseDecimal } from '../money/decimal.ts';
import { visibleAdministration } from '../parties/customer-input.ts';
import { DomainError, InvalidInputError, type ErrorDetail } from '../platform/errors.ts';
import type { FieldPath } from '../platform/field-path.ts';
import { flushUnique } from '../platform/flush-unique.ts';
import type { Em } from '../platform/orm.ts';
import { assertValidityOrdered, type BoundsOrder } from '../platform/validity.ts';

/** publish_until after publish_from (the bounds-order rule of src/platform/validity.ts). */
export const PUBLISHING_ORDER: BoundsOrder = { path: ['publish_until'], message: 'publish_until must be after publish_from' };

export interface PlanInput {
  name?: string | null;
  description?: string | null;
  publishFrom?: Date | null;
  publishUntil?: Date | null;
  externalReference?: string | null;
}

interface PlanRecord {
  name: string;
  description?: string | null;
  publishFrom?: Date | null;
  publishUntil?: Date | null;
  externalReference?: string | null;
}

/**
 * A recurring cost is below 10^12: its fee for a year's invoicing period (12 months of a monthly
 * cost) must fit an invoice line's unit price (below 10^14). A larger one failed every period start
 * of its administration with a numeric overflow (found by probing, 2026-11-29).
 */
export const RECURRING_AMOUNT_LIMIT = '1000000000000';

/** A recurring cost's `amount_excl_vat`, normalized; what is wrong with it goes to `failures` at `path`. */
export function recurringCostAmount(value: unknown, path: FieldPath, failures: ErrorDetail[]): string {
  try {
    const amount = parseDecimal(String(value ?? ''), path);
    if (isNegative(amount)) failures.push({ path, message: 'amount_excl_vat must not be negative' });
    else if (compareDecimal(amount, RECURRING_AMOUNT_LIMIT) >= 0) failures.push({ path, message: `amount_excl_vat must be less than ${RECURRING_AMOUNT_LIMIT}` });
    return amount;
  } catch (error) {
    if (!(error instanceof DomainError)) throw error;
    failures.push({ path, message: error.message });
    return '0.00';
  }
}

/** Name (required, not blank) and description, when given: the first members a plan's merge patch applies. */
export function applyPlanName(plan: PlanRecord, input: PlanInput): void {
  if (input.name !== undefined) {
    if (!input.name || !input.name.trim()) throw new InvalidInputError('name is required', { path: ['name'] });
    plan.name = input.name;
  }
  if (input.description !== undefined) plan.description = input.description;
}

/** The publishing window and external reference, when given, then the window checked: the last members applied. */
export function applyPlanPublishing(plan: PlanRecord, input: PlanInput): void {
  if (input.publishFrom !== undefined) plan.publishFrom = input.publishFrom;
  if (input.publishUntil !== undefined) plan.publishUntil = input.publishUntil;
  if (input.externalReference !== undefined) plan.externalReference = input.externalReference;
  assertValidityOrdered(plan.publishFrom, plan.publishUntil, PUBLISHING_ORDER);
}

/** A plan family: its entity, its external_reference constraint and how it applies an input (applyPlanName first, applyPlanPublishing last). */
export interface PlanKind<P extends object, I extends PlanInput> {
  entity: EntityName<P>;
  unique: Record<string, FieldPath>;
  apply(plan: P, input: I): void;
}

/** Creates a plan in a visible administration (admin_id), named; `defaults`: the family's own initial members. Flushed. */
export async function createPlan<P extends object, I extends PlanInput & { adminId?: string | null }>(
  em: Em, kind: PlanKind<P, I>, input: I, defaults: Record<string, unknown> = {},
): Promise<P> {
  const admin = await visibleAdministration(em, input.adminId);
  if (!input.name) throw new InvalidInputError('name is required', { path: ['name'] });
  // The family's data: MikroORM cannot check required members against a type parameter.
  const plan = em.create(kind.entity, { admin, name: input.name, ...defaults } as unknown as RequiredEntityData<P>);
  kind.apply(plan, input);
  await flushUnique(em, kind.unique);
  return plan;
}

/** Merge-updates a plan (its administration is set on create only). Flushed. */
export async function updatePlan<P extends object, I extends PlanInput & { adminId?: string | null }>(em: Em, kind: PlanKind<P, I>, plan: P, input: I): Promise<P> {
  kind.apply(plan, { ...input, adminId: undefined });
  await flushUnique(em, kind.unique);
  return plan;
}
