// The EN 16931 / Peppol BIS Billing 3.0 UBL 2.1 document of a billing document model: Invoice
// (380, debit note 383, self-billing 389) or CreditNote (381, self-billed 261). A pure function: amounts are
// written exactly as the model holds them (check-document.ts checks that they add up first).
import { documentLibraries } from './document-libraries.ts';
import type { XMLBuilder } from 'xmlbuilder2/lib/interfaces.js';
import { isCreditNote, payeeAccount, type BillingDocument, type DocumentParty } from './billing-document.ts';
import { annexCsv, annexFilename, MAX_EMBEDDED_ANNEX_BYTES } from './annex-csv.ts';
import { assertConsistent } from './check-document.ts';
import { labelsFor } from './document-labels.ts';

const NS = {
  Invoice: 'urn:oasis:names:specification:ubl:schema:xsd:Invoice-2',
  CreditNote: 'urn:oasis:names:specification:ubl:schema:xsd:CreditNote-2',
  cac: 'urn:oasis:names:specification:ubl:schema:xsd:CommonAggregateComponents-2',
  cbc: 'urn:oasis:names:specification:ubl:schema:xsd:CommonBasicComponents-2',
};

/**
 * Characters XML 1.0 does not allow (outside its Char production): U+FFFE and U+FFFF, which users'
 * texts may hold (and other controls than tab and line breaks, which they may not). A strict parser
 * refuses a document with one; the writer does not check, so they become U+FFFD (only users' texts
 * can hold them).
 */
