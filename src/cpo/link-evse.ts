// An EVSE link of a CPO contract (a CPO subscription, a reimbursement arrangement): the EVSE named
// by evse_uid, of the contract's administration, linked from the bounds given (valid_from null
// defers to the contract's). One rule for both CPO link families.
import { newLink, orderedLinkSpan, type ContractRecord, type LinkFields, type LinkKind, type LinkSpan } from '../contracts/contract-service.ts';
import { DomainError, NotFoundError } from '../platform/errors.ts';
import type { Patch } from '../platform/merge-patch.ts';
import type { Em } from '../platform/orm.ts';
import { Evse } from './evse.entity.ts';

/**
 * Creates and flushes the link; `contractWord` names the contract in the administration mismatch;
 * `check` refuses what the contract's own rules forbid (the EVSE and span found, before the write).
 */
export async function linkEvse<L extends object>(
  em: Em, kind: LinkKind<L>, contract: ContractRecord, contractWord: string,
  input: Patch<LinkFields> & { evseUid?: string }, values: Record<string, unknown> = {}, check?: (evse: Evse, span: LinkSpan) => Promise<void>,
): Promise<L> {
  const evse = input.evseUid ? await em.findOne(Evse, { evseUid: input.evseUid }) : null;
  if (!evse) throw new NotFoundError('EVSE', { path: ['evse_uid'] });
  if (evse.admin.id.toLowerCase() !== contract.admin.id.toLowerCase()) {
    throw new DomainError('administration_mismatch', `the EVSE and the ${contractWord} belong to different administrations`, { path: ['evse_uid'] });
  }
  const span = orderedLinkSpan(contract, input);
  await check?.(evse, span);
  const link = newLink(em, kind, contract, { evse, ...values }, input);
  await em.flush();
  return link;
}
