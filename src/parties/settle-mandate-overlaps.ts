import { LockMode } from '@mikro-orm/core';
import { DomainError } from '../platform/errors.ts';
import type { Em } from '../platform/orm.ts';
import type { Customer } from './customer.entity.ts';
import { DirectDebitMandate } from './direct-debit-mandate.entity.ts';
import { PARAM, type MandateState } from './direct-debit-mandate-input.ts';

/**
 * Validity is [valid_from, valid_until). A customer's non-defunct mandates may not overlap:
 * an overlap is refused, unless the caller asks to invalidate, in which case every overlapping
 * mandate ends where this one starts (or becomes defunct when it starts at or after that).
 * Loads before anything changes, so no auto-flush writes a half-checked state.
 */
export async function settleOverlaps(em: Em, customer: Customer, subject: DirectDebitMandate | undefined, state: MandateState, invalidate: boolean): Promise<void> {
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
