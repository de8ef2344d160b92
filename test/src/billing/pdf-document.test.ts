import test from 'ava';
import type { AnnexRow } from '../../../src/billing/document/billing-document.ts';
import { layoutPdf, pdfBytes } from '../../../src/billing/document/pdf-document.ts';
import { invoiceModel, line } from '../../helpers/billing-document-factory.ts';
import { pdfPages } from '../../helpers/pdf-text.ts';

const LOGO_SVG = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 200 60"><rect width="60" height="60" rx="12" fill="#0a7d4f"/>'
  + '<text x="70" y="42" font-size="34" font-weight="bold" fill="#0a7d4f">Logoname</text></svg>');

test('the PDF shows number, lines, VAT summary, totals, payment block and contact as the model holds them', async (t) => {
  const text = (await pdfPages(await pdfBytes(invoiceModel({ seller: { ...invoiceModel().seller, phone: '+31 30 123 4567', website: 'www.charge.example' } })))).join('\n');
  for (const expected of ['Invoice', 'INV-2026-000001', 'Charging sessions 1', 'Roaming', '100.00', '50.00', 'VAT summary', '21.00 EUR', '171.00 EUR',
    'Charge Co B.V.', 'Fleet B.V.', 'NL91 ABNA 0417 1643 00', 'Payment within 14 days', 'Your reference: PO-1', 'Customer number: CUST-7',
    'VAT number: NL987654321B01', 'Payment method: Bank transfer', 'Payment reference:', 'RF94 INV2 0260 0000 1', 'billing@charge.example',
    '+31 30 123 4567', 'www.charge.example', 'Page 1 of 1']) {
    t.true(text.includes(expected), `${expected} in\n${text}`);
  }
});

test('no reference of ours stands in for the buyer\'s: without a billing reference the PDF has no "Your reference"', async (t) => {
  const text = (await pdfPages(await pdfBytes(invoiceModel({ buyer_reference: null })))).join('\n');
  t.false(text.includes('Your reference'), text);
});

test('a Dutch credit note: localized title, labels and amounts, refunded or offset', async (t) => {
  const text = (await pdfPages(await pdfBytes(invoiceModel({
    kind: 'credit_note', locale: 'nl',
    lines: [line(1, '1234.50')],
    vat_breakdown: [{ vat_category: 'S', vat_percent: '21.00', taxable_amount: '1234.50', vat_amount: '259.25', exemption_reason: null }],
    totals: { net: '1234.50', vat: '259.25', gross: '1493.75' },
  })))).join('\n');
  for (const expected of ['Creditnota', 'Totaal incl. btw', '1.234,50', '1.493,75 EUR', '02-11-2026', 'terugbetaald of verrekend', 'Pagina 1 van 1']) {
    t.true(text.includes(expected), `${expected} in\n${text}`);
  }
});

test('a long draft flows over pages, each marked as a draft and numbered "page n of m", without a number or payment reference', async (t) => {
  const lines = Array.from({ length: 120 }, (_, i) => line(i + 1, '1.00'));
  const pages = await pdfPages(await pdfBytes(invoiceModel({
    draft: true, number: null, payment_reference: null, lines,
    vat_breakdown: [{ vat_category: 'S', vat_percent: '21.00', taxable_amount: '120.00', vat_amount: '25.20', exemption_reason: null }],
    totals: { net: '120.00', vat: '25.20', gross: '145.20' },
  })));
  t.true(pages.length > 1);
  pages.forEach((page, i) => {
    t.true(page.includes('DRAFT - not a valid invoice'));
    t.true(page.includes(`Page ${i + 1} of ${pages.length}`), page);
  });
  t.false(pages.join('\n').includes('Number:'));
  t.false(pages.join('\n').includes('RF'));
  t.true(pages.join('\n').includes('Charging sessions 120'));
  t.true(pages.join('\n').includes('145.20 EUR'));
});

test('names outside ASCII print right: the font is embedded (a subset of Noto Sans), and read back', async (t) => {
  const bytes = await pdfBytes(invoiceModel({ buyer: { ...invoiceModel().buyer, name: 'Łódź Müller Ørsted' } }));
  t.true((await pdfPages(bytes)).join('\n').includes('Łódź Müller Ørsted'));
  const pdf = bytes.toString('latin1');
  t.regex(pdf, /\/FontFile2 /, 'an embedded TrueType font');
  t.regex(pdf, /\/BaseFont \/[A-Z]{6}\+NotoSans/, 'a subset of Noto Sans');
  t.notRegex(pdf, /\/BaseFont \/Helvetica/, 'no font the reader must supply');
});

