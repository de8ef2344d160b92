// The administration filter: every entity that belongs to an administration declares this
// filter, and every EntityManager fork sets its params once (`scopedEm` below). Queries of a
// scoped credential then never see other administrations.
import { RequestContext } from '@mikro-orm/core';
import type { Em, Orm } from '../platform/orm.ts';

export const ADMIN_SCOPE = 'adminScope';

export interface AdminScope {
  /** true: the caller sees every administration. */
  all: boolean;
  ids: string[];
}

export const UNSCOPED: AdminScope = { all: true, ids: [] };

/** The scope of the caller an EntityManager serves (unscoped: the worker, the CLI). */
export function callerScope(em: Em): AdminScope {
  return (em.getFilterParams(ADMIN_SCOPE) as AdminScope | undefined) ?? UNSCOPED;
}

export function adminScopeFilter(column: string) {
  return {
    [ADMIN_SCOPE]: {
      name: ADMIN_SCOPE,
      default: true,
      cond: (args: Record<string, unknown>) => {
        const scope = args as unknown as AdminScope;
        return scope.all ? {} : { [column]: { $in: scope.ids } };
      },
    },
  };
}

/** What a list's pages read with (SeekList's where, orderFirst and filters). */
export interface ScopedRead { where: Record<string, unknown>; orderFirst?: string; filters?: Record<string, boolean> }

/**
 * The pages of a list with an index on (its administration, its list key), as the caller reads
 * them. A caller limited to one administration reads that index in order: the scope becomes a
 * condition of the list, `in (x, x)`, and the administration comes first in the order. The filter's
 * `in (x)` is read by PostgreSQL as `= x`, a constant; the planner then walks the key's index instead,
 * through every other administration's rows before or after this one's (a page near the end of an
 * administration whose rows are not the newest took 0.8 s among a million others' rows, 13 ms
 * through the index). A list of two stays a list, which the planner cannot fold into a constant.
 */
export function scopedRead(em: Em, where: Record<string, unknown>, property: string): ScopedRead {
  const scope = callerScope(em);
  if (scope.all || scope.ids.length !== 1) return { where };
  const [id] = scope.ids;
  return { where: { $and: [where, { [property]: { $in: [id, id] } }] }, orderFirst: property, filters: { [ADMIN_SCOPE]: false } };
}

/**
 * The caller's scope as a condition on `properties` (any of them) instead of the entity's filter,
 * for a record one of whose other administrations decides who sees it (a charge session's driver's
 * side: `driverAdmin`); `{}` for a caller who sees every administration. Read with the filter left
 * out (`filters` of `scopedReadOn`).
 */
export function scopeOn(em: Em, properties: readonly string[]): Record<string, unknown> {
  const scope = callerScope(em);
  if (scope.all) return {};
  const ids = scope.ids.length === 1 ? [scope.ids[0], scope.ids[0]] : scope.ids;
  const conditions = properties.map((property) => ({ [property]: { $in: ids } }));
  return conditions.length === 1 ? conditions[0] : { $or: conditions };
}

/**
 * The pages of a list scoped by `scopeOn` (the entity's filter left out): the condition goes in
 * `where` and, for `after`, in `scope` (SeekList.has); one administration and one property: that
 * property first in the order, as scopedRead does.
 */
export function scopedReadOn(em: Em, where: Record<string, unknown>, properties: readonly string[]): ScopedRead & { scope?: Record<string, unknown> } {
  const scope = callerScope(em);
  if (scope.all) return { where };
  const condition = scopeOn(em, properties);
  return {
    where: { $and: [where, condition] }, scope: condition, filters: { [ADMIN_SCOPE]: false },
    ...(scope.ids.length === 1 && properties.length === 1 ? { orderFirst: properties[0] } : {}),
  };
}

export function canSeeAdministration(scope: AdminScope, adminId: string): boolean {
  return scope.all || scope.ids.some((id) => id.toLowerCase() === adminId.toLowerCase());
}

/** A fresh unit of work limited to what `scope` may see (everything for system work). */
export function scopedEm(orm: Orm, scope: AdminScope = UNSCOPED): Em {
  const em = orm.em.fork();
  em.setFilterParams(ADMIN_SCOPE, scope as unknown as Record<string, unknown>);
  return em;
}

/**
 * Runs `work` in a request context (MikroORM's RequestContext: what `orm.em` resolves to while it
 * runs) whose EntityManager is the one `work` gets: a single fork per request, limited to `scope`,
 * as `scopedEm` makes it (not a context's own `useContext` fork beside it).
 */
export function inScopedRequest<T>(orm: Orm, scope: AdminScope, work: (em: Em) => T): T {
  return RequestContext.create(orm.em, () => {
    const em = RequestContext.getEntityManager(orm.em.name) as Em;
    em.setFilterParams(ADMIN_SCOPE, scope as unknown as Record<string, unknown>);
    return work(em);
    // The same kind of fork as scopedEm's (its own identity map, no context look-up of its own):
    // services get it as before; the option is left out of MikroORM's type, not of the fork it makes.
  }, { useContext: false } as Parameters<typeof RequestContext.create>[2]);
}
