import { LockMode } from '@mikro-orm/core';
import { assertExternalReferenceFree, setsOtherExternalReference } from '../platform/external-reference.ts';
import { createUnlessReferenced } from '../platform/flush-unique.ts';
import type { Em } from '../platform/orm.ts';
import { assertNamedRecordsVisible, getByRef, type ResourceRef } from '../platform/resource-ref.ts';
import { customerNamed, resolveCustomer } from './customer-ref.ts';
import { addMandate, flushMandate, MANDATE_EXTERNAL_REFERENCE_UNIQUE } from './create-direct-debit-mandate.service.ts';
import { DirectDebitMandate } from './direct-debit-mandate.entity.ts';
import {
  applyState, assertDefunctUnchanged, MANDATE, MANDATE_POPULATE, nextState, same, stateOf, type MandateOptions, type MandatePatch,
} from './direct-debit-mandate-input.ts';
import { mandateDetail, type MandateDetail } from './direct-debit-mandate.queries.ts';
import { settleOverlaps } from './settle-mandate-overlaps.ts';

/**
 * POST (merge) or PUT (replace) on /billing-direct-debit-mandate/{id}. On `ext_ref.<ref>` a
 * missing mandate is created with that reference; on an id it must exist. The customer is
 * chosen on create only. The same create sent at once stores one mandate, whatever customers the
 * requests name; the others merge into it and answer 200 (createUnlessReferenced).
 */
export async function upsertMandate(em: Em, ref: ResourceRef, patch: MandatePatch, options: MandateOptions = {}): Promise<MandateDetail> {
  if ('externalReference' in ref) {
    const creating = { ...patch, externalReference: ref.externalReference };
    const created = await createUnlessReferenced(em, DirectDebitMandate, ref.externalReference, MANDATE_EXTERNAL_REFERENCE_UNIQUE, 'mandate',
      (tx) => createUnlessReferencedUnderLock(tx, creating, options));
    if (created) return mandateDetail(created);
    // The path names the record; a body reference does not rename it.
    patch = { ...patch, externalReference: undefined };
  }
  return mandateDetail(await em.transactional((tx) => updateMandateIn(tx, ref, patch, options)));
}

/**
 * The create of an upsert by `ext_ref.`: it waits for the mandate changes of its customer (the lock
 * settleOverlaps takes) and looks for the reference again under it, so that the same create sent at
 * once for one customer finds the first one's mandate (null: merge into it) where it would otherwise
 * overlap it. Its flush lets a unique violation through: createUnlessReferenced takes it as the check.
 */
async function createUnlessReferencedUnderLock(em: Em, patch: MandatePatch, options: MandateOptions): Promise<DirectDebitMandate | null> {
  await em.lock(await resolveCustomer(em, patch), LockMode.PESSIMISTIC_WRITE);
  if (await em.findOne(DirectDebitMandate, { externalReference: patch.externalReference! })) return null;
  const mandate = await addMandate(em, patch, options);
  await em.flush();
  return mandate;
}

async function updateMandateIn(em: Em, ref: ResourceRef, patch: MandatePatch, options: MandateOptions): Promise<DirectDebitMandate> {
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
  await flushMandate(em);
  return mandate;
}
