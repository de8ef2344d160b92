import test from 'ava';
import { ublXml } from '../../../src/billing/document/ubl-document.ts';
import { en16931Failures } from '../../helpers/en16931.ts';
import { BUYER_PARTY, invoiceModel, line, SELLER_PARTY } from '../../helpers/billing-document-factory.ts';

const standardOnly = {
  lines: [line(1, '40.00'), line(2, '-10.00', { description: 'Reversal: charging session' })],
  vat_breakdown: [{ vat_category: 'S' as const, vat_percent: '21.00', taxable_amount: '30.00', vat_amount: '6.30', exemption_reason: null }],
  totals: { net: '30.00', vat: '6.30', gross: '36.30' },
};

const KINDS = {
  'an invoice with 21 % and reverse-charge lines': invoiceModel(),
  'an invoice with a reversal line': invoiceModel(standardOnly),
  'a credit note': invoiceModel({ kind: 'credit_note', ...standardOnly }),
  'a debit note': invoiceModel({ kind: 'debit_note' }),
  'a self-billing invoice': invoiceModel({ kind: 'self_billing_invoice' }),
  'a draft': invoiceModel({ draft: true, number: null }),
  'an exempt invoice paid by direct debit': invoiceModel({
    payment: { method: 'direct_debit', terms: 'Collected by direct debit', mandate: { reference: 'MNDT-1', iban: 'NL91ABNA0417164300' } },
    lines: [line(1, '12.00', { vat_category: 'E', vat_percent: '0.00' })],
    vat_breakdown: [{ vat_category: 'E', vat_percent: '0.00', taxable_amount: '12.00', vat_amount: '0.00', exemption_reason: 'Exempt from VAT' }],
    totals: { net: '12.00', vat: '0.00', gross: '12.00' },
  }),
  'an invoice with electronic addresses': invoiceModel({
    seller: { ...SELLER_PARTY, electronic_address: { scheme: '0106', id: '12345678' } },
    buyer: { ...BUYER_PARTY, electronic_address: { scheme: '9944', id: 'NL987654321B01' } },
  }),
  'an invoice with a VAT accounting currency': invoiceModel({ tax_currency: { code: 'SEK', rate: '11.5', vat_total: '241.50' } }),
};

for (const [name, model] of Object.entries(KINDS)) {
  test(`${name} passes the EN 16931 rules with no fatal assertion`, async (t) => {
    const xml = await ublXml(model);
    t.deepEqual(await en16931Failures(xml), [], xml);
  });
}

test('the check can fail: a document without its issue date breaks BR-03', async (t) => {
  const xml = (await ublXml(invoiceModel())).replace(/<cbc:IssueDate>[^<]*<\/cbc:IssueDate>/, '');
  t.true((await en16931Failures(xml)).some((f) => f.id === 'BR-03'));
});

test('a model whose sums do not add up is refused before any XML is written', async (t) => {
  await t.throwsAsync(() => ublXml(invoiceModel({ totals: { net: '150.00', vat: '21.00', gross: '171.01' } })), { message: /gross/ });
  await t.throwsAsync(() => ublXml(invoiceModel({ kind: 'purchase_order' })), { message: /purchase order/ });
});

test('a credit note is a CreditNote with type 381 and positive amounts', async (t) => {
  const xml = await ublXml(invoiceModel({ kind: 'credit_note', ...standardOnly }));
  t.regex(xml, /<CreditNote /);
  t.regex(xml, /<cbc:CreditNoteTypeCode>381<\/cbc:CreditNoteTypeCode>/);
  t.regex(xml, /<cbc:PayableAmount currencyID="EUR">36.30<\/cbc:PayableAmount>/);
});

test('electronic addresses are the parties\' EndpointID with their scheme (BT-34, BT-49)', async (t) => {
  const xml = await ublXml(invoiceModel({
    seller: { ...SELLER_PARTY, electronic_address: { scheme: '0106', id: '12345678' } },
    buyer: { ...BUYER_PARTY, electronic_address: { scheme: '9944', id: 'NL987654321B01' } },
  }));
  t.regex(xml, /<cac:AccountingSupplierParty>\s*<cac:Party>\s*<cbc:EndpointID schemeID="0106">12345678<\/cbc:EndpointID>/);
  t.regex(xml, /<cac:AccountingCustomerParty>\s*<cac:Party>\s*<cbc:EndpointID schemeID="9944">NL987654321B01<\/cbc:EndpointID>/);
  t.notRegex(await ublXml(invoiceModel()), /EndpointID/);
});
