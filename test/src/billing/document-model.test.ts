import test from 'ava';
import type { BillingAdmin } from '../../../src/billing/billing-admin.ts';
import type { BoxData, RollupData } from '../../../src/billing/billing-box.queries.ts';
import { boxTotals } from '../../../src/billing/box-totals.ts';
import type { DocumentParty } from '../../../src/billing/document/billing-document.ts';
import { documentModel } from '../../../src/billing/document/document-model.ts';
import { pdfBytes } from '../../../src/billing/document/pdf-document.ts';
import { ublXml } from '../../../src/billing/document/ubl-document.ts';
import { SELLER } from '../../helpers/billing-factories.ts';
import { en16931Failures } from '../../helpers/en16931.ts';
import { pdfPages } from '../../helpers/pdf-text.ts';

// A charge point owner (the box's party) and the administration that reimburses it.
const OWNER: DocumentParty = {
  name: 'Laadpaal Eigenaar B.V.', address: { street: 'Dorpsstraat 7', postal_code: '1234 AB', city: 'Zwolle', country: 'NL' },
  vat_number: 'NL000099998B57', company_reg_num: '777', email: 'owner@example.org',
};

const ADMIN: BillingAdmin = {
  adminId: 'admin-1', name: 'Charge Co', country: 'NL', currency: 'EUR', timeZone: 'Europe/Amsterdam', kind: 'month', localeId: 'en',
  paymentTermDays: 14, defaultPaymentMethod: 'direct_debit', seller: { ...SELLER, phone: null, website: null },
};

const rollup = (id: string, vatKind: string, vatPercent: string, net: string): RollupData => ({
  id, boxId: 'box-1', productCategory: 'custom', vatKind, vatPercent, groupValue: null, context: 'Charger reimbursement', itemCount: 1,
  net, vatAmount: '0.00', inclVat: net, volume: {}, averageAmountPerKwhExclVat: null,
});

/** A box of expenses (negative under the sign convention): a 21 % line and an exempt line. */
function box(primaryDocumentType: string, negateDocumentAmounts: boolean, rollups = [rollup('r-1', 'standard', '21.00', '-12.00'), rollup('r-2', 'exempt', '0.00', '-5.00')]): BoxData {
  return {
    id: 'box-1', adminId: 'admin-1', seriesId: 's-1', seriesCode: 'SB', seriesExternalReference: null, primaryDocumentType, documentSource: 'service',
    reviewSetId: 'rs-1', reviewSetCode: 'RS', reviewSetSequence: 1, partyKind: 'customer', partyId: 'owner-1', partyExternalReference: null,
    partyName: OWNER.name, periodFrom: new Date('2026-09-30T22:00:00Z'), periodUntil: new Date('2026-10-31T23:00:00Z'), vatCountry: 'NL',
    currency: 'EUR', distinctCode: '', state: 'ready', deferred: false, transferred: false, localeId: 'en', rollupGroupBy: 'product',
    negateDocumentAmounts, billingReference: 'OWNER-REF', paymentMethod: null, paymentPeriodDays: null, invoiceCode: null, invoiceDate: null,
    documentKind: null, createdAt: new Date(), updatedAt: new Date(), rollups, totals: boxTotals(rollups), foreignCurrencyTotals: null, documents: [],
  };
}

const model = (b: BoxData) => documentModel({ box: b, admin: ADMIN, customer: OWNER, categories: new Map(), number: 'SB-2026-000001', issueDate: '2026-11-02' });

test('a self-billing box: the customer is the seller, the administration the buyer; amounts positive; paid by bank transfer', (t) => {
  const doc = model(box('self_billing_invoice', true));
  t.is(doc.kind, 'self_billing_invoice');
  t.deepEqual(doc.seller, { ...OWNER, bank_account: null });
  t.deepEqual(doc.buyer, {
    name: SELLER.name, address: { street: SELLER.street, postal_code: SELLER.postal_code, city: SELLER.city, country: 'NL' },
    vat_number: SELLER.vat_number, company_reg_num: SELLER.company_reg_num, email: SELLER.email, phone: null, website: null,
  });
  t.deepEqual(doc.totals, { net: '17.00', vat: '2.52', gross: '19.52' });
  t.deepEqual(doc.lines.map((l) => [l.vat_category, l.quantity, l.unit_price, l.net_amount]), [['S', '1', '12.00', '12.00'], ['E', '1', '5.00', '5.00']]);
  t.deepEqual(doc.vat_breakdown.map((v) => [v.vat_category, v.taxable_amount, v.vat_amount]), [['E', '5.00', '0.00'], ['S', '12.00', '2.52']]);
  // The administration's default (direct debit) is how its customers pay it, not how it pays.
  t.is(doc.payment.method, 'bank_transfer');
});

