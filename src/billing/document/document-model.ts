// From a box (as billing-box.queries.ts reads it) to the model both renderers draw: one line per
// roll-up, the VAT breakdown and totals of box-totals.ts, shown with the document's sign. A box
// of an invoice series with a negative total is a credit note (amounts shown positive), a box of a
// self-billing series that would show a negative total a self-billed credit note (amounts shown
// positive: the party owes the administration); negate_document_amounts flips what the document
// shows, never what is stored.
// Roles: on an invoice, credit or debit note the administration sells and the box's party (the
// customer) buys. A self-billing invoice bills an expense of the administration (e.g. what it
// reimburses a charge point owner): the customer is the SELLER and the administration the BUYER
// that issues the document on the seller's behalf, so the two parties swap here, in the one model
// both renderers draw.
import { isNegative, isZero, normalize } from '../../money/decimal.ts';
import { localTime } from '../../pricing/local-time.ts';
import type { Em } from '../../platform/orm.ts';
import type { BillingAdmin } from '../billing-admin.ts';
import type { BoxData } from '../billing-box.queries.ts';
import { vatCategoryOf } from '../box-totals.ts';
import { isSelfBilling, type BillingDocument, type DocumentKind, type DocumentLine, type DocumentParty, type VatCategory } from './billing-document.ts';
import { documentLanguage, fill, labelsFor } from './document-labels.ts';
import type { DocumentItem } from './document-items.ts';
import { annexSection, lineName, type LineContext } from './document-lines.ts';

const negate = (amount: string) => normalize(isNegative(amount) ? amount.slice(1) : `-${amount}`);
const signed = (amount: string, flip: boolean) => (flip ? negate(amount) : amount);
const abs = (amount: string) => (isNegative(amount) ? normalize(amount.slice(1)) : amount);

/**
 * The document a box is, by its series' type and its total's sign: a sale (invoice, debit note)
 * whose total is negative is a credit note; a box of a credit-note series whose total is positive
 * (the customer owes) is an invoice; a box of a self-billing series (an expense of the
 * administration, stored negative) whose total is positive (reversals exceed what the
 * administration owes: the party owes it) is a self-billed credit note. Documents never show a
 * credit as owed or the reverse.
 */
export function documentKindOf(box: Pick<BoxData, 'primaryDocumentType' | 'totals'>): DocumentKind {
  const type = box.primaryDocumentType as DocumentKind;
  const total = box.totals.totalInclVat;
  const positive = !isNegative(total) && !isZero(total);
  if ((type === 'invoice' || type === 'debit_note') && isNegative(total)) return 'credit_note';
  if (type === 'credit_note' && positive) return 'invoice';
  if (type === 'self_billing_invoice' && positive) return 'self_billing_credit_note';
  return type;
}

/** Whether the document shows the stored amounts negated. */
function flips(box: BoxData, kind: DocumentKind): boolean {
  // The stored amounts of a self-billed credit note are what the party owes, positive as they are.
  if (kind === 'self_billing_credit_note') return false;
  if (box.negateDocumentAmounts) return true;
  if (kind === 'credit_note') return isNegative(box.totals.totalInclVat);
  return false;
}

const CUSTOMER = `select c.id, c.external_reference, c.name, c.country, c.company_reg_num, c.billing_email, c.custom_fields, null as vat_number,
    ba.addressee, ba.address_line1, ba.address_line2, ba.postal_code, ba.city, ba.country as address_country
  from customer c left join lateral (select * from billing_address where customer_id = c.id order by id limit 1) ba on true
  where c.id = ?
  union all
  -- A roaming partner keeps its billing data on itself (no billing addresses), its VAT number a member of its own.
  select rp.id, rp.external_reference, rp.name, rp.country, null, rp.billing_email, '{}'::jsonb, rp.vat_number, null, null, null, null, null, null
  from roaming_partner rp where rp.id = ?`;

/** A member as stated: white space only (a seller's stored before such were refused, a customer's free custom field) states nothing. */
const stated = (value: string | null | undefined): string | null => (value && value.trim() !== '' ? value : null);

