import type { Em } from '../platform/orm.ts';
import { getByRef, type ResourceRef } from '../platform/resource-ref.ts';
import { DirectDebitMandate } from './direct-debit-mandate.entity.ts';
import { MANDATE, MANDATE_POPULATE } from './direct-debit-mandate-input.ts';

/** PUT .../defunct: idempotent; an optional external_updated_at is recorded. */
export async function markMandateDefunct(em: Em, ref: ResourceRef, externalUpdatedAt?: Date | null): Promise<DirectDebitMandate> {
  const mandate = await getByRef(em, DirectDebitMandate, ref, MANDATE, MANDATE_POPULATE);
  mandate.markDefunct();
  if (externalUpdatedAt) mandate.externalUpdatedAt = externalUpdatedAt;
  await em.flush();
  return mandate;
}
