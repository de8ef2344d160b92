// The plan property "Use Customer Reimbursement VAT" (interface spec, MSP functions): for an
// MSP session at one of our own EVSEs, the reimbursement VAT property of the charger owner
// decides the session's VAT, following the spec's numbered rules.
import type { Em } from '../platform/orm.ts';
import { Evse } from './evse.entity.ts';
import { normalizeEvseId } from './evse-id.ts';
import { ReimbursementLink } from './reimbursement-link.entity.ts';

/** The drop-out reasons of the decision. */
export const REIMBURSEMENT_VAT_REASONS = ['reimbursement_vat_unknown', 'reimbursement_arrangement_missing', 'multiple_reimbursement_arrangements'] as const;
export type ReimbursementVatReason = (typeof REIMBURSEMENT_VAT_REASONS)[number];

export type ReimbursementVatDecision =
  | { kind: 'normal'; evseUid: string | null; arrangementId: string | null; explanation: string }
  | { kind: 'exempt'; evseUid: string; arrangementId: string; explanation: string }
  | { kind: 'dropout'; reason: ReimbursementVatReason; evseUid: string; explanation: string };

/** The local EVSE of a session: by its uid, else by its EVSE ID (separators and case ignored). */
export async function findLocalEvse(em: Em, evse: { evseId?: string | null; evseUid?: string | null }): Promise<Evse | null> {
  if (evse.evseUid) {
    const byUid = await em.findOne(Evse, { evseUid: evse.evseUid }, { filters: false });
    if (byUid) return byUid;
  }
  const evseIdNormalized = evse.evseId ? normalizeEvseId(evse.evseId) : '';
  if (evseIdNormalized) return em.findOne(Evse, { evseIdNormalized }, { filters: false, orderBy: { updatedAt: 'desc' } });
  return null;
}

/** The non-defunct reimbursement links of EVSEs with their arrangements and owners, in one query. */
export function reimbursementLinksOf(em: Em, evses: Evse[]): Promise<ReimbursementLink[]> {
  if (evses.length === 0) return Promise.resolve([]);
  return em.find(ReimbursementLink, { evse: { $in: evses.map((e) => e.id) }, defunct: false }, { populate: ['arrangement', 'arrangement.customer'], filters: false });
}

/**
 * The spec's rules for a session at `local` (null: no local EVSE) starting at `at`; `links` may hold
 * other EVSEs' links. `adminId`: the administration the session is priced for, which reads the
 * explanation: it names the owner and the arrangement only when the EVSE is of that administration
 * (an EVSE of another one decides the VAT all the same, but its owner is not the driver's to see).
 */
export function decideReimbursementVat(local: Evse | null, allLinks: ReimbursementLink[], at: Date, adminId: string): ReimbursementVatDecision {
  if (!local) return { kind: 'normal', evseUid: null, arrangementId: null, explanation: 'no local EVSE matched the session: normal VAT determination' };
  const links = allLinks.filter((l) => l.evse.id === local.id);
  const arrangements = [...new Map(links.filter((l) => l.isUsableAt(at)).map((l) => [l.arrangement.id, l.arrangement])).values()];
  const uid = local.evseUid;
  if (arrangements.length > 1) {
    return { kind: 'dropout', reason: 'multiple_reimbursement_arrangements', evseUid: uid, explanation: `EVSE ${uid} has ${arrangements.length} reimbursement arrangements valid at ${at.toISOString()}` };
  }
  if (arrangements.length === 0) {
    return local.reimbursementMandatory
      ? { kind: 'dropout', reason: 'reimbursement_arrangement_missing', evseUid: uid, explanation: `EVSE ${uid} requires a reimbursement arrangement and has none valid at ${at.toISOString()}` }
      : { kind: 'normal', evseUid: uid, arrangementId: null, explanation: `EVSE ${uid} has no reimbursement arrangement: normal VAT determination` };
  }
  const [arrangement] = arrangements;
  const property = arrangement.customer.reimbursementVat;
  const own = local.admin.id.toLowerCase() === adminId.toLowerCase();
  const who = own
    ? `the reimbursement VAT of customer ${arrangement.customer.id} (arrangement ${arrangement.id}, EVSE ${uid})`
    : `the reimbursement VAT of the owner of EVSE ${uid} (an arrangement of the EVSE's administration)`;
  if (property === 'Exempt') return { kind: 'exempt', evseUid: uid, arrangementId: arrangement.id, explanation: `${who} is Exempt: the session is exempt from VAT` };
  if (property === 'Applies') return { kind: 'normal', evseUid: uid, arrangementId: arrangement.id, explanation: `${who} is Applies: normal VAT determination` };
  return { kind: 'dropout', reason: 'reimbursement_vat_unknown', evseUid: uid, explanation: `${who} is Unknown: ${own ? 'set it' : 'the EVSE\'s administration sets it'} to Applies or Exempt` };
}
