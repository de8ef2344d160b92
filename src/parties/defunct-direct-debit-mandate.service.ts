import type { Em } from '../platform/orm.ts';
import { getByRef, type ResourceRef } from '../platform/resource-ref.ts';
import { DirectDebitMandate } from './direct-debit-mandate.entity.ts';
import { MANDATE, MANDATE_POPULATE } from './direct-debit-mandate-input.ts';
import { mandateDetail, type MandateDetail } from './direct-debit-mandate.queries.ts';

/** PUT .../defunct: idempotent; an optional external_updated_at is recorded. */
export async function markMandateDefunct(em: Em, ref: ResourceRef, externalUpdatedAt?: Date | null): Promise<MandateDetail> {
  const mandate = await getByRef(em, DirectDebitMandate, ref, MANDATE, MANDATE_POPULATE);
  mandate.markDefunct();
  if (externalUpdatedAt) mandate.externalUpdatedAt = externalUpdatedAt;
  await em.flush();
  return mandateDetail(mandate);
}
