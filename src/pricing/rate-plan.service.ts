import { findVersionAt } from '../contracts/versions.ts';
import { Administration } from '../parties/administration.entity.ts';
import { DomainError, InvalidInputError, NotFoundError } from '../platform/errors.ts';
import type { FieldPath } from '../platform/field-path.ts';
import { assertExternalReferenceFree, setsOtherExternalReference } from '../platform/external-reference.ts';
import { createAtReference, flushUnique } from '../platform/flush-unique.ts';
import { isUuid } from '../platform/ids.ts';
import type { Patch } from '../platform/merge-patch.ts';
import type { Em } from '../platform/orm.ts';
import type { ResourceRef } from '../platform/resource-ref.ts';
import { callerScope } from '../access/admin-scope.ts';
import { assertChangeable, isVisible } from './rate-plan-access.ts';
import { parseDefinition } from './rate-plan-definition.ts';
import { assertStaysSharedWithUsers } from './rate-plan-link.ts';
import { RatePlanVersion } from './rate-plan-version.entity.ts';
import { RatePlan } from './rate-plan.entity.ts';
import { ratePlanData, ratePlanVersionData, type RatePlanData, type RatePlanVersionData } from './rate-plan.queries.ts';

export interface RatePlanFields {
  name: string;
  currency: string;
  adminIds: string[];
  externalReference: string;
}

const WHAT = 'rate plan';
const EXTERNAL_REFERENCE_UNIQUE = 'pricing_rate_plan_external_reference_unique';
const UNIQUE = { [EXTERNAL_REFERENCE_UNIQUE]: ['external_reference'] };

/**
 * A plan the caller may see (shared with one of its administrations) as an entity, for the
 * services that change or price with it; otherwise not_found. Reads: rate-plan.queries.ts.
 */
export async function getRatePlan(em: Em, ref: ResourceRef, options: { queryParam?: string; path?: FieldPath } = {}): Promise<RatePlan> {
  let plan: RatePlan | null = null;
  if ('id' in ref) plan = isUuid(ref.id) ? await em.findOne(RatePlan, { id: ref.id }) : null;
  else plan = await em.findOne(RatePlan, { externalReference: ref.externalReference });
  if (!plan || !(await isVisible(em, plan))) throw new NotFoundError(WHAT, options);
  return plan;
}

/** Every listed administration must be visible and of the plan's currency; stored in their casing. */
async function checkAdminIds(em: Em, adminIds: string[], currency: string): Promise<string[]> {
  if (adminIds.length === 0 && !callerScope(em).all) {
    throw new InvalidInputError('a credential limited to administrations must name them in admin_ids', { path: ['admin_ids'] });
  }
  const result: string[] = [];
  for (const [i, id] of adminIds.entries()) {
    const admin = typeof id === 'string' ? await em.findOne(Administration, { id }) : null;
    if (!admin) throw new NotFoundError('administration', { path: ['admin_ids', i] });
    if (admin.currency !== currency) {
      throw new DomainError('currency_mismatch', `administration ${admin.id} uses ${admin.currency}, the rate plan ${currency}`, { path: ['admin_ids', i] });
    }
    if (!result.includes(admin.id)) result.push(admin.id);
  }
  return result;
}

/** `stored`: the plan exists, so subscription plans may price with it and its sharing may not drop them. */
async function apply(em: Em, plan: RatePlan, patch: Patch<RatePlanFields>, stored = true): Promise<void> {
  if (patch.name === null || (patch.name !== undefined && patch.name.trim() === '')) throw new InvalidInputError('name is required', { path: ['name'] });
  if (patch.name !== undefined) plan.name = patch.name!;
  if (patch.adminIds !== undefined) {
    const adminIds = await checkAdminIds(em, patch.adminIds ?? [], plan.currency);
    if (stored) await assertStaysSharedWithUsers(em, plan, adminIds);
    plan.adminIds = adminIds;
  }
  if (patch.externalReference !== undefined) plan.externalReference = patch.externalReference;
}

/** A new plan from the patch, checked (but its external_reference), not flushed. */
async function newPlan(em: Em, patch: Patch<RatePlanFields>): Promise<RatePlan> {
  if (!patch.name) throw new InvalidInputError('name is required', { path: ['name'] });
  if (!patch.currency) throw new InvalidInputError('currency is required', { path: ['currency'] });
  const plan = em.create(RatePlan, { name: patch.name, currency: patch.currency });
  await apply(em, plan, { ...patch, adminIds: patch.adminIds ?? [] }, false);
  return plan;
}

async function createIn(em: Em, patch: Patch<RatePlanFields>): Promise<RatePlan> {
  await assertExternalReferenceFree(em, RatePlan, patch.externalReference, WHAT);
  const plan = await newPlan(em, patch);
  await flushUnique(em, UNIQUE);
  return plan;
}

export async function createRatePlan(em: Em, patch: Patch<RatePlanFields>): Promise<RatePlanData> {
  return ratePlanData(await em.transactional((tx) => createIn(tx, patch)));
}

/**
 * Merge-update of name, external_reference and admin_ids (currency is set on create only); on
 * `ext_ref.<ref>` a missing plan is created. The same create sent several times at once stores the
 * plan once; the others merge into it.
 */
export async function upsertRatePlan(em: Em, ref: ResourceRef, patch: Patch<RatePlanFields>): Promise<RatePlanData> {
  const step = await createAtReference(em, RatePlan, ref, patch, EXTERNAL_REFERENCE_UNIQUE, WHAT, async (tx, creating) => {
    const plan = await newPlan(tx, creating);
    await tx.flush();
    return ratePlanData(plan);
  });
  if ('created' in step) return step.created;
  patch = step.merge;
  return ratePlanData(await em.transactional(async (tx) => {
    const plan = await getRatePlan(tx, ref);
    await assertChangeable(tx, plan);
    if (setsOtherExternalReference(patch.externalReference, plan.externalReference)) {
      await assertExternalReferenceFree(tx, RatePlan, patch.externalReference, WHAT);
    }
    await apply(tx, plan, { ...patch, currency: undefined });
    await flushUnique(tx, UNIQUE);
    return plan;
  }));
}

export async function createRatePlanVersion(em: Em, ref: ResourceRef, input: { validFrom?: Date | null; definition?: unknown }): Promise<RatePlanVersionData> {
  const plan = await getRatePlan(em, ref);
  await assertChangeable(em, plan);
  if (!input.validFrom) throw new InvalidInputError('valid_from is required', { path: ['valid_from'] });
  const definition = parseDefinition(input.definition);
  const taken = await em.count(RatePlanVersion, { ratePlan: plan, validFrom: input.validFrom });
  if (taken) throw new DomainError('duplicate', 'the rate plan has a version valid from that moment already', { path: ['valid_from'] });
  const version = em.create(RatePlanVersion, { ratePlan: plan, validFrom: input.validFrom, definition });
  await flushUnique(em, { pricing_rate_plan_version_rate_plan_id_valid_from_unique: ['valid_from'] });
  return ratePlanVersionData(version);
}

/** The version valid at `at`: the latest with valid_from <= at. */
export async function ratePlanVersionAt(em: Em, plan: { id: string }, at: Date): Promise<RatePlanVersion> {
  const version = await findVersionAt(em, RatePlanVersion, { ratePlan: plan.id }, at);
  if (!version) throw new DomainError('rate_plan_version_missing', `rate plan ${plan.id} has no version valid at ${at.toISOString()}`);
  return version;
}
