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
