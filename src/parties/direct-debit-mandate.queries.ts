// Reads of direct debit mandates, for REST and GraphQL.
import type { Em } from '../platform/orm.ts';
import { getByRef, type ResourceRef } from '../platform/resource-ref.ts';
import { DirectDebitMandate } from './direct-debit-mandate.entity.ts';
import { MANDATE, MANDATE_POPULATE } from './direct-debit-mandate-input.ts';

export function getMandate(em: Em, ref: ResourceRef): Promise<DirectDebitMandate> {
  return getByRef(em, DirectDebitMandate, ref, MANDATE, MANDATE_POPULATE);
}
