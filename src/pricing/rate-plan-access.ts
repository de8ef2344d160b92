// Rate plans are shared by currency and an optional list of administrations, so the admin
// scope filter cannot apply: a plan is visible when it is shared with an administration the
// caller sees (em.find on Administration is scoped).
import { raw, type FilterQuery } from '@mikro-orm/core';
import { callerScope } from '../access/admin-scope.ts';
import { Administration } from '../parties/administration.entity.ts';
import { DomainError } from '../platform/errors.ts';
import type { Em } from '../platform/orm.ts';
import { readRows } from '../platform/plain-reads.ts';
import type { RatePlan } from './rate-plan.entity.ts';

/** What sharing looks at: a plan's currency and administrations (an entity or its data). */
type Shared = Pick<RatePlan, 'currency' | 'adminIds'>;

/** An administration as sharing sees it. */
export interface AdministrationOfCaller { id: string; currency: string }

export function isSharedWith(plan: Shared, admin: AdministrationOfCaller): boolean {
  if (plan.currency !== admin.currency) return false;
  return plan.adminIds.length === 0 || plan.adminIds.some((id) => id.toLowerCase() === admin.id.toLowerCase());
}

export async function isVisible(em: Em, plan: Shared): Promise<boolean> {
  if (callerScope(em).all) return true;
  const admins = await em.find(Administration, { currency: plan.currency });
  return admins.some((admin) => isSharedWith(plan, admin));
}

/**
 * Whether a roaming agreement prices with the plan. Agreements serve every administration (their
 * area, roaming, sits above pricing: its table is read here, not its module).
 */
const PRICES_ROAMING = 'select exists (select 1 from roaming_agreement where rate_plan_id = ?) as found';

/** The administrations whose subscription plans price with the plan (their area, msp, sits above pricing: its table is read here). */
const PRICES_SUBSCRIPTIONS = 'select distinct admin_id from msp_subscription_plan where rate_plan_id = ? order by admin_id';

export async function administrationsPricingWith(em: Em, planId: string): Promise<string[]> {
  return (await em.execute<{ admin_id: string }[]>(PRICES_SUBSCRIPTIONS, [planId])).map((row) => row.admin_id);
}

/**
 * A credential limited to administrations changes only plans shared with nothing but its own, and
 * none that prices a roaming agreement: that plan prices every administration's roaming costs; nor
 * one that a subscription plan of an administration it cannot see prices with (a plan narrowed
 * before sharing was kept with its users).
 */
export async function assertChangeable(em: Em, plan: RatePlan): Promise<void> {
  const scope = callerScope(em);
  if (scope.all) return;
  const [{ found: pricesRoaming }] = await em.execute<{ found: boolean }[]>(PRICES_ROAMING, [plan.id]);
  if (pricesRoaming) throw new DomainError('forbidden', 'the rate plan prices a roaming agreement, which serves every administration: only a credential without an administration limit changes it');
  const visible = plan.adminIds.length > 0 && (await em.count(Administration, { id: { $in: plan.adminIds } })) === plan.adminIds.length;
  if (!visible) throw new DomainError('forbidden', 'the rate plan is shared with administrations this credential cannot see');
  const own = new Set(scope.ids.map((id) => id.toLowerCase()));
  if ((await administrationsPricingWith(em, plan.id)).some((id) => !own.has(id.toLowerCase()))) {
    throw new DomainError('forbidden', 'the rate plan prices subscription plans of administrations this credential cannot see');
  }
}

const administrationsOf = new WeakMap<Em, Promise<AdministrationOfCaller[]>>();

/** The administrations the caller sees (the read is scoped), once per request: the loaders of several paths ask. */
export function callerAdministrations(em: Em): Promise<AdministrationOfCaller[]> {
  let admins = administrationsOf.get(em);
  if (!admins) {
    admins = readRows(em, { entity: Administration, fields: ['id', 'currency'], map: (row) => ({ id: row.id as string, currency: row.currency as string }) }, {});
    administrationsOf.set(em, admins);
  }
  return admins;
}

/** rate-plan-access.ts for a batch (GraphQL's loaders): each plan the caller may see in place, null for the others. */
export async function visibleOrNull<P extends Shared | null | undefined>(em: Em, plans: P[]): Promise<(P | null)[]> {
  if (callerScope(em).all) return plans;
  const admins = await callerAdministrations(em);
  return plans.map((plan) => (plan && admins.some((admin) => isSharedWith(plan, admin)) ? plan : null));
}

/**
 * A plan as a limited caller reads it: `adminIds` names only the administrations it sees. A plan
 * shared with A and B must not tell A's credential that B exists.
 */
export async function asSeenByCaller<P extends Shared>(em: Em, plans: P[]): Promise<P[]> {
  if (callerScope(em).all) return plans;
  const seen = new Set((await callerAdministrations(em)).map((admin) => admin.id.toLowerCase()));
  // In place: the plans are this request's reads, marked with their entity for GraphQL (a copy would lose the mark).
  for (const plan of plans) plan.adminIds = plan.adminIds.filter((id) => seen.has(id.toLowerCase()));
  return plans;
}

/**
 * rate-plan-access.ts as a SQL condition, so a list is paged by the index instead of filtering
 * every plan in memory: per currency of the caller's administrations, the plans shared with all
 * of that currency (admin_ids empty) or with one of the caller's administrations of it.
 */
export async function visibleRatePlansWhere(em: Em): Promise<FilterQuery<RatePlan>> {
  if (callerScope(em).all) return {};
  const admins = await callerAdministrations(em);
  if (admins.length === 0) return { id: { $in: [] } };
  const sharedWithAll = [...new Set(admins.map((admin) => admin.currency))].map((currency) => ({
    currency, [raw((alias: string) => `${alias}.admin_ids = '[]'::jsonb`)]: [],
  }));
  const sharedWithOne = admins.map((admin) => ({
    currency: admin.currency, [raw((alias: string) => `${alias}.admin_ids @> ?::jsonb`, [JSON.stringify([admin.id])])]: [],
  }));
  return { $or: [...sharedWithAll, ...sharedWithOne] } as FilterQuery<RatePlan>;
}