test('an invoice box keeps the administration as seller (with its bank account) and the customer as buyer', (t) => {
  const doc = model(box('invoice', false, [rollup('r-1', 'standard', '21.00', '12.00')]));
  t.is(doc.seller.name, SELLER.name);
  t.deepEqual(doc.seller.bank_account, { iban: SELLER.iban, bic: SELLER.bic, name: SELLER.bank_account_name });
  t.deepEqual(doc.buyer, OWNER);
  t.is(doc.payment.method, 'direct_debit');
});

test('the self-billing UBL: Invoice of type 389, supplier the customer, customer the administration, positive amounts, EN 16931 with no fatal assertion', async (t) => {
  const xml = await ublXml(model(box('self_billing_invoice', true)));
  t.regex(xml, /<Invoice /);
  t.regex(xml, /<cbc:InvoiceTypeCode>389<\/cbc:InvoiceTypeCode>/);
  t.regex(xml, /<cac:AccountingSupplierParty>\s*<cac:Party>\s*<cac:PartyName>\s*<cbc:Name>Laadpaal Eigenaar B.V.<\/cbc:Name>/);
  t.regex(xml, /<cac:AccountingCustomerParty>\s*<cac:Party>\s*<cac:PartyName>\s*<cbc:Name>Charge Co B.V.<\/cbc:Name>/);
  t.regex(xml, /<cac:AccountingSupplierParty>[\s\S]*<cbc:CompanyID>NL000099998B57<\/cbc:CompanyID>[\s\S]*<\/cac:AccountingSupplierParty>/);
  t.regex(xml, /<cbc:TaxExclusiveAmount currencyID="EUR">17.00<\/cbc:TaxExclusiveAmount>/);
  t.regex(xml, /<cbc:PayableAmount currencyID="EUR">19.52<\/cbc:PayableAmount>/);
  t.regex(xml, /<cbc:TaxableAmount currencyID="EUR">5.00<\/cbc:TaxableAmount>\s*<cbc:TaxAmount currencyID="EUR">0.00<\/cbc:TaxAmount>\s*<cac:TaxCategory>\s*<cbc:ID>E<\/cbc:ID>/);
  t.notRegex(xml, /currencyID="EUR">-/);
  t.deepEqual(await en16931Failures(xml), [], xml);
});

test('the self-billing PDF says so, names seller and buyer the right way round and shows positive totals', async (t) => {
  const text = (await pdfPages(await pdfBytes(model(box('self_billing_invoice', true))))).join('\n');
  for (const expected of ['Self-billing invoice', 'Self-billing: issued by the buyer in the name and on behalf of the seller', '17.00 EUR', '2.52 EUR', '19.52 EUR']) {
    t.true(text.includes(expected), `${expected} in\n${text}`);
  }
  t.notRegex(text, /(^|\s)-\d/, 'no negative amount');
  // The text reads block by block: the seller's heading, the owner with its VAT number, then the
  // buyer's heading and the administration.
  const at = (s: string) => text.indexOf(s);
  const order = ['Seller (supplier)', 'Laadpaal Eigenaar B.V.', 'VAT number: NL000099998B57', 'Buyer (issuer of this invoice)', 'Charge Co B.V.', 'VAT number: NL123456789B01'];
  t.true(order.every((s, i) => at(s) >= 0 && (i === 0 || at(order[i - 1]) < at(s))), text);
  t.false(text.includes('NL91ABNA0417164300'), 'no bank account of the administration as payee');
});

test('the Dutch self-billing PDF carries the mention in Dutch', async (t) => {
  const text = (await pdfPages(await pdfBytes({ ...model(box('self_billing_invoice', true)), locale: 'nl' }))).join('\n');
  for (const expected of ['Factuur uitgereikt door afnemer', 'Uitgereikt door de afnemer in naam en voor rekening van de leverancier', 'Leverancier', 'Afnemer', '19,52 EUR']) t.true(text.includes(expected), `${expected} in\n${text}`);
});

test('why finalize needs the VAT number of a self-billing seller: without it the UBL breaks BR-S-02 and BR-E-02', async (t) => {
  const doc = documentModel({ box: box('self_billing_invoice', true), admin: ADMIN, customer: { ...OWNER, vat_number: null }, categories: new Map(), number: 'SB-2026-000002', issueDate: '2026-11-02' });
  const ids = (await en16931Failures(await ublXml(doc))).map((f) => f.id);
  t.true(ids.includes('BR-S-02') && ids.includes('BR-E-02'), ids.join(', '));
});