const NOT_XML_CHARS = /[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu;

/**
 * Text as xmlbuilder2 writes it literally: it leaves an `&` that looks like a reference (`&Co;`,
 * `&nbsp;`, `&#0;`) unescaped, which made a customer named "Smith &Co;" an invoice no parser reads,
 * and "R&amp;D" come out as "R&D". Escaping every `&` first leaves it nothing to take for a reference.
 */
function xmlText(value: string): string {
  return value.replaceAll('&', '&amp;');
}

/** UNTDID 1001: 261 is the self-billed credit note EN 16931 allows as a credit note type (BR-CL-01). */
const TYPE_CODES: Record<string, string> = { invoice: '380', debit_note: '383', self_billing_invoice: '389', credit_note: '381', self_billing_credit_note: '261' };

/**
 * UNCL 4461 payment means: credit transfer needs the payee's account (BR-61); a method agreed
 * otherwise is ZZZ (it was a SEPA credit transfer to the seller's account, which the PDF does not say).
 */
function paymentMeansCode(doc: BillingDocument): string {
  if (doc.payment.method === 'direct_debit') return '59';
  if (doc.payment.method === 'card') return '48';
  if (doc.payment.method === 'other') return 'ZZZ';
  return payeeAccount(doc) ? '58' : '1';
}

function amount(parent: XMLBuilder, name: string, value: string, currency: string): void {
  parent.ele(NS.cbc, name, { currencyID: currency }).txt(xmlText(value));
}

function taxScheme(parent: XMLBuilder): void {
  parent.ele(NS.cac, 'cac:TaxScheme').ele(NS.cbc, 'cbc:ID').txt(xmlText('VAT'));
}

function party(parent: XMLBuilder, p: DocumentParty): void {
  const node = parent.ele(NS.cac, 'cac:Party');
  if (p.electronic_address) node.ele(NS.cbc, 'cbc:EndpointID', { schemeID: p.electronic_address.scheme }).txt(xmlText(p.electronic_address.id));
  if (p.identifier) node.ele(NS.cac, 'cac:PartyIdentification').ele(NS.cbc, 'cbc:ID').txt(xmlText(p.identifier));
  node.ele(NS.cac, 'cac:PartyName').ele(NS.cbc, 'cbc:Name').txt(xmlText(p.name));
  const address = node.ele(NS.cac, 'cac:PostalAddress');
  if (p.address.street) address.ele(NS.cbc, 'cbc:StreetName').txt(xmlText(p.address.street));
  if (p.address.city) address.ele(NS.cbc, 'cbc:CityName').txt(xmlText(p.address.city));
  if (p.address.postal_code) address.ele(NS.cbc, 'cbc:PostalZone').txt(xmlText(p.address.postal_code));
  address.ele(NS.cac, 'cac:Country').ele(NS.cbc, 'cbc:IdentificationCode').txt(xmlText(p.address.country));
  if (p.vat_number) {
    const tax = node.ele(NS.cac, 'cac:PartyTaxScheme');
    tax.ele(NS.cbc, 'cbc:CompanyID').txt(xmlText(p.vat_number));
    taxScheme(tax);
  }
  const legal = node.ele(NS.cac, 'cac:PartyLegalEntity');
  legal.ele(NS.cbc, 'cbc:RegistrationName').txt(xmlText(p.name));
  if (p.company_reg_num) legal.ele(NS.cbc, 'cbc:CompanyID').txt(xmlText(p.company_reg_num));
  if (p.email || p.phone) {
    const contact = node.ele(NS.cac, 'cac:Contact');
    if (p.phone) contact.ele(NS.cbc, 'cbc:Telephone').txt(xmlText(p.phone));
    if (p.email) contact.ele(NS.cbc, 'cbc:ElectronicMail').txt(xmlText(p.email));
  }
}

function taxCategory(parent: XMLBuilder, name: string, category: string, percent: string, exemption: string | null): void {
  const node = parent.ele(NS.cac, name);
  node.ele(NS.cbc, 'cbc:ID').txt(xmlText(category));
  // Not subject to VAT carries no rate at all (EN 16931 BR-O-05).
  if (category !== 'O') node.ele(NS.cbc, 'cbc:Percent').txt(xmlText(category === 'S' ? percent : '0'));
  if (exemption) {
    if (category === 'AE') node.ele(NS.cbc, 'cbc:TaxExemptionReasonCode').txt(xmlText('VATEX-EU-AE'));
    if (category === 'O') node.ele(NS.cbc, 'cbc:TaxExemptionReasonCode').txt(xmlText('VATEX-EU-O'));
    node.ele(NS.cbc, 'cbc:TaxExemptionReason').txt(xmlText(exemption));
  }
  taxScheme(node);
}

export interface UblOptions {
  /** Where the annex CSV is when it is too large to embed (a path of the document API). */
  annexLocation?: string;
  /** The annex CSV when the caller made it already (annexCsv). */
  annex?: Buffer;
}

/**
 * The session annex as an additional supporting document (BG-24): its reference (BT-122), what it
 * is (BT-123) and the CSV embedded (BT-125, text/csv) up to 5 MB, else its location (BT-124).
 */
function annexReference(xml: XMLBuilder, doc: BillingDocument, options: UblOptions): void {
  if (!doc.annex.length) return;
  const csv = options.annex ?? annexCsv(doc);
  const filename = annexFilename(doc.number ?? 'DRAFT');
  const ref = xml.ele(NS.cac, 'cac:AdditionalDocumentReference');
  ref.ele(NS.cbc, 'cbc:ID').txt(xmlText(filename.replace(/\.csv$/, '')));
  ref.ele(NS.cbc, 'cbc:DocumentDescription').txt(xmlText(labelsFor(doc.locale).annex.documentDescription));
  const attachment = ref.ele(NS.cac, 'cac:Attachment');
  if (csv.length <= MAX_EMBEDDED_ANNEX_BYTES) {
    attachment.ele(NS.cbc, 'cbc:EmbeddedDocumentBinaryObject', { mimeCode: 'text/csv', filename }).txt(xmlText(csv.toString('base64')));
  } else {
    attachment.ele(NS.cac, 'cac:ExternalReference').ele(NS.cbc, 'cbc:URI').txt(xmlText(options.annexLocation ?? filename));
  }
}

export async function ublXml(doc: BillingDocument, options: UblOptions = {}): Promise<string> {
  const { createXml: create } = await documentLibraries();
  if (doc.kind === 'purchase_order') throw new Error('a purchase order has no EN 16931 document');
  assertConsistent(doc);
  const credit = isCreditNote(doc.kind);
  const root = credit ? 'CreditNote' : 'Invoice';
  const xml = create({ version: '1.0', encoding: 'UTF-8' }).ele(NS[root], root, { 'xmlns:cac': NS.cac, 'xmlns:cbc': NS.cbc });
  const currency = doc.currency;
  xml.ele(NS.cbc, 'cbc:CustomizationID').txt(xmlText('urn:cen.eu:en16931:2017#compliant#urn:fdc:peppol.eu:2017:poacc:billing:3.0'));
  xml.ele(NS.cbc, 'cbc:ProfileID').txt(xmlText('urn:fdc:peppol.eu:2017:poacc:billing:01:1.0'));
  xml.ele(NS.cbc, 'cbc:ID').txt(xmlText(doc.number ?? 'DRAFT'));
  xml.ele(NS.cbc, 'cbc:IssueDate').txt(xmlText(doc.issue_date));
  if (!credit && doc.due_date) xml.ele(NS.cbc, 'cbc:DueDate').txt(xmlText(doc.due_date));
  xml.ele(NS.cbc, credit ? 'cbc:CreditNoteTypeCode' : 'cbc:InvoiceTypeCode').txt(xmlText(TYPE_CODES[doc.kind]));
  if (doc.draft) xml.ele(NS.cbc, 'cbc:Note').txt(xmlText(labelsFor(doc.locale).draft));
  xml.ele(NS.cbc, 'cbc:DocumentCurrencyCode').txt(xmlText(currency));
  if (doc.tax_currency) xml.ele(NS.cbc, 'cbc:TaxCurrencyCode').txt(xmlText(doc.tax_currency.code));
  // The buyer's own reference only (BT-10): never an id of ours.
  if (doc.buyer_reference) xml.ele(NS.cbc, 'cbc:BuyerReference').txt(xmlText(doc.buyer_reference));
  const period = xml.ele(NS.cac, 'cac:InvoicePeriod');
  period.ele(NS.cbc, 'cbc:StartDate').txt(xmlText(doc.period.from));
  period.ele(NS.cbc, 'cbc:EndDate').txt(xmlText(doc.period.to));
  annexReference(xml, doc, options);
  party(xml.ele(NS.cac, 'cac:AccountingSupplierParty'), doc.seller);
  party(xml.ele(NS.cac, 'cac:AccountingCustomerParty'), doc.buyer);

  const means = xml.ele(NS.cac, 'cac:PaymentMeans');
  const code = paymentMeansCode(doc);
  means.ele(NS.cbc, 'cbc:PaymentMeansCode').txt(xmlText(code));
  if (credit && doc.due_date) means.ele(NS.cbc, 'cbc:PaymentDueDate').txt(xmlText(doc.due_date));
  // The ISO 11649 creditor reference the PDF prints (BT-83).
  if (doc.payment_reference) means.ele(NS.cbc, 'cbc:PaymentID').txt(xmlText(doc.payment_reference));
  const payee = payeeAccount(doc);
  if ((code === '58' || code === '30') && payee) {
    const account = means.ele(NS.cac, 'cac:PayeeFinancialAccount');
    account.ele(NS.cbc, 'cbc:ID').txt(xmlText(payee.iban));
    if (payee.name) account.ele(NS.cbc, 'cbc:Name').txt(xmlText(payee.name));
    if (payee.bic) account.ele(NS.cac, 'cac:FinancialInstitutionBranch').ele(NS.cbc, 'cbc:ID').txt(xmlText(payee.bic));
  }
  // A direct debit names its mandate (BT-89) and the account debited (BT-91).
  if (code === '59' && doc.payment.mandate) {
    const mandate = means.ele(NS.cac, 'cac:PaymentMandate');
    if (doc.payment.mandate.reference) mandate.ele(NS.cbc, 'cbc:ID').txt(xmlText(doc.payment.mandate.reference));
    mandate.ele(NS.cac, 'cac:PayerFinancialAccount').ele(NS.cbc, 'cbc:ID').txt(xmlText(doc.payment.mandate.iban.replace(/\s+/g, '')));
  }
  if (doc.payment.terms) xml.ele(NS.cac, 'cac:PaymentTerms').ele(NS.cbc, 'cbc:Note').txt(xmlText(doc.payment.terms));

  const taxTotal = xml.ele(NS.cac, 'cac:TaxTotal');
  amount(taxTotal, 'cbc:TaxAmount', doc.totals.vat, currency);
  for (const v of doc.vat_breakdown) {
    const sub = taxTotal.ele(NS.cac, 'cac:TaxSubtotal');
    amount(sub, 'cbc:TaxableAmount', v.taxable_amount, currency);
    amount(sub, 'cbc:TaxAmount', v.vat_amount, currency);
    taxCategory(sub, 'cac:TaxCategory', v.vat_category, v.vat_percent, v.exemption_reason);
  }
  if (doc.tax_currency) amount(xml.ele(NS.cac, 'cac:TaxTotal'), 'cbc:TaxAmount', doc.tax_currency.vat_total, doc.tax_currency.code);

  const totals = xml.ele(NS.cac, 'cac:LegalMonetaryTotal');
  amount(totals, 'cbc:LineExtensionAmount', doc.totals.net, currency);
  amount(totals, 'cbc:TaxExclusiveAmount', doc.totals.net, currency);
  amount(totals, 'cbc:TaxInclusiveAmount', doc.totals.gross, currency);
  amount(totals, 'cbc:PayableAmount', doc.totals.gross, currency);

  doc.lines.forEach((line, index) => {
    const node = xml.ele(NS.cac, credit ? 'cac:CreditNoteLine' : 'cac:InvoiceLine');
    node.ele(NS.cbc, 'cbc:ID').txt(xmlText(String(index + 1)));
    node.ele(NS.cbc, credit ? 'cbc:CreditedQuantity' : 'cbc:InvoicedQuantity', { unitCode: line.unit_code }).txt(xmlText(line.quantity));
    amount(node, 'cbc:LineExtensionAmount', line.net_amount, currency);
    const item = node.ele(NS.cac, 'cac:Item');
    item.ele(NS.cbc, 'cbc:Name').txt(xmlText(line.description));
    item.ele(NS.cac, 'cac:SellersItemIdentification').ele(NS.cbc, 'cbc:ID').txt(xmlText(line.id));
    taxCategory(item, 'cac:ClassifiedTaxCategory', line.vat_category, line.vat_percent, null);
    amount(node.ele(NS.cac, 'cac:Price'), 'cbc:PriceAmount', line.unit_price, currency);
  });
  return xml.end({ prettyPrint: true }).replace(NOT_XML_CHARS, '\uFFFD');
}
