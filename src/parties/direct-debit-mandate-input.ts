// A direct debit mandate's input and the rules of its state, shared by its use cases.
import { DomainError, type ErrorDetail } from '../platform/errors.ts';
import { fieldLabel, type FieldPath } from '../platform/field-path.ts';
import type { Patch } from '../platform/merge-patch.ts';
import { boundsOrderFailure } from '../platform/validity.ts';
import type { DirectDebitMandate } from './direct-debit-mandate.entity.ts';
import { checkBic, checkIban } from './iban.ts';

export interface MandateFields {
  customerId: string;
  customerExternalReference: string;
  bankAccountName: string;
  iban: string;
  bic: string;
  mandateReference: string;
  signedAt: Date;
  validFrom: Date;
  validUntil: Date;
  defunct: boolean;
  externalReference: string;
  externalUpdatedAt: Date;
}

export type MandatePatch = Patch<MandateFields>;

export interface MandateOptions {
  /** End or defunct the customer's overlapping mandates instead of refusing (create/replace only). */
  invalidateOverlapping?: boolean;
  /** The patch is a replace-update (PUT): the only kind of update that honours invalidateOverlapping. */
  replace?: boolean;
}

/** Everything a mandate stores besides its customer. */
export interface MandateState {
  bankAccountName: string;
  iban: string;
  bic: string | null;
  mandateReference: string | null;
  signedAt: Date | null;
  validFrom: Date;
  validUntil: Date | null;
  defunct: boolean;
  externalReference: string | null;
  externalUpdatedAt: Date | null;
}

export const PARAM: Record<keyof MandateState, FieldPath> = {
  bankAccountName: ['bank_account_name'],
  iban: ['iban'],
  bic: ['bic'],
  mandateReference: ['mandate_reference'],
  signedAt: ['signed_at'],
  validFrom: ['valid_from'],
  validUntil: ['valid_until'],
  defunct: ['defunct'],
  externalReference: ['external_reference'],
  externalUpdatedAt: ['external_updated_at'],
};

export const MANDATE = 'direct debit mandate';
export const MANDATE_POPULATE = ['customer'];

export function stateOf(m: DirectDebitMandate): MandateState {
  return {
    bankAccountName: m.bankAccountName,
    iban: m.iban,
    bic: m.bic ?? null,
    mandateReference: m.mandateReference ?? null,
    signedAt: m.signedAt ?? null,
    validFrom: m.validFrom,
    validUntil: m.validUntil ?? null,
    defunct: m.defunct,
    externalReference: m.externalReference ?? null,
    externalUpdatedAt: m.externalUpdatedAt ?? null,
  };
}

/**
 * The mandate after the patch, checked but not applied. valid_from set to null (or omitted on
 * create or replace) is its default: now. Every failed check is reported.
 */
export function nextState(base: MandateState | undefined, patch: MandatePatch, now: Date): MandateState {
  const failures: ErrorDetail[] = [];
  const pick = <K extends keyof MandateState>(key: K): MandateState[K] | null =>
    (patch[key] === undefined ? (base?.[key] ?? null) : patch[key]) as MandateState[K] | null;
  const required = (key: 'bankAccountName' | 'iban'): string | null => {
    const value = pick(key) || null;
    if (value === null) failures.push({ path: PARAM[key], message: `${fieldLabel(PARAM[key])} is required` });
    return value;
  };
  const checked = (key: 'iban' | 'bic', value: string | null, check: typeof checkIban): string | null => {
    if (value === null || patch[key] === undefined) return value;
    const result = check(value);
    if (!result.ok) failures.push({ path: PARAM[key], message: result.reason });
    return result.ok ? result.value : value;
  };

  const state: MandateState = {
    bankAccountName: required('bankAccountName') ?? '',
    iban: checked('iban', required('iban'), checkIban) ?? '',
    bic: checked('bic', pick('bic'), checkBic),
    mandateReference: pick('mandateReference'),
    signedAt: pick('signedAt'),
    validFrom: pick('validFrom') ?? now,
    validUntil: pick('validUntil'),
    defunct: pick('defunct') ?? false,
    externalReference: pick('externalReference'),
    externalUpdatedAt: pick('externalUpdatedAt'),
  };
  const unordered = boundsOrderFailure(state.validFrom, state.validUntil, { path: PARAM.validUntil });
  if (unordered) failures.push(unordered);
  if (failures.length) throw DomainError.of('invalid_input', failures);
  return state;
}

export function same(a: unknown, b: unknown): boolean {
  return a instanceof Date && b instanceof Date ? a.getTime() === b.getTime() : a === b;
}

/** A defunct mandate stays defunct and unchanged; only external_updated_at is still recorded. */
export function assertDefunctUnchanged(current: MandateState, next: MandateState): void {
  if (!current.defunct) return;
  if (!next.defunct) throw new DomainError('mandate_defunct', 'a defunct mandate cannot be made valid again', { path: PARAM.defunct });
  const changed = (Object.keys(PARAM) as (keyof MandateState)[])
    .find((key) => key !== 'externalUpdatedAt' && !same(current[key], next[key]));
  if (changed) throw new DomainError('mandate_defunct', 'a defunct mandate cannot be changed', { path: PARAM[changed] });
}

export function applyState(mandate: DirectDebitMandate, state: MandateState): void {
  for (const key of Object.keys(PARAM) as (keyof MandateState)[]) {
    if (!same(mandate[key], state[key])) (mandate as unknown as Record<string, unknown>)[key] = state[key];
  }
}
