// The PDF of a billing document (pdfkit, its built-in Helvetica: no font files): seller and
// buyer, number and dates, one line per roll-up, the VAT summary, totals and payment terms, in
// the document's language. A draft is marked on every page and has no number. The bytes depend
// only on the model (fixed creation date), so a finalized document renders the same every time.
import PDFDocument from 'pdfkit';
import type { BillingDocument, DocumentParty } from './billing-document.ts';
import { formatAmount, formatDate, labelsFor } from './document-labels.ts';

const MARGIN = 50;
const WIDTH = 595.28 - 2 * MARGIN;
const BOTTOM = 841.89 - 70;
const COLUMNS = [
  { key: 'description', x: 0, width: 230, align: 'left' },
  { key: 'quantity', x: 235, width: 55, align: 'right' },
  { key: 'unitPrice', x: 295, width: 70, align: 'right' },
  { key: 'vat', x: 370, width: 45, align: 'right' },
  { key: 'net', x: 420, width: WIDTH - 420, align: 'right' },
] as const;

export async function pdfBytes(doc: BillingDocument): Promise<Buffer> {
  const labels = labelsFor(doc.locale);
  const fixed = new Date(`${doc.issue_date}T00:00:00Z`);
  const pdf = new PDFDocument({
    size: 'A4', margin: MARGIN, bufferPages: true, compress: true,
    info: { Title: `${labels.titles[doc.kind]} ${doc.number ?? ''}`.trim(), Producer: 'charging-network-service', Creator: 'charging-network-service', CreationDate: fixed, ModDate: fixed },
  });
  const chunks: Buffer[] = [];
  pdf.on('data', (chunk: Buffer) => chunks.push(chunk));
  const done = new Promise<Buffer>((resolve, reject) => { pdf.on('end', () => resolve(Buffer.concat(chunks))); pdf.on('error', reject); });
  const money = (amount: string) => `${formatAmount(amount, doc.locale)} ${doc.currency}`;

  const selfBilling = doc.kind === 'self_billing_invoice';
  pdf.font('Helvetica-Bold').fontSize(18).text(labels.titles[doc.kind], MARGIN, MARGIN);
  pdf.font('Helvetica').fontSize(9);
  // A self-billing invoice says so under its title, and its party headings name the roles (the
  // seller is the customer, the buyer the administration that issues the document).
  if (selfBilling) pdf.font('Helvetica-Bold').text(labels.selfBilling.note, MARGIN, MARGIN + 22, { width: WIDTH }).font('Helvetica');
  const facts: [string, string][] = [
    ...(doc.number ? [[labels.number, doc.number] as [string, string]] : []),
    [labels.issueDate, formatDate(doc.issue_date, doc.locale)],
    ...(doc.due_date ? [[labels.dueDate, formatDate(doc.due_date, doc.locale)] as [string, string]] : []),
    [labels.period, `${formatDate(doc.period.from, doc.locale)} - ${formatDate(doc.period.to, doc.locale)}`],
    [labels.reference, doc.buyer_reference],
  ];
  let y = selfBilling ? Math.max(MARGIN + 40, pdf.y + 6) : MARGIN + 30;
  for (const [label, value] of facts) {
    pdf.text(`${label}: ${value}`, MARGIN, y);
    y += 12;
  }
  const partyTop = y + 10;
  const partyBlock = (title: string, p: DocumentParty, x: number, extra: string[]) => {
    pdf.font('Helvetica-Bold').text(title, x, partyTop, { width: WIDTH / 2 - 10 });
    pdf.font('Helvetica');
    const rows = [p.name, p.address.street, [p.address.postal_code, p.address.city].filter(Boolean).join(' '), p.address.country,
      p.vat_number ? `${labels.vatNumber}: ${p.vat_number}` : null, p.company_reg_num ? `${labels.companyReg}: ${p.company_reg_num}` : null, ...extra];
    for (const row of rows.filter((r): r is string => !!r)) pdf.text(row, x, undefined, { width: WIDTH / 2 - 10 });
    return pdf.y;
  };
  const bank = doc.seller.bank_account ? [`${labels.bankAccount}: ${doc.seller.bank_account.iban}${doc.seller.bank_account.bic ? ` (${doc.seller.bank_account.bic})` : ''}`] : [];
  y = Math.max(partyBlock(selfBilling ? labels.selfBilling.seller : labels.seller, doc.seller, MARGIN, bank),
    partyBlock(selfBilling ? labels.selfBilling.buyer : labels.buyer, doc.buyer, MARGIN + WIDTH / 2, [])) + 20;

  const header = () => {
    pdf.font('Helvetica-Bold');
    for (const c of COLUMNS) pdf.text(labels[c.key], MARGIN + c.x, y, { width: c.width, align: c.align });
    y += 14;
    pdf.moveTo(MARGIN, y - 3).lineTo(MARGIN + WIDTH, y - 3).stroke();
    pdf.font('Helvetica');
  };
  header();
  for (const line of doc.lines) {
    const cells = {
      description: line.description, quantity: `${formatAmount(line.quantity, doc.locale)}`, unitPrice: formatAmount(line.unit_price, doc.locale),
      vat: `${line.vat_category} ${formatAmount(line.vat_percent, doc.locale)}%`, net: formatAmount(line.net_amount, doc.locale),
    };
    const height = Math.max(12, pdf.heightOfString(cells.description, { width: COLUMNS[0].width }) + 2);
    if (y + height > BOTTOM) {
      pdf.addPage();
      y = MARGIN;
      header();
    }
    for (const c of COLUMNS) pdf.text(cells[c.key], MARGIN + c.x, y, { width: c.width, align: c.align });
    y += height;
  }

  const block = (rows: [string, string][], bold = false) => {
    if (y + rows.length * 12 + 20 > BOTTOM) { pdf.addPage(); y = MARGIN; }
    y += 8;
    for (const [label, value] of rows) {
      pdf.font(bold ? 'Helvetica-Bold' : 'Helvetica').text(label, MARGIN, y, { width: 300 }).text(value, MARGIN + 300, y, { width: WIDTH - 300, align: 'right' });
      y += 12;
    }
  };
  pdf.font('Helvetica-Bold').text(labels.vatSummary, MARGIN, y + 8);
  y += 20;
  block(doc.vat_breakdown.map((v) => [
    `${v.vat_category} ${formatAmount(v.vat_percent, doc.locale)}%: ${labels.taxable} ${money(v.taxable_amount)}${v.exemption_reason ? ` (${v.exemption_reason})` : ''}`,
    money(v.vat_amount)]));
  block([[labels.totalNet, money(doc.totals.net)], [labels.totalVat, money(doc.totals.vat)], [labels.totalGross, money(doc.totals.gross)]], true);
  if (doc.tax_currency) block([[`${labels.taxCurrency} ${doc.tax_currency.code} (${doc.tax_currency.rate})`, `${formatAmount(doc.tax_currency.vat_total, doc.locale)} ${doc.tax_currency.code}`]]);
  block([[labels.payment, [doc.payment.method, doc.payment.terms].filter(Boolean).join(' - ')]]);

  if (doc.draft) {
    const range = pdf.bufferedPageRange();
    for (let i = range.start; i < range.start + range.count; i++) {
      pdf.switchToPage(i);
      pdf.font('Helvetica-Bold').fontSize(14).fillColor('#c00000').text(labels.draft, MARGIN, 22, { width: WIDTH, align: 'center', lineBreak: false });
      pdf.fillColor('black').fontSize(9);
    }
  }
  pdf.end();
  return done;
}
