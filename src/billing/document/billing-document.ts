// What a billing document shows, ready to render: the PDF and the UBL writers are pure functions
// of this model, so both show the same lines and totals. Amounts are as the document shows them
// (a credit note's are positive, negate_document_amounts already applied): exact decimal strings
// with 2 decimals ("12.34"); quantities and unit prices up to 6 decimals.

/** `self_billing_credit_note`: a box of a self-billing series whose document would show a negative
 * total (the party owes the administration): a self-billed credit note (UNTDID 1001 261). */
export type DocumentKind = 'invoice' | 'credit_note' | 'debit_note' | 'self_billing_invoice' | 'self_billing_credit_note' | 'purchase_order';

/** Issued by the buyer (the administration) in the seller's name: the box's party sells. */
export const isSelfBilling = (kind: DocumentKind): boolean => kind === 'self_billing_invoice' || kind === 'self_billing_credit_note';

/** A UBL CreditNote (381, or a self-billed 261), not an Invoice. */
export const isCreditNote = (kind: DocumentKind): boolean => kind === 'credit_note' || kind === 'self_billing_credit_note';

/** The account the total is paid into: the seller's; on a self-billed credit note the seller pays
 * the buyer that issued it, the administration (BT-84 is the account to pay to, BR-61). */
export function payeeAccount(doc: BillingDocument): BankAccount | null {
  return doc.kind === 'self_billing_credit_note' ? doc.buyer_bank_account ?? null : doc.seller.bank_account;
}

export interface BankAccount { iban: string; bic: string | null; name: string | null }

/** EN 16931 VAT category codes (UNCL5305) the service uses. */
/** O (not subject to VAT): a self-billing seller without VAT registration, every line exempt. */
export type VatCategory = 'S' | 'E' | 'AE' | 'Z' | 'O';

export interface DocumentAddress {
  street: string | null;
  postal_code: string | null;
  city: string | null;
  /** ISO 3166-1 alpha-2. */
  country: string;
}

export interface DocumentParty {
  name: string;
  address: DocumentAddress;
  vat_number: string | null;
  company_reg_num: string | null;
  email: string | null;
  /** The party's identifier (BT-29 seller, BT-46 buyer): our customer number, what identifies a
   * self-billing seller with neither VAT number nor registration (BR-CO-26). */
  identifier?: string | null;
  /** Electronic address (BT-34 seller, BT-49 buyer; Peppol BIS requires it): EAS scheme code
   * (e.g. "0106" KvK, "9944" NL VAT, "0088" GLN) and the identifier. */
  electronic_address?: { scheme: string; id: string } | null;
  /** Contact printed in the header and written to the UBL (BT-42, BT-43); the website is printed only. */
  phone?: string | null;
  website?: string | null;
}

export interface DocumentLine {
  id: string;
  /** What the line bills, in the document's language (BT-153). */
  description: string;
  /** Exact decimal, may be negative (a reversal line). */
  quantity: string;
  /** UN/ECE Recommendation 20 unit code: KWH, MIN, HUR, C62 (one), MON. */
  unit_code: string;
  /** Net price per unit, exact decimal, never negative. */
  unit_price: string;
  /** quantity × unit_price as billed: the sum of the roll-up's rounded item amounts (2 decimals). */
  net_amount: string;
  vat_category: VatCategory;
  vat_percent: string;
}

export interface DocumentVatBreakdown {
  vat_category: VatCategory;
  vat_percent: string;
  taxable_amount: string;
  vat_amount: string;
  /** Required by EN 16931 for E and AE categories. */
  exemption_reason: string | null;
}

/** What the annex shows of a charge session. */
export interface AnnexSession {
  /** The sender's session id. */
  session_id: string;
  /** Local start "YYYY-MM-DD HH:MM" (the session's time zone). */
  start: string;
  /** Location name or address, else null. */
  location: string | null;
  evse_id: string | null;
  /** The token's contract id (card). */
  token: string | null;
  /** kWh, exact decimal (negative on a reversal). */
  energy_kwh: string | null;
  duration_minutes: number | null;
}

/** One item of a session line: a session (or its reversal) with the item's amount. */
export interface AnnexRow extends AnnexSession {
  /** The item's amount excl. VAT as the document shows it (2 decimals). */
  amount: string;
  reversal: boolean;
}

/** The sessions of one document line: their amounts add up to the line's net amount. */
export interface AnnexSection {
  line_id: string;
  /** The line's position on the document (1-based) and its name. */
  line_number: number;
  line_name: string;
  rows: AnnexRow[];
  subtotal: string;
}

/** How the document is paid: the method, the account to pay to or the mandate, the reference. */
export interface DocumentPayment {
  /** bank_transfer, direct_debit, card, other. */
  method: string | null;
  terms: string | null;
  /** The mandate of a direct debit (BT-89, BT-91). */
  mandate: { reference: string; iban: string } | null;
}

export interface BillingDocument {
  kind: DocumentKind;
  /** A draft (the preview) has no number and is marked as such on every page. */
  draft: boolean;
  /** The invoice code; null on a draft. */
  number: string | null;
  /** YYYY-MM-DD. */
  issue_date: string;
  due_date: string | null;
  currency: string;
  /** BCP 47 language of the document's texts (en, nl, de, fr). */
  locale: string;
  /** Local dates, both inclusive. */
  period: { from: string; to: string };
  seller: DocumentParty & { bank_account: BankAccount | null };
  buyer: DocumentParty;
  /** The buyer's account, when the seller pays it (a self-billed credit note: the administration's). */
  buyer_bank_account?: BankAccount | null;
  /** The box's billing reference (BT-10); null when it has none (never an internal id). */
  buyer_reference: string | null;
  /** The box party's customer number (its external reference, else its id); BT-46 of a buyer. */
  customer_number: string | null;
  payment: DocumentPayment;
  /** The ISO 11649 creditor reference (BT-83); null on a draft. */
  payment_reference: string | null;
  lines: DocumentLine[];
  /** The sessions of the session lines, after the totals (UBL: an embedded CSV, BT-122..125). */
  annex: AnnexSection[];
  /** The issuer's logo (the administration's), printed in the header. */
  logo: { content_type: string; bytes: Buffer } | null;
  vat_breakdown: DocumentVatBreakdown[];
  totals: {
    /** Sum of the lines' net amounts (BT-106 = BT-109). */
    net: string;
    /** Sum of vat_breakdown (BT-110). */
    vat: string;
    /** net + vat (BT-112 = BT-115). */
    gross: string;
  };
  /** VAT accounting currency (BT-6, BT-111) when the administration names one. */
  tax_currency: { code: string; rate: string; vat_total: string } | null;
}