/** The box's party as a document party: the buyer of an invoice, the seller of a self-billing
 * invoice. Its VAT number (BT-48, or BT-31 as seller) is a customer's custom field `vat_number`, a
 * roaming partner's own `vat_number`. Its address is the customer's first billing address; without one, or without a
 * country there, the country is the customer's own (always set), so the party always has the
 * country EN 16931 requires of both buyer (BR-11) and seller (BR-09). Street, postal code and city
 * stay empty when the customer has no billing address (EN 16931 does not require them). */
export async function customerPartyOf(em: Em, partyId: string): Promise<DocumentParty> {
  const [row] = await em.execute<Record<string, any>[]>(CUSTOMER, [partyId, partyId]);
  if (!row) return { name: partyId, address: { street: null, postal_code: null, city: null, country: 'NL' }, vat_number: null, company_reg_num: null, email: null };
  const street = [row.address_line1, row.address_line2].filter(Boolean).join(', ') || null;
  const vat = row.vat_number ?? row.custom_fields?.vat_number;
  return {
    name: row.addressee ?? row.name,
    address: { street, postal_code: row.postal_code, city: row.city, country: row.address_country ?? row.country },
    vat_number: typeof vat === 'string' ? stated(vat) : null,
    company_reg_num: row.company_reg_num,
    email: row.billing_email,
    identifier: row.external_reference ?? row.id,
  };
}

export async function categoryDescriptions(em: Em, adminId: string): Promise<Map<string, string>> {
  const rows = await em.execute<{ code: string; description: string }[]>(
    'select code, description from billing_product_category where admin_id = ?', [adminId]);
  return new Map(rows.map((r) => [r.code, r.description]));
}

