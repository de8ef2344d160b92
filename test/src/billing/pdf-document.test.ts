import test from 'ava';
import { pdfBytes } from '../../../src/billing/document/pdf-document.ts';
import { invoiceModel, line } from '../../helpers/billing-document-factory.ts';
import { pdfPages } from '../../helpers/pdf-text.ts';

test('the PDF shows number, lines, VAT summary and totals as the model holds them', async (t) => {
  const text = (await pdfPages(await pdfBytes(invoiceModel()))).join('\n');
  for (const expected of ['Invoice', 'INV-2026-000001', 'Charging sessions 1', 'Roaming', '100.00', '50.00', 'VAT summary', '21.00 EUR', '171.00 EUR',
    'Charge Co B.V.', 'Fleet B.V.', 'NL91ABNA0417164300', 'Payment within 14 days', 'PO-1']) {
    t.true(text.includes(expected), `${expected} in\n${text}`);
  }
});

test('a Dutch credit note: localized title, labels and amounts', async (t) => {
  const text = (await pdfPages(await pdfBytes(invoiceModel({
    kind: 'credit_note', locale: 'nl',
    lines: [line(1, '1234.50')],
    vat_breakdown: [{ vat_category: 'S', vat_percent: '21.00', taxable_amount: '1234.50', vat_amount: '259.25', exemption_reason: null }],
    totals: { net: '1234.50', vat: '259.25', gross: '1493.75' },
  })))).join('\n');
  for (const expected of ['Creditnota', 'Totaal incl. btw', '1.234,50', '1.493,75 EUR', '02-11-2026']) t.true(text.includes(expected), `${expected} in\n${text}`);
});

test('a long draft flows over pages, each marked as a draft, without a number', async (t) => {
  const lines = Array.from({ length: 120 }, (_, i) => line(i + 1, '1.00'));
  const pages = await pdfPages(await pdfBytes(invoiceModel({
    draft: true, number: null, lines,
    vat_breakdown: [{ vat_category: 'S', vat_percent: '21.00', taxable_amount: '120.00', vat_amount: '25.20', exemption_reason: null }],
    totals: { net: '120.00', vat: '25.20', gross: '145.20' },
  })));
  t.true(pages.length > 1);
  t.true(pages.every((page) => page.includes('DRAFT - not a valid invoice')));
  t.false(pages.join('\n').includes('Number:'));
  t.true(pages.join('\n').includes('Charging sessions 120'));
  t.true(pages.at(-1)!.includes('145.20 EUR'));
});

test('the same model renders the same bytes', async (t) => {
  t.deepEqual(await pdfBytes(invoiceModel()), await pdfBytes(invoiceModel()));
});
