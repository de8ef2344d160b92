// Reimbursement arrangements and their EVSE links. Defunct on an arrangement makes its links
// defunct too, in one transaction.
import { Customer } from '../parties/customer.entity.ts';
import { visibleAdministration } from '../parties/customer-input.ts';
import { DomainError, InvalidInputError, NotFoundError } from '../platform/errors.ts';
import { assertExternalReferenceFree } from '../platform/external-reference.ts';
import { flushUnique } from '../platform/flush-unique.ts';
import { isUuid } from '../platform/ids.ts';
import { applyPatch, type Patch } from '../platform/merge-patch.ts';
import { mergeCustomFields } from '../platform/custom-fields.ts';
import type { Em } from '../platform/orm.ts';
import { assertValidityOrdered } from '../platform/validity.ts';
import { Evse } from './evse.entity.ts';
import { ReimbursementArrangement } from './reimbursement-arrangement.entity.ts';
import { ReimbursementLink } from './reimbursement-link.entity.ts';

export interface ArrangementFields {
  buyerReference: string;
  validFrom: Date;
  validUntil: Date;
  customFields: Record<string, unknown>;
  externalReference: string;
  externalUpdatedAt: Date;
}

export interface LinkFields { validFrom: Date; validUntil: Date; externalUpdatedAt: Date }

const UNIQUE = { cpo_reimbursement_arrangement_external_reference_unique: ['external_reference'] };


export async function getArrangement(em: Em, id: string): Promise<ReimbursementArrangement> {
  const arrangement = isUuid(id) ? await em.findOne(ReimbursementArrangement, { id }, { populate: ['customer'] }) : null;
  if (!arrangement) throw new NotFoundError('reimbursement arrangement');
  return arrangement;
}

function applyArrangement(arrangement: ReimbursementArrangement, patch: Patch<ArrangementFields>): void {
  if (patch.validFrom === null) throw new InvalidInputError('valid_from cannot be removed', { path: ['valid_from'] });
  const customFields = patch.customFields === undefined ? undefined
    : patch.customFields === null ? {} : mergeCustomFields(arrangement.customFields, patch.customFields);
  applyPatch(arrangement, { ...patch, customFields });
  assertValidityOrdered(arrangement.validFrom, arrangement.validUntil);
}

export function createArrangement(em: Em, input: Patch<ArrangementFields> & { adminId?: string; customerId?: string }): Promise<ReimbursementArrangement> {
  const { adminId, customerId, ...fields } = input;
  return em.transactional(async (tx) => {
    const admin = await visibleAdministration(tx, adminId);
    const customer = customerId && isUuid(customerId) ? await tx.findOne(Customer, { id: customerId }) : null;
    if (!customer) throw new NotFoundError('customer', { path: ['customer_id'] });
    if (!input.validFrom) throw new InvalidInputError('valid_from is required', { path: ['valid_from'] });
    await assertExternalReferenceFree(tx, ReimbursementArrangement, input.externalReference, 'reimbursement arrangement');
    const arrangement = tx.create(ReimbursementArrangement, { admin, customer, validFrom: input.validFrom });
    applyArrangement(arrangement, fields);
    await flushUnique(tx, UNIQUE);
    return arrangement;
  });
}

export function updateArrangement(em: Em, id: string, patch: Patch<ArrangementFields>): Promise<ReimbursementArrangement> {
  return em.transactional(async (tx) => {
    const arrangement = await getArrangement(tx, id);
    arrangement.assertChangeable();
    if (patch.externalReference && patch.externalReference.toLowerCase() !== arrangement.externalReference?.toLowerCase()) {
      await assertExternalReferenceFree(tx, ReimbursementArrangement, patch.externalReference, 'reimbursement arrangement');
    }
    applyArrangement(arrangement, patch);
    await flushUnique(tx, UNIQUE);
    return arrangement;
  });
}

export function markArrangementDefunct(em: Em, id: string, externalUpdatedAt?: Date | null): Promise<ReimbursementArrangement> {
  return em.transactional(async (tx) => {
    const arrangement = await getArrangement(tx, id);
    arrangement.defunct = true;
    if (externalUpdatedAt) arrangement.externalUpdatedAt = externalUpdatedAt;
    const links = await tx.find(ReimbursementLink, { arrangement, defunct: false });
    for (const link of links) link.markDefunct();
    await tx.flush();
    return arrangement;
  });
}

export async function getLink(em: Em, id: string): Promise<ReimbursementLink> {
  const link = isUuid(id) ? await em.findOne(ReimbursementLink, { id }, { populate: ['arrangement', 'evse'] }) : null;
  if (!link) throw new NotFoundError('reimbursement link');
  return link;
}

export function createLink(em: Em, input: Patch<LinkFields> & { arrangementId?: string; evseUid?: string }): Promise<ReimbursementLink> {
  return em.transactional(async (tx) => {
    const arrangement = input.arrangementId ? await getArrangement(tx, input.arrangementId).catch(() => null) : null;
    if (!arrangement) throw new NotFoundError('reimbursement arrangement', { path: ['arrangement_id'] });
    arrangement.assertChangeable();
    const evse = input.evseUid ? await tx.findOne(Evse, { evseUid: input.evseUid }) : null;
    if (!evse) throw new NotFoundError('EVSE', { path: ['evse_uid'] });
    if (evse.admin.id !== arrangement.admin.id) {
      throw new DomainError('administration_mismatch', 'the EVSE and the arrangement belong to different administrations', { path: ['evse_uid'] });
    }
    assertValidityOrdered(input.validFrom ?? arrangement.validFrom, input.validUntil);
    const link = tx.create(ReimbursementLink, {
      admin: arrangement.admin, arrangement, evse, validFrom: input.validFrom ?? null, validUntil: input.validUntil ?? null,
    });
    await tx.flush();
    return link;
  });
}

export function updateLink(em: Em, id: string, patch: Patch<LinkFields>): Promise<ReimbursementLink> {
  return em.transactional(async (tx) => {
    const link = await getLink(tx, id);
    link.assertChangeable();
    applyPatch(link, patch);
    assertValidityOrdered(link.validFrom ?? link.arrangement.validFrom, link.validUntil);
    await tx.flush();
    return link;
  });
}

export function markLinkDefunct(em: Em, id: string, externalUpdatedAt?: Date | null): Promise<ReimbursementLink> {
  return em.transactional(async (tx) => {
    const link = await getLink(tx, id);
    link.markDefunct();
    if (externalUpdatedAt) link.externalUpdatedAt = externalUpdatedAt;
    await tx.flush();
    return link;
  });
}
