import { LockMode } from '@mikro-orm/core';
import { assertExternalReferenceFree, setsOtherExternalReference } from '../platform/external-reference.ts';
import type { Em } from '../platform/orm.ts';
import { assertNamedRecordsVisible, getByRef, type ResourceRef } from '../platform/resource-ref.ts';
import { customerNamed, resolveCustomer } from './customer-ref.ts';
import { createMandateIn } from './create-direct-debit-mandate.service.ts';
import { DirectDebitMandate } from './direct-debit-mandate.entity.ts';
import {
  applyState, assertDefunctUnchanged, MANDATE, MANDATE_POPULATE, nextState, same, stateOf, type MandateOptions, type MandatePatch,
} from './direct-debit-mandate-input.ts';
import { mandateDetail, type MandateDetail } from './direct-debit-mandate.queries.ts';
import { settleOverlaps } from './settle-mandate-overlaps.ts';

/**
 * POST (merge) or PUT (replace) on /billing-direct-debit-mandate/{id}. On `ext_ref.<ref>` a
 * missing mandate is created with that reference; on an id it must exist. The customer is
 * chosen on create only.
 */
export async function upsertMandate(em: Em, ref: ResourceRef, patch: MandatePatch, options: MandateOptions = {}): Promise<MandateDetail> {
  return mandateDetail(await em.transactional((tx) => upsertMandateIn(tx, ref, patch, options)));
}

/**
 * The mandate holding the reference, or null. A create waits for the mandate changes of its customer
 * (the lock settleOverlaps takes), so the same create sent at once finds the first one's mandate
 * here and merges into it, where it would otherwise overlap it.
 */
async function mandateReferenced(em: Em, externalReference: string, patch: MandatePatch): Promise<DirectDebitMandate | null> {
  const existing = await em.findOne(DirectDebitMandate, { externalReference });
  if (existing) return existing;
  await em.lock(await resolveCustomer(em, patch), LockMode.PESSIMISTIC_WRITE);
  return em.findOne(DirectDebitMandate, { externalReference });
}

async function upsertMandateIn(em: Em, ref: ResourceRef, patch: MandatePatch, options: MandateOptions): Promise<DirectDebitMandate> {
  if ('externalReference' in ref) {
    const existing = await mandateReferenced(em, ref.externalReference, patch);
    if (!existing) return createMandateIn(em, { ...patch, externalReference: ref.externalReference }, options);
    patch = { ...patch, externalReference: undefined };
  }
  const mandate = await getByRef(em, DirectDebitMandate, ref, MANDATE, MANDATE_POPULATE);
  await assertNamedRecordsVisible(em, customerNamed(patch));
  const current = stateOf(mandate);
  const state = nextState(current, patch, new Date());
  assertDefunctUnchanged(current, state);
  if (setsOtherExternalReference(state.externalReference, current.externalReference)) {
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
