import { linkEntity } from '../contracts/contract-entity.ts';
import { defineLink } from '../contracts/contract-properties.ts';
import { Evse } from './evse.entity.ts';
import { ReimbursementArrangement } from './reimbursement-arrangement.entity.ts';

/** An EVSE under a reimbursement arrangement; `validFrom` null defers to the arrangement's. */
export const ReimbursementLinkSchema = defineLink('ReimbursementLink', 'cpo_reimbursement_link', {
  contract: ['arrangement', () => ReimbursementArrangement], covers: ['evse', () => Evse],
});

/** isValidAt: the link alone; isUsableAt: the link and its arrangement (src/contracts/contract-entity.ts). */
export class ReimbursementLink extends linkEntity(ReimbursementLinkSchema.class, (link) => link.arrangement, {
  code: 'reimbursement_link_defunct', message: 'a defunct reimbursement link cannot change',
}) {}
ReimbursementLinkSchema.setClass(ReimbursementLink);
