import { assertExternalReferenceFree } from '../platform/external-reference.ts';
import type { Em } from '../platform/orm.ts';
import { resolveCustomer } from './customer-ref.ts';
import { DirectDebitMandate } from './direct-debit-mandate.entity.ts';
import { nextState, type MandateOptions, type MandatePatch } from './direct-debit-mandate-input.ts';
import { mandateDetail, type MandateDetail } from './direct-debit-mandate.queries.ts';
import { settleOverlaps } from './settle-mandate-overlaps.ts';

export async function createMandate(em: Em, patch: MandatePatch, options: MandateOptions = {}): Promise<MandateDetail> {
  return mandateDetail(await em.transactional((tx) => createMandateIn(tx, patch, options)));
}

/** createMandate inside the caller's transaction. */
export async function createMandateIn(em: Em, patch: MandatePatch, options: MandateOptions): Promise<DirectDebitMandate> {
  const customer = await resolveCustomer(em, patch);
  const state = nextState(undefined, patch, new Date());
  await assertExternalReferenceFree(em, DirectDebitMandate, state.externalReference, 'mandate');
  await settleOverlaps(em, customer, undefined, state, options.invalidateOverlapping === true);
  const mandate = em.create(DirectDebitMandate, { customer, admin: customer.admin, ...state });
  await em.flush();
  return mandate;
}
