// Reimbursement arrangements and their EVSE links, on the contract core (src/contracts/). Defunct on
// an arrangement makes its links defunct too, in one transaction.
import {
  applyLinkPatch, contractCustomer, contractToLink, createContract, findById, markDefunct, updateContract,
  type ContractFields, type ContractKind, type LinkFields, type LinkKind,
} from '../contracts/contract-service.ts';
import { visibleAdministration } from '../parties/customer-input.ts';
import type { Patch } from '../platform/merge-patch.ts';
import type { Em } from '../platform/orm.ts';
import { linkEvse } from './link-evse.ts';
import { ReimbursementArrangement } from './reimbursement-arrangement.entity.ts';
import { ReimbursementLink } from './reimbursement-link.entity.ts';

export type ArrangementFields = ContractFields;
export type { LinkFields };

const ARRANGEMENT: ContractKind<ReimbursementArrangement> = {
  entity: ReimbursementArrangement, what: 'reimbursement arrangement',
  unique: { cpo_reimbursement_arrangement_external_reference_unique: ['external_reference'] },
};
const LINK: LinkKind<ReimbursementLink> = { entity: ReimbursementLink, contract: 'arrangement' };

export function getArrangement(em: Em, id: string): Promise<ReimbursementArrangement> {
  return findById(em, ReimbursementArrangement, id, ARRANGEMENT.what, ['customer']);
}

export function createArrangement(em: Em, input: Patch<ArrangementFields> & { adminId?: string; customerId?: string }): Promise<ReimbursementArrangement> {
  const { adminId, customerId, ...fields } = input;
  return em.transactional(async (tx) => {
    const admin = await visibleAdministration(tx, adminId);
    const customer = await contractCustomer(tx, customerId);
    return createContract(tx, ARRANGEMENT, { admin, customer }, fields);
  });
}

export function updateArrangement(em: Em, id: string, patch: Patch<ArrangementFields>): Promise<ReimbursementArrangement> {
  return em.transactional(async (tx) => updateContract(tx, ARRANGEMENT, await getArrangement(tx, id), patch));
}

export function markArrangementDefunct(em: Em, id: string, externalUpdatedAt?: Date | null): Promise<ReimbursementArrangement> {
  return em.transactional(async (tx) => markDefunct(tx, await getArrangement(tx, id), externalUpdatedAt, { links: LINK }));
}

export function getLink(em: Em, id: string): Promise<ReimbursementLink> {
  return findById(em, ReimbursementLink, id, 'reimbursement link', ['arrangement', 'evse']);
}

export function createLink(em: Em, input: Patch<LinkFields> & { arrangementId?: string; evseUid?: string }): Promise<ReimbursementLink> {
  return em.transactional(async (tx) => {
    const arrangement = await contractToLink(() => (input.arrangementId ? getArrangement(tx, input.arrangementId) : null), ARRANGEMENT.what, ['arrangement_id']);
    // external_updated_at is not recorded on create (as before the contract core).
    return linkEvse(tx, LINK, arrangement, 'arrangement', { validFrom: input.validFrom, validUntil: input.validUntil, evseUid: input.evseUid });
  });
}

export function updateLink(em: Em, id: string, patch: Patch<LinkFields>): Promise<ReimbursementLink> {
  return em.transactional(async (tx) => {
    const link = await getLink(tx, id);
    applyLinkPatch(link, link.arrangement, patch);
    await tx.flush();
    return link;
  });
}

export function markLinkDefunct(em: Em, id: string, externalUpdatedAt?: Date | null): Promise<ReimbursementLink> {
  return em.transactional(async (tx) => markDefunct(tx, await getLink(tx, id), externalUpdatedAt));
}