const addDays = (date: string, days: number) => new Date(Date.parse(`${date}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);

const MANDATE = `select mandate_reference, iban from direct_debit_mandate
  where customer_id = ? and not defunct and valid_from <= ? and (valid_until is null or valid_until > ?)
  order by valid_from desc, id desc limit 1`;

/** The customer's direct debit mandate valid at `at` (its reference and the account debited), if any. */
export async function mandateOf(em: Em, partyId: string, at: Date): Promise<{ reference: string; iban: string } | null> {
  const [row] = await em.execute<{ mandate_reference: string | null; iban: string }[]>(MANDATE, [partyId, at, at]);
  return row ? { reference: row.mandate_reference ?? '', iban: row.iban.trim() } : null;
}

export interface DocumentInputs {
  box: BoxData;
  admin: BillingAdmin;
  /** The box's party (customerPartyOf): the buyer, or the seller of a self-billing invoice. */
  customer: DocumentParty;
  categories: Map<string, string>;
  /** The box's items (document-items.ts): line names and the annex. */
  items?: DocumentItem[];
  /** The final number and date; none for a draft. A final document whose number is still to be
   * taken (finalize renders before it takes the number) says final: true with number null. */
  number: string | null;
  issueDate: string | null;
  final?: boolean;
  paymentReference?: string | null;
  /** The customer's direct debit mandate (mandateOf), for a direct debit. */
  mandate?: { reference: string; iban: string } | null;
  logo?: { content_type: string; bytes: Buffer } | null;
  now?: Date;
}

export function documentModel(inputs: DocumentInputs): BillingDocument {
  const { box, admin, customer, categories, items = [], number, issueDate, now = new Date() } = inputs;
  const kind = documentKindOf(box);
  const flip = flips(box, kind);
  const issue = issueDate ?? localTime(now, admin.timeZone).date;
  const termDays = box.paymentPeriodDays ?? admin.paymentTermDays;
  const locale = documentLanguage(box.localeId ?? admin.localeId);
  const labels = labelsFor(locale);
  const period = { from: localTime(box.periodFrom, admin.timeZone).date, to: localTime(new Date(box.periodUntil.getTime() - 1), admin.timeZone).date };
  const ctx: LineContext = { labels, locale, categories, partyName: box.partyName, period };
  const itemsOf = new Map<string, DocumentItem[]>();
  for (const item of items) itemsOf.set(item.rollup_id, [...(itemsOf.get(item.rollup_id) ?? []), item]);
  const lines: DocumentLine[] = box.rollups.map((r) => {
    const net = signed(r.net, flip);
    return {
      id: r.id, description: lineName(r, itemsOf.get(r.id) ?? [], ctx), quantity: isNegative(net) ? '-1' : '1', unit_code: 'C62',
      unit_price: abs(net), net_amount: net, vat_category: vatCategoryOf(r.vatKind, r.vatPercent), vat_percent: r.vatPercent,
    };
  });
  const annex = lines.flatMap((line, index) => annexSection({ id: line.id, number: index + 1, name: line.description }, itemsOf.get(line.id) ?? [], flip, ctx) ?? []);
  const legal = admin.seller;
  const administration: DocumentParty = {
    name: stated(legal.name) ?? admin.name,
    address: { street: legal.street, postal_code: legal.postal_code, city: legal.city, country: legal.country ?? admin.country },
    vat_number: stated(legal.vat_number), company_reg_num: legal.company_reg_num, email: legal.email, phone: legal.phone ?? null, website: legal.website ?? null,
  };
  const selfBilling = isSelfBilling(kind);
  // Self-billing: the customer sells (the service knows no bank account of a customer to pay into,
  // so the seller has none and the UBL payment means is "not defined" unless the box names one);
  // the administration buys and pays, so its default payment method (how its customers pay it)
  // does not apply: a bank transfer unless the box says otherwise. A self-billed credit note is paid
  // the other way, by the party into the administration's account (or by a direct debit of its mandate).
  const ownerPays = kind === 'self_billing_credit_note';
  const seller: BillingDocument['seller'] = selfBilling
    ? { ...customer, bank_account: null }
    : { ...administration, bank_account: stated(legal.iban) ? { iban: legal.iban!, bic: legal.bic, name: legal.bank_account_name } : null };
  const paymentMethod = box.paymentMethod ?? (selfBilling ? 'bank_transfer' : admin.defaultPaymentMethod);
  // A private charger owner without VAT registration, paid exempt amounts only, is not subject to
  // VAT: category O, and then no party carries a VAT identifier (EN 16931 BR-O-02, BR-O-11..14).
  const notSubject = selfBilling && !customer.vat_number && lines.length > 0 && lines.every((l) => l.vat_category === 'E');
  if (notSubject) for (const line of lines) line.vat_category = 'O';
  const vatCategory = (category: VatCategory) => (notSubject ? 'O' : category);
  const exemption = (category: VatCategory) => (category === 'E' || category === 'AE' || category === 'O' ? labels.exemption[category] : null);
  return {
    kind, draft: number === null && !inputs.final, number, issue_date: issue, due_date: addDays(issue, termDays), currency: box.currency,
    locale,
    period,
    seller,
    buyer: selfBilling ? (notSubject ? { ...administration, vat_number: null } : administration) : customer,
    buyer_bank_account: ownerPays && stated(legal.iban) ? { iban: legal.iban!, bic: legal.bic, name: legal.bank_account_name } : null,
    buyer_reference: box.billingReference ?? null,
    customer_number: customer.identifier ?? null,
    payment: {
      method: paymentMethod, terms: fill(labels.payment.terms, { days: termDays }),
      mandate: paymentMethod === 'direct_debit' && (ownerPays || (!selfBilling && kind !== 'credit_note')) ? inputs.mandate ?? null : null,
    },
    payment_reference: inputs.paymentReference ?? null,
    lines,
    annex,
    logo: inputs.logo ?? null,
    vat_breakdown: box.totals.vatBreakdown.map((v) => ({
      vat_category: vatCategory(v.vatCategory), vat_percent: v.vatPercent, taxable_amount: signed(v.taxableAmount, flip), vat_amount: signed(v.vatAmount, flip),
      exemption_reason: exemption(vatCategory(v.vatCategory)),
    })),
    totals: { net: signed(box.totals.totalExclVat, flip), vat: signed(box.totals.totalVat, flip), gross: signed(box.totals.totalInclVat, flip) },
    tax_currency: box.foreignCurrencyTotals && kind !== 'purchase_order'
      ? { code: box.foreignCurrencyTotals.currency, rate: box.foreignCurrencyTotals.rate, vat_total: signed(box.foreignCurrencyTotals.totalVat, flip) }
      : null,
  };
}

/** The model with its number and payment reference, once finalize took the number. */
export function withNumber(doc: BillingDocument, number: string, paymentReference: string): BillingDocument {
  return { ...doc, draft: false, number, payment_reference: paymentReference };
}
