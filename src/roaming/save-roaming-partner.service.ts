// Roaming partners: create and merge-update. Party ids are normalized (party-id.ts) and belong to
// one partner: an id another partner holds (as CPO or MSP id) is 400 `duplicate` at its index.
// The check runs under a transaction-level advisory lock, so two requests cannot both take an id.
// Partners serve every administration: only a credential without a limit changes them. A partner's
// VAT number names it as the buyer of its boxes (BT-48), checked as a seller's is: its country code first.
import { callerScope } from '../access/admin-scope.ts';
import { assertMayChangeInstanceWide } from '../access/instance-wide.ts';
import { RoamingPartner } from '../parties/roaming-partner.entity.ts';
import { DomainError, InvalidInputError, NotFoundError } from '../platform/errors.ts';
import { refuseBlank } from '../platform/blank-text.ts';
import { refuseUnprefixedVatNumber } from '../platform/countries.ts';
import { assertExternalReferenceFree, setsOtherExternalReference } from '../platform/external-reference.ts';
import { flushUnique } from '../platform/flush-unique.ts';
import { isUuid } from '../platform/ids.ts';
import { applyPatch, type Patch } from '../platform/merge-patch.ts';
import type { Em } from '../platform/orm.ts';
import { normalizePartyIds } from '../platform/party-id.ts';
import { withAgreements, type RoamingPartnerData } from './roaming.queries.ts';

export interface PartnerFields {
  name: string;
  country: string;
  cpoIds: string[];
  mspIds: string[];
  billingEmail: string;
  vatNumber: string;
  externalReference: string;
}

const UNIQUE = { roaming_partner_external_reference_unique: ['external_reference'] };

/** The partner to change; else 400 not_found. */
async function partnerToChange(em: Em, id: string): Promise<RoamingPartner> {
  const partner = isUuid(id) ? await em.findOne(RoamingPartner, { id }) : null;
  if (!partner) throw new NotFoundError('roaming partner');
  return partner;
}

async function assertPartyIdsFree(em: Em, partner: RoamingPartner): Promise<void> {
  await em.execute(`select pg_advisory_xact_lock(hashtext('roaming_partner_party_ids'))`);
  const ids = [...partner.cpoIds, ...partner.mspIds];
  if (ids.length === 0) return;
  const literal = `{${ids.join(',')}}`; // normalized ids are letters and digits only
  const others = await em.execute<{ id: string; cpo_ids: string[]; msp_ids: string[] }[]>(
    `select id, cpo_ids, msp_ids from roaming_partner where (cpo_ids && ?::text[] or msp_ids && ?::text[]) and id <> ?`,
    [literal, literal, partner.id ?? '00000000-0000-0000-0000-000000000000']);
  const taken = new Set(others.flatMap((o) => [...o.cpo_ids, ...o.msp_ids]));
  for (const [member, list] of [['cpo_ids', partner.cpoIds], ['msp_ids', partner.mspIds]] as const) {
    const i = list.findIndex((id) => taken.has(id));
    if (i >= 0) throw new DomainError('duplicate', `party id ${list[i]} belongs to another roaming partner`, { path: [member, i] });
  }
}

function applyPartner(partner: RoamingPartner, patch: Patch<PartnerFields>): void {
  if (patch.name === null) throw new InvalidInputError('name cannot be removed', { path: ['name'] });
  if (patch.country === null) throw new InvalidInputError('country cannot be removed', { path: ['country'] });
  // Checked as the seller's in the billing settings: stated, its issuing country's code first.
  refuseBlank(patch.vatNumber, ['vat_number']);
  refuseUnprefixedVatNumber(patch.vatNumber, ['vat_number']);
  const cpoIds = patch.cpoIds === undefined ? undefined : normalizePartyIds(patch.cpoIds ?? [], ['cpo_ids']);
  const mspIds = patch.mspIds === undefined ? undefined : normalizePartyIds(patch.mspIds ?? [], ['msp_ids']);
  applyPatch(partner, { ...patch, country: patch.country?.toUpperCase(), cpoIds: undefined, mspIds: undefined });
  if (cpoIds) partner.cpoIds = cpoIds;
  if (mspIds) partner.mspIds = mspIds;
}

export async function createRoamingPartner(em: Em, input: Patch<PartnerFields>): Promise<RoamingPartnerData> {
  assertMayChangeInstanceWide(callerScope(em), 'roaming partners');
  return em.transactional(async (tx) => {
    if (!input.name) throw new InvalidInputError('name is required', { path: ['name'] });
    if (!input.country) throw new InvalidInputError('country is required', { path: ['country'] });
    await assertExternalReferenceFree(tx, RoamingPartner, input.externalReference, 'roaming partner');
    const partner = tx.create(RoamingPartner, { name: input.name, country: input.country.toUpperCase(), cpoIds: [], mspIds: [] });
    applyPartner(partner, input);
    await assertPartyIdsFree(tx, partner);
    await flushUnique(tx, UNIQUE);
    return (await withAgreements(tx, [partner]))[0];
  });
}

export async function updateRoamingPartner(em: Em, id: string, patch: Patch<PartnerFields>): Promise<RoamingPartnerData> {
  assertMayChangeInstanceWide(callerScope(em), 'roaming partners');
  return em.transactional(async (tx) => {
    const partner = await partnerToChange(tx, id);
    if (setsOtherExternalReference(patch.externalReference, partner.externalReference)) {
      await assertExternalReferenceFree(tx, RoamingPartner, patch.externalReference, 'roaming partner');
    }
    applyPartner(partner, patch);
    await assertPartyIdsFree(tx, partner);
    await flushUnique(tx, UNIQUE);
    return (await withAgreements(tx, [partner]))[0];
  });
}
