// Reimbursement arrangements and their EVSE links, on the contract core (src/contracts/). Defunct on
// an arrangement makes its links defunct too, in one transaction. The writes answer plain data;
// the reads are in reimbursement.queries.ts.
import {
  applyLinkPatch, contractCustomer, contractToLink, createContract, findById, lockLink, markDefunct, updateContract,
  type ContractFields, type ContractKind, type LinkFields, type LinkKind,
} from '../contracts/contract-service.ts';
import { visibleAdministration } from '../parties/customer-input.ts';
import type { Patch } from '../platform/merge-patch.ts';
import type { Em } from '../platform/orm.ts';
import { plainData } from '../platform/plain-data.ts';
import { linkEvse } from './link-evse.ts';
import { ReimbursementArrangement } from './reimbursement-arrangement.entity.ts';
import { ReimbursementLink } from './reimbursement-link.entity.ts';
import { reimbursementLinkData, type ArrangementData, type ReimbursementLinkData } from './reimbursement.queries.ts';

export type ArrangementFields = ContractFields;
export type { LinkFields };

const ARRANGEMENT: ContractKind<ReimbursementArrangement> = {
  entity: ReimbursementArrangement, what: 'reimbursement arrangement',
  unique: { cpo_reimbursement_arrangement_external_reference_unique: ['external_reference'] },
};
const LINK: LinkKind<ReimbursementLink> = { entity: ReimbursementLink, contract: 'arrangement', what: 'reimbursement link', populate: ['arrangement', 'evse'] };

/**
 * The arrangement entity a write changes, or 400 not_found: locked and read again, so writes to one
 * arrangement and its links take turns, each from the last one's result.
 */
function lockArrangement(em: Em, id: string): Promise<ReimbursementArrangement> {
  return findById(em, ReimbursementArrangement, id, ARRANGEMENT.what, ['customer'], { lock: true });
}


export function createArrangement(em: Em, input: Patch<ArrangementFields> & { adminId?: string; customerId?: string }): Promise<ArrangementData> {
  const { adminId, customerId, ...fields } = input;
  return em.transactional(async (tx) => {
    const admin = await visibleAdministration(tx, adminId);
    const customer = await contractCustomer(tx, customerId);
    return plainData(await createContract(tx, ARRANGEMENT, { admin, customer }, fields));
  });
}

export function updateArrangement(em: Em, id: string, patch: Patch<ArrangementFields>): Promise<ArrangementData> {
  return em.transactional(async (tx) => plainData(await updateContract(tx, ARRANGEMENT, await lockArrangement(tx, id), patch)));
}

export function markArrangementDefunct(em: Em, id: string, externalUpdatedAt?: Date | null): Promise<ArrangementData> {
  return em.transactional(async (tx) => plainData(await markDefunct(tx, await lockArrangement(tx, id), externalUpdatedAt, { links: LINK })));
}

export function createLink(em: Em, input: Patch<LinkFields> & { arrangementId?: string; evseUid?: string }): Promise<ReimbursementLinkData> {
  return em.transactional(async (tx) => {
    const arrangement = await contractToLink(() => (input.arrangementId ? lockArrangement(tx, input.arrangementId) : null), ARRANGEMENT.what, ['arrangement_id']);
    // external_updated_at is not recorded on create (as before the contract core).
    return reimbursementLinkData(await linkEvse(tx, LINK, arrangement, 'arrangement', {
      validFrom: input.validFrom, validUntil: input.validUntil, evseUid: input.evseUid,
    }));
  });
}

export function updateLink(em: Em, id: string, patch: Patch<LinkFields>): Promise<ReimbursementLinkData> {
  return em.transactional(async (tx) => {
    const link = await lockLink(tx, LINK, id, (arrangementId) => lockArrangement(tx, arrangementId));
    applyLinkPatch(link, link.arrangement, patch);
    await tx.flush();
    return reimbursementLinkData(link);
  });
}

export function markLinkDefunct(em: Em, id: string, externalUpdatedAt?: Date | null): Promise<ReimbursementLinkData> {
  return em.transactional(async (tx) => reimbursementLinkData(await markDefunct(tx, await lockLink(tx, LINK, id, (arrangementId) => lockArrangement(tx, arrangementId)), externalUpdatedAt)));
}
