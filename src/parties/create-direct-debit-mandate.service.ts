import { assertExternalReferenceFree } from '../platform/external-reference.ts';
import { flushUnique } from '../platform/flush-unique.ts';
import type { Em } from '../platform/orm.ts';
import { resolveCustomer } from './customer-ref.ts';
import { DirectDebitMandate } from './direct-debit-mandate.entity.ts';
import { nextState, type MandateOptions, type MandatePatch } from './direct-debit-mandate-input.ts';
import { mandateDetail, type MandateDetail } from './direct-debit-mandate.queries.ts';
import { settleOverlaps } from './settle-mandate-overlaps.ts';

export const MANDATE_EXTERNAL_REFERENCE_UNIQUE = 'direct_debit_mandate_external_reference_unique';

/** A reference taken between the check and the flush, by a request at the same moment, is the check's 400 too. */
export const flushMandate = (em: Em) => flushUnique(em, { [MANDATE_EXTERNAL_REFERENCE_UNIQUE]: ['external_reference'] });

export async function createMandate(em: Em, patch: MandatePatch, options: MandateOptions = {}): Promise<MandateDetail> {
  return mandateDetail(await em.transactional((tx) => createMandateIn(tx, patch, options)));
}

/** createMandate inside the caller's transaction. */
export async function createMandateIn(em: Em, patch: MandatePatch, options: MandateOptions): Promise<DirectDebitMandate> {
  const mandate = await addMandate(em, patch, options);
  await flushMandate(em);
  return mandate;
}

/**
 * createMandateIn without its flush: the caller flushes (an upsert by `ext_ref.` lets the unique
 * violation through to createUnlessReferenced, so that it merges into the one stored first).
 */
export async function addMandate(em: Em, patch: MandatePatch, options: MandateOptions): Promise<DirectDebitMandate> {
  const customer = await resolveCustomer(em, patch);
  const state = nextState(undefined, patch, new Date());
  await assertExternalReferenceFree(em, DirectDebitMandate, state.externalReference, 'mandate');
  await settleOverlaps(em, customer, undefined, state, options.invalidateOverlapping === true);
  return em.create(DirectDebitMandate, { customer, admin: customer.admin, ...state });
}
