import { assertExternalReferenceFree } from '../platform/external-reference.ts';
import type { Em } from '../platform/orm.ts';
import { assertNamedRecordsVisible, getByRef, type ResourceRef } from '../platform/resource-ref.ts';
import { customerNamed } from './customer-ref.ts';
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

async function upsertMandateIn(em: Em, ref: ResourceRef, patch: MandatePatch, options: MandateOptions): Promise<DirectDebitMandate> {
  if ('externalReference' in ref) {
    const existing = await em.findOne(DirectDebitMandate, { externalReference: ref.externalReference });
    if (!existing) return createMandateIn(em, { ...patch, externalReference: ref.externalReference }, options);
    patch = { ...patch, externalReference: undefined };
  }
  const mandate = await getByRef(em, DirectDebitMandate, ref, MANDATE, MANDATE_POPULATE);
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
