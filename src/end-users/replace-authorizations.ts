// The deprecated PUT of an end user's authorizations over one kind of target (customers, MSP token
// subscriptions): the items are the whole wanted set. Listed targets are created or replaced (omitted
// fields reset), every other authorization of the end user becomes defunct; everything is checked
// first and written in one flush. The targets are found with one query, whatever the number of items.
import type { EntityName } from '@mikro-orm/core';
import { DomainError, NotFoundError } from '../platform/errors.ts';
import { flushUnique } from '../platform/flush-unique.ts';
import type { Em } from '../platform/orm.ts';
import { findByRefs, type ResourceRef } from '../platform/resource-ref.ts';
import { applyState, nextState, type AuthorizationState } from './authorization-state.ts';
import type { EndUser } from './end-user.entity.ts';
import { endUserToChange } from './save-end-user.service.ts';

interface AuthorizationTarget { id: string; externalReference?: string | null; admin: { id: string } }

interface ReplacedAuthorization<R extends string> { role: R; validFrom?: Date | null; validUntil?: Date | null; defunct: boolean }

/** One entry of the replace: the target the client named, and the authorization's fields. */
export interface ReplaceItem<R extends string> {
  target: ResourceRef;
  role?: R | null;
  validFrom?: Date | null;
  validUntil?: Date | null;
}

export interface AuthorizationTargetKind<T extends AuthorizationTarget, A extends ReplacedAuthorization<R>, R extends string> {
  targetEntity: EntityName<T>;
  /** The target's item member, e.g. `customer_id`. */
  member: string;
  /** The not_found name, e.g. `token subscription`, and the duplicate one, e.g. `subscription`. */
  notFound: string;
  listed: string;
  defaultRole: R;
  pairConstraint: string;
  /** All authorizations of the end user (defunct ones too), with their targets, oldest first. */
  current(em: Em, endUser: EndUser): Promise<A[]>;
  targetOf(authorization: A): T;
  create(em: Em, endUser: EndUser, target: T, state: AuthorizationState<R>): A;
}

/** Only targets of the end user's own administration; anything else is not found (the first such item is named). */
async function authorizableTargets<T extends AuthorizationTarget>(
  em: Em, kind: AuthorizationTargetKind<T, any, any>, endUser: EndUser, items: ReplaceItem<string>[],
): Promise<T[]> {
  const found = await findByRefs(em, kind.targetEntity, items.map((item) => item.target));
  const targets: T[] = [];
  for (const [i, target] of found.entries()) {
    const path = ['items', i, kind.member];
    if (!target || target.admin.id.toLowerCase() !== endUser.admin.id.toLowerCase()) throw new NotFoundError(kind.notFound, { path });
    if (targets.includes(target)) throw new DomainError('duplicate', `the ${kind.listed} is listed more than once`, { path });
    targets.push(target);
  }
  return targets;
}

export async function replaceAuthorizations<T extends AuthorizationTarget, A extends ReplacedAuthorization<R>, R extends string>(
  em: Em, kind: AuthorizationTargetKind<T, A, R>, endUserId: string, items: ReplaceItem<R>[],
): Promise<A[]> {
  const endUser = await endUserToChange(em, endUserId);
  const targets = await authorizableTargets(em, kind, endUser, items);
  const current = await kind.current(em, endUser);
  const planned = items.map((item, i) => ({
    existing: current.find((a) => kind.targetOf(a) === targets[i] && !a.defunct),
    target: targets[i],
    state: nextState<R>(undefined, { role: item.role, validFrom: item.validFrom, validUntil: item.validUntil }, ['items', i], kind.defaultRole),
  }));
  const result = [...current];
  for (const { existing, target, state } of planned) {
    if (existing) applyState(existing, state);
    else result.push(kind.create(em, endUser, target, state));
  }
  for (const authorization of current) {
    if (!targets.includes(kind.targetOf(authorization))) authorization.defunct = true;
  }
  await flushUnique(em, { [kind.pairConstraint]: ['items'] });
  return result;
}
