// What a billing document shows, ready to render: the PDF and the UBL writers are pure functions
// of this model, so both show the same lines and totals. Amounts are as the document shows them
// (a credit note's are positive, negate_document_amounts already applied): exact decimal strings
// with 2 decimals ("12.34"); quantities and unit prices up to 6 decimals.

export type DocumentKind = 'invoice' | 'credit_note' | 'debit_note' | 'self_billing_invoice' | 'purchase_order';

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
}

export interface DocumentLine {
  id: string;
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
  seller: DocumentParty & { bank_account: { iban: string; bic: string | null; name: string | null } | null };
  buyer: DocumentParty;
  /** The box's billing reference (BT-10); falls back to the box id. */
  buyer_reference: string;
  payment: { method: string | null; terms: string | null };
  lines: DocumentLine[];
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
