// The state of an end user's authorization over a target (a customer, an MSP token subscription):
// role and validity, how a patch changes it (checked), and how it is applied to the record.
import { DomainError } from '../platform/errors.ts';
import type { FieldPath } from '../platform/field-path.ts';
import type { Patch } from '../platform/merge-patch.ts';
import { assertValidityOrdered } from '../platform/validity.ts';
import type { AUTHORIZATION_ROLES } from './customer-authorization.entity.ts';

export type AuthorizationRole = (typeof AUTHORIZATION_ROLES)[number];

export interface AuthorizationState<R extends string = AuthorizationRole> {
  role: R;
  validFrom: Date | null;
  validUntil: Date | null;
  defunct: boolean;
}

export type AuthorizationPatch<R extends string = AuthorizationRole> = Patch<AuthorizationState<R>>;

export function stateOf<R extends string>(a: { role: R; validFrom?: Date | null; validUntil?: Date | null; defunct: boolean }): AuthorizationState<R> {
  return { role: a.role, validFrom: a.validFrom ?? null, validUntil: a.validUntil ?? null, defunct: a.defunct };
}

/** The authorization after the patch (null resets to the default), checked but not applied. */
export function nextState<R extends string = AuthorizationRole>(
  current: AuthorizationState<R> | undefined, patch: AuthorizationPatch<R>, at: FieldPath = [], defaultRole: R = 'owner' as R,
): AuthorizationState<R> {
  const pick = <K extends keyof AuthorizationState<R>>(key: K): AuthorizationState<R>[K] | null =>
    (patch[key] === undefined ? (current?.[key] ?? null) : patch[key]) as AuthorizationState<R>[K] | null;
  const state: AuthorizationState<R> = {
    role: pick('role') ?? defaultRole,
    validFrom: pick('validFrom'),
    validUntil: pick('validUntil'),
    defunct: pick('defunct') ?? false,
  };
  if (current?.defunct && !state.defunct) {
    throw new DomainError('authorization_defunct', 'a defunct authorization cannot be made valid again', { path: [...at, 'defunct'] });
  }
  assertValidityOrdered(state.validFrom, state.validUntil, { path: [...at, 'valid_until'] });
  return state;
}

export function applyState<R extends string>(
  authorization: { role: R; validFrom?: Date | null; validUntil?: Date | null; defunct: boolean }, state: AuthorizationState<R>,
): void {
  if (authorization.role !== state.role) authorization.role = state.role;
  if (authorization.validFrom?.getTime() !== state.validFrom?.getTime()) authorization.validFrom = state.validFrom;
  if (authorization.validUntil?.getTime() !== state.validUntil?.getTime()) authorization.validUntil = state.validUntil;
  if (authorization.defunct !== state.defunct) authorization.defunct = state.defunct;
}
