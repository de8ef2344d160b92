import { LockMode } from '@mikro-orm/core';
import { assertExternalReferenceFree } from '../platform/external-reference.ts';
import { DomainError, type ErrorDetail } from '../platform/errors.ts';
import { fieldLabel, type FieldPath } from '../platform/field-path.ts';
import type { Patch } from '../platform/merge-patch.ts';
import type { Em } from '../platform/orm.ts';
import { assertNamedRecordsVisible, getByRef, type ResourceRef } from '../platform/resource-ref.ts';
import type { Customer } from './customer.entity.ts';
import { customerNamed, resolveCustomer } from './customer-ref.ts';
import { DirectDebitMandate } from './direct-debit-mandate.entity.ts';
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
interface MandateState {
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

const PARAM: Record<keyof MandateState, FieldPath> = {
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

const WHAT = 'direct debit mandate';
const POPULATE = ['customer'];

function stateOf(m: DirectDebitMandate): MandateState {
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
function nextState(base: MandateState | undefined, patch: MandatePatch, now: Date): MandateState {
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
  if (state.validUntil && state.validUntil.getTime() <= state.validFrom.getTime()) {
    failures.push({ path: PARAM.validUntil, message: 'valid_until must be after valid_from' });
  }
  if (failures.length) throw DomainError.of('invalid_input', failures);
  return state;
}

function same(a: unknown, b: unknown): boolean {
  return a instanceof Date && b instanceof Date ? a.getTime() === b.getTime() : a === b;
}

/** A defunct mandate stays defunct and unchanged; only external_updated_at is still recorded. */
function assertDefunctUnchanged(current: MandateState, next: MandateState): void {
  if (!current.defunct) return;
  if (!next.defunct) throw new DomainError('mandate_defunct', 'a defunct mandate cannot be made valid again', { path: PARAM.defunct });
  const changed = (Object.keys(PARAM) as (keyof MandateState)[])
    .find((key) => key !== 'externalUpdatedAt' && !same(current[key], next[key]));
  if (changed) throw new DomainError('mandate_defunct', 'a defunct mandate cannot be changed', { path: PARAM[changed] });
}

/**
 * Validity is [valid_from, valid_until). A customer's non-defunct mandates may not overlap:
 * an overlap is refused, unless the caller asks to invalidate, in which case every overlapping
 * mandate ends where this one starts (or becomes defunct when it starts at or after that).
 * Loads before anything changes, so no auto-flush writes a half-checked state.
 */
async function settleOverlaps(em: Em, customer: Customer, subject: DirectDebitMandate | undefined, state: MandateState, invalidate: boolean): Promise<void> {
  if (state.defunct) return;
  // Serializes concurrent mandate changes of one customer, so two overlapping ones cannot both pass.
  await em.lock(customer, LockMode.PESSIMISTIC_WRITE);
  const others = await em.find(DirectDebitMandate, { customer, defunct: false }, { orderBy: { id: 'asc' } });
  const overlapping = others.filter((other) => other !== subject && other.overlaps(state.validFrom, state.validUntil));
  if (!overlapping.length) return;
  if (!invalidate) {
    throw new DomainError('overlapping_mandate',
      `the validity overlaps mandate ${overlapping.map((m) => m.id).join(', ')}; set invalidate_overlapping_mandate to end it`,
      { path: PARAM.validFrom });
  }
  for (const other of overlapping) other.yieldTo(state.validFrom);
}

function applyState(mandate: DirectDebitMandate, state: MandateState): void {
  for (const key of Object.keys(PARAM) as (keyof MandateState)[]) {
    if (!same(mandate[key], state[key])) (mandate as unknown as Record<string, unknown>)[key] = state[key];
  }
}

export function createMandate(em: Em, patch: MandatePatch, options: MandateOptions = {}): Promise<DirectDebitMandate> {
  return em.transactional((tx) => createMandateIn(tx, patch, options));
}

async function createMandateIn(em: Em, patch: MandatePatch, options: MandateOptions): Promise<DirectDebitMandate> {
  const customer = await resolveCustomer(em, patch);
  const state = nextState(undefined, patch, new Date());
  await assertExternalReferenceFree(em, DirectDebitMandate, state.externalReference, 'mandate');
  await settleOverlaps(em, customer, undefined, state, options.invalidateOverlapping === true);
  const mandate = em.create(DirectDebitMandate, { customer, admin: customer.admin, ...state });
  await em.flush();
  return mandate;
}

/**
 * POST (merge) or PUT (replace) on /billing-direct-debit-mandate/{id}. On `ext_ref.<ref>` a
 * missing mandate is created with that reference; on an id it must exist. The customer is
 * chosen on create only.
 */
export function upsertMandate(em: Em, ref: ResourceRef, patch: MandatePatch, options: MandateOptions = {}): Promise<DirectDebitMandate> {
  return em.transactional((tx) => upsertMandateIn(tx, ref, patch, options));
}

async function upsertMandateIn(em: Em, ref: ResourceRef, patch: MandatePatch, options: MandateOptions): Promise<DirectDebitMandate> {
  if ('externalReference' in ref) {
    const existing = await em.findOne(DirectDebitMandate, { externalReference: ref.externalReference });
    if (!existing) return createMandateIn(em, { ...patch, externalReference: ref.externalReference }, options);
    patch = { ...patch, externalReference: undefined };
  }
  const mandate = await getByRef(em, DirectDebitMandate, ref, WHAT, POPULATE);
  await assertNamedRecordsVisible(em, customerNamed(patch));
  const current = stateOf(mandate);
  const state = nextState(current, patch, new Date());
  assertDefunctUnchanged(current, state);
  if (state.externalReference && state.externalReference.toLowerCase() !== current.externalReference?.toLowerCase()) {
    await assertExternalReferenceFree(em, DirectDebitMandate, state.externalReference, 'mandate');
  }
  const movesValidity = !same(current.validFrom, state.validFrom) || !same(current.validUntil, state.validUntil);
  if (movesValidity) {
    await settleOverlaps(em, mandate.customer, mandate, state, options.replace === true && options.invalidateOverlapping === true);
  }
  applyState(mandate, state);
  await em.flush();
  return mandate;
}

/** PUT .../defunct: idempotent; an optional external_updated_at is recorded. */
export async function markMandateDefunct(em: Em, ref: ResourceRef, externalUpdatedAt?: Date | null): Promise<DirectDebitMandate> {
  const mandate = await getByRef(em, DirectDebitMandate, ref, WHAT, POPULATE);
  mandate.markDefunct();
  if (externalUpdatedAt) mandate.externalUpdatedAt = externalUpdatedAt;
  await em.flush();
  return mandate;
}

export function getMandate(em: Em, ref: ResourceRef): Promise<DirectDebitMandate> {
  return getByRef(em, DirectDebitMandate, ref, WHAT, POPULATE);
}