test('the annex lists each session after the totals, spans pages with "page n of m" on each, and its subtotal is the line', async (t) => {
  const rows: AnnexRow[] = Array.from({ length: 150 }, (_, i) => ({
    session_id: `S-${i}`, start: `2026-10-${String(1 + (i % 28)).padStart(2, '0')} 08:15`, location: 'Stationsplein 1, Utrecht', evse_id: 'NL*ABC*E1234',
    token: `NL-ABC-C${String(i).padStart(8, '0')}`, energy_kwh: '10.5', duration_minutes: 95, amount: i === 0 ? '-1.00' : '1.00', reversal: i === 0,
  }));
  const doc = invoiceModel({
    lines: [line(1, '148.00', { description: 'Charging sessions (149 sessions, 1 reversal, 1,554 kWh)' })],
    vat_breakdown: [{ vat_category: 'S', vat_percent: '21.00', taxable_amount: '148.00', vat_amount: '31.08', exemption_reason: null }],
    totals: { net: '148.00', vat: '31.08', gross: '179.08' },
    annex: [{ line_id: 'line-1', line_number: 1, line_name: 'Charging sessions (149 sessions, 1 reversal, 1,554 kWh)', rows, subtotal: '148.00' }],
  });
  const pages = await pdfPages(await pdfBytes(doc));
  t.true(pages.length >= 3);
  pages.forEach((page, i) => t.true(page.includes(`Page ${i + 1} of ${pages.length}`), page));
  const text = pages.join('\n');
  t.true(text.indexOf('Total incl. VAT') < text.indexOf('Annex: charging sessions'));
  t.is(text.match(/NL-ABC-C\d{8}/g)?.length, 150);
  t.regex(text, /reversal: Stationsplein 1, Utrecht/);
  t.regex(text, /Subtotal 1\s+148\.00/);
});

test('a logo (SVG) is drawn in the header', async (t) => {
  const text = (await pdfPages(await pdfBytes(invoiceModel({ logo: { content_type: 'image/svg+xml', bytes: LOGO_SVG } })))).join('\n');
  t.true(text.includes('Logoname'), text);
});

test('laid out first, numbered last: the number and reference come in at finish, on the pages laid out before', async (t) => {
  const layout = await layoutPdf(invoiceModel({ number: null, payment_reference: null }));
  const text = (await pdfPages(await layout.finish({ number: 'LATE-2026-000042', payment_reference: 'RF03LATE2026000042' }))).join('\n');
  for (const s of ['LATE-2026-000042', 'RF03 LATE 2026 0000 42', 'Invoice LATE-2026-000042']) t.true(text.includes(s), `${s} in\n${text}`);
  await t.throwsAsync(() => layout.finish(null), { message: /once/ });
});

test('the same model renders the same bytes', async (t) => {
  t.deepEqual(await pdfBytes(invoiceModel()), await pdfBytes(invoiceModel()));
});

test('documents laid out side by side share the parsed fonts, not their subsets: each renders the bytes it renders alone', async (t) => {
  const latin = invoiceModel();
  const wide = invoiceModel({ buyer: { ...invoiceModel().buyer, name: 'Ελληνικά Кириллица Łódź' }, number: 'INV-2026-000002' });
  const latinAlone = await pdfBytes(latin);
  const wideAlone = await pdfBytes(wide);
  const [first, second] = [await layoutPdf(wide), await layoutPdf(latin)];
  const latinBeside = await second.finish({ number: latin.number, payment_reference: latin.payment_reference });
  const wideBeside = await first.finish({ number: wide.number, payment_reference: wide.payment_reference });
  t.deepEqual(latinBeside, latinAlone, 'no glyph of the other document in the Latin one\'s subset');
  t.deepEqual(wideBeside, wideAlone);
  t.notDeepEqual(latinAlone, wideAlone);
});

test('a payment method the labels do not name (stored before methods were checked, or a member of every object) is left out, never a failed render', async (t) => {
  for (const method of ['constructor', 'toString', '__proto__', 'bitcoin']) {
    const text = (await pdfPages(await pdfBytes(invoiceModel({ payment: { method, terms: 'Payment within 14 days', mandate: null } })))).join('\n');
    t.false(text.includes('Payment method'), `${method}: ${text}`);
    t.true(text.includes('Payment within 14 days'), method);
  }
});
