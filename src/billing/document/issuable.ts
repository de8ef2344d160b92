// What a final document needs before it is numbered: finalize checks its model here, in its
// transaction and before the number is taken, so a document EN 16931 would reject is never issued
// and takes no number (decisions: "Billing", what is issued). Drafts and previews are not checked.
import { hasVatCountryPrefix } from '../../platform/countries.ts';
import { DomainError } from '../../platform/errors.ts';
import { isSelfBilling, type BillingDocument } from './billing-document.ts';

/** The box's party as the refusals name it, and where its VAT number is set: a customer's custom
 * field, a roaming partner's own member. */
function partyOf({ partyId, partyKind }: { partyId: string; partyKind?: string }): { name: string; vatNumber: string; registration: string } {
  return partyKind === 'roaming_partner'
    ? { name: `roaming partner ${partyId}`, vatNumber: 'vat_number', registration: 'vat_number' }
    : { name: `customer ${partyId}`, vatNumber: 'custom_fields.vat_number', registration: 'custom_fields.vat_number or company_reg_num' };
}

/**
 * The categories S, Z, E and AE need the seller's VAT identifier (BT-31), tax registration identifier
 * (BT-32) or tax representative (BT-63) (EN 16931 BR-S-02, BR-Z-02, BR-E-02, BR-AE-02; the VAT
 * directive art. 226(3) too). The service knows the VAT number only: a company registration is the
 * seller's legal registration (BT-30), not a tax registration, so it does not stand in. With the VAT
 * number the seller is identified too (BR-CO-26). Not subject to VAT (O) needs none.
 */
function sellerVatMissing(doc: BillingDocument): boolean {
  // Purchase orders have no UBL.
  return doc.kind !== 'purchase_order' && !doc.seller.vat_number && doc.lines.some((l) => l.vat_category !== 'O');
}

/** Refuses (400) the final document of a box that would not be a valid EN 16931 document. */
export function assertIssuable(doc: BillingDocument, box: { adminId: string; partyId: string; partyKind?: string }): void {
  const { adminId } = box;
  const party = partyOf(box);
  const selfBilling = isSelfBilling(doc.kind);
  if (sellerVatMissing(doc)) {
    // The seller of a self-billing invoice is the customer; one without a VAT number whose lines are
    // all exempt is billed as not subject to VAT (document-model.ts), so its lines are O here.
    throw new DomainError('invalid_input', selfBilling
      ? `a self-billing document names the box's party as seller: ${party.name} needs a VAT number (${party.vatNumber}) unless all its lines are exempt`
      : `an invoice names the seller's VAT number (EN 16931 BR-S-02, BR-Z-02, BR-E-02, BR-AE-02): the billing settings of administration ${adminId} `
        + 'need seller.vat_number; a company registration number does not stand in for it', { path: [] });
  }
  // A VAT identifier names its issuing country first (BR-CO-09); the customer's is a custom field, free text.
  for (const [named, where] of [[doc.seller, 'seller'], [doc.buyer, 'buyer']] as const) {
    if (!named.vat_number || hasVatCountryPrefix(named.vat_number)) continue;
    const boxParty = (where === 'seller') === selfBilling;
    throw new DomainError('invalid_input', `the ${where}'s VAT number ${named.vat_number} does not start with the code of its issuing country (EN 16931 BR-CO-09): `
      + (boxParty ? `${party.name} needs ${party.vatNumber} such as NL123456789B01` : `the billing settings of administration ${adminId} need seller.vat_number such as NL123456789B01`), { path: [] });
  }
  // A box left without lines (its items withdrawn: a customer correction) has nothing to issue; a
  // document needs a line (BR-16) and a VAT breakdown (BR-CO-18), and would take a number.
  if (doc.lines.length === 0) throw new DomainError('invalid_state', 'the box has no lines: there is nothing to issue', { path: [] });
  // Reverse charge (AE): the buyer's VAT identifier or its legal registration identifier is on the invoice (BR-AE-02).
  if (doc.lines.some((l) => l.vat_category === 'AE') && !doc.buyer.vat_number && !doc.buyer.company_reg_num) {
    throw new DomainError('invalid_input', `a reverse-charge invoice names the buyer's VAT number or registration: ${party.name} needs ${party.registration}`, { path: [] });
  }
}
