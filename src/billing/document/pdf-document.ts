// The PDF of a billing document (pdfkit, Noto Sans and the fallback fonts a text needs embedded as
// subsets: pdf-fonts.ts, font-runs.ts, run-layout.ts): the issuer's
// logo and contact, number, dates and references, seller and buyer, one line per roll-up, the VAT
// summary and totals, the payment block (method in words, due date, the account to pay to or the
// mandate, the ISO 11649 payment reference), then the annex of the session lines' sessions; "page n
// of m" and the document's number on every page, in the document's language. A draft is marked on
// every page and has no number.
// Two steps, so that finalize lays a document out before it takes its number (decisions: "Billing",
// numbers): `layoutPdf` places everything; the number and the payment reference are late fields,
// drawn by `finish` once known (with the footers, which need the page count). The bytes depend
// only on the model (fixed creation date): a document renders the same every time.
import { coalescePageContent } from './coalesced-page-content.ts';
import { isSelfBilling, payeeAccount, type AnnexSection, type BillingDocument, type DocumentParty } from './billing-document.ts';
import { groupedReference } from './creditor-reference.ts';
import { fill, formatAmount, formatDate, formatDateTime, formatDuration, labelOf, labelsFor, type Labels } from './document-labels.ts';
import { documentLibraries, type DocumentLibraries } from './document-libraries.ts';
import { drawLogo } from './logo.ts';
import { FONT, FONT_BOLD, registerDocumentFonts } from './pdf-fonts.ts';
import { RunLayout, type Align } from './run-layout.ts';

const PAGE_WIDTH = 595.28;
const PAGE_HEIGHT = 841.89;
const MARGIN = 45;
const WIDTH = PAGE_WIDTH - 2 * MARGIN;
const BOTTOM = PAGE_HEIGHT - 55;
const FOOTER_Y = PAGE_HEIGHT - 35;
const GREY = '#555555';

const LINE_COLUMNS = [
  { key: 'number', x: 0, width: 22, align: 'left' },
  { key: 'description', x: 24, width: 330, align: 'left' },
  { key: 'vat', x: 360, width: 60, align: 'right' },
  { key: 'net', x: 425, width: WIDTH - 425, align: 'right' },
] as const;

const ANNEX_COLUMNS = [
  { key: 'start', x: 0, width: 66, align: 'left' },
  { key: 'location', x: 70, width: 172, align: 'left' },
  { key: 'token', x: 246, width: 86, align: 'left' },
  { key: 'energy', x: 334, width: 42, align: 'right' },
  { key: 'duration', x: 378, width: 32, align: 'right' },
  { key: 'amount', x: 412, width: WIDTH - 412, align: 'right' },
] as const;

/** The values a final document learns last. */
export interface LateValues { number: string | null; payment_reference: string | null }

export interface PdfLayout {
  /** Draws the late fields and footers and answers the bytes (once). */
  finish(late: LateValues | null): Promise<Buffer>;
}

/**
 * What the fonts can draw of a user's text: a tab or a C1 control (U+0085 would break the line) is a
 * space, a noncharacter (U+FFFE, U+FFFF) the replacement character; no font has a glyph for them.
 */
const printable = (text: string) => text.replace(/[\t\u0080-\u009F]/g, ' ').replace(/[\uFFFE\uFFFF]/g, '\uFFFD');

/** The lines of a text as one line. */
const joinLines = (text: string) => text.replace(/[ \t]*(?:\r\n?|\n)[ \t]*/g, ' ');

const groupedIban = (iban: string) => iban.replace(/\s+/g, '').replace(/(.{4})(?=.)/g, '$1 ');

export async function pdfBytes(doc: BillingDocument): Promise<Buffer> {
  return (await layoutPdf(doc)).finish({ number: doc.number, payment_reference: doc.payment_reference });
}

/** Annex rows laid out between two turns of the event loop: a large document does not hold the process's other work. */
const ROWS_PER_TURN = 200;

export async function layoutPdf(doc: BillingDocument): Promise<PdfLayout> {
  const labels = labelsFor(doc.locale);
  const fixed = new Date(`${doc.issue_date}T00:00:00Z`);
  const libraries = await documentLibraries();
  const pdf = new libraries.PDFDocument({
    size: 'A4', margin: 0, bufferPages: true, compress: true, autoFirstPage: true,
    info: { Title: labels.titles[doc.kind], Producer: 'charging-network-service', Creator: 'charging-network-service', CreationDate: fixed, ModDate: fixed },
  });
  registerDocumentFonts(pdf, libraries.fonts);
  coalescePageContent(pdf);
  const chunks: Buffer[] = [];
  pdf.on('data', (chunk: Buffer) => chunks.push(chunk));
  const done = new Promise<Buffer>((resolve, reject) => { pdf.on('end', () => resolve(Buffer.concat(chunks))); pdf.on('error', reject); });
  const w = new Writer(pdf, doc, labels, libraries);
  w.header();
  w.parties();
  w.lines();
  w.totals();
  w.payment();
  await w.annex();
  let finished = false;
  return {
    finish: async (late) => {
      if (finished) throw new Error('a PDF layout is finished once');
      finished = true;
      w.finish(late);
      pdf.end();
      return done;
    },
  };
}

interface LateField { page: number; x: number; y: number; width: number; align: Align; bold: boolean; size: number; text: (late: LateValues) => string }

class Writer {
  y = MARGIN;
  page = 0;
  private readonly late: LateField[] = [];
  private readonly money: (amount: string) => string;
  private readonly selfBilling: boolean;

  private readonly pdf: PDFKit.PDFDocument;
  private readonly doc: BillingDocument;
  private readonly labels: Labels;

  private readonly libraries: DocumentLibraries;
  /** Texts that need more than Noto Sans (font-runs.ts). */
  private readonly runs: RunLayout;

  constructor(pdf: PDFKit.PDFDocument, doc: BillingDocument, labels: Labels, libraries: DocumentLibraries) {
    this.libraries = libraries;
    this.runs = new RunLayout(pdf, libraries.fonts);
    this.pdf = pdf;
    this.doc = doc;
    this.labels = labels;
    this.money = (amount) => `${formatAmount(amount, doc.locale)} ${doc.currency}`;
    this.selfBilling = isSelfBilling(doc.kind);
    pdf.font(FONT).fontSize(9).fillColor('black');
  }

  /**
   * Draws a text and answers its height. Users' texts may hold tabs and line breaks (the font has no
   * glyph for a tab): a tab is a space; a one-line cell, or a paragraph of `oneLine` values (names,
   * address lines), joins its lines with spaces. A wrapped text never runs past the page's bottom:
   * pdfkit would go on on a page of its own, behind the layout's back (its page count, the late
   * fields' pages), over the footer; what does not fit ends with an ellipsis. `shrink` (amounts) sets
   * a value too wide for its cell in a smaller size rather than cutting it. A text with characters
   * Noto Sans lacks is drawn, measured, wrapped and cut in runs of the fonts that have them, by the
   * same rules (run-layout.ts); one of Noto Sans alone as pdfkit lays it out.
   */
  private text(value: string, x: number, y: number, width: number,
    options: { align?: Align; bold?: boolean; size?: number; color?: string; wrap?: boolean; oneLine?: boolean; shrink?: boolean } = {}): number {
    const size = options.size ?? 9;
    const bold = options.bold ?? false;
    const align = options.align ?? 'left';
    this.pdf.font(bold ? FONT_BOLD : FONT).fontSize(size).fillColor(options.color ?? 'black');
    const spaced = printable(value);
    if (options.wrap) {
      const room = BOTTOM - y;
      if (room < this.pdf.currentLineHeight(true)) return 0;
      const text = options.oneLine ? joinLines(spaced) : spaced;
      if (!this.runs.plain(text, bold)) return this.runs.paragraph(text, x, y, width, { bold, size, align }, room);
      this.pdf.text(text, x, y, { width, align, height: room, ellipsis: '…' });
      return this.pdf.y - y;
    }
    const line = joinLines(spaced);
    if (!this.runs.plain(line, bold)) {
      this.runs.cell(line, x, y, width, { bold, size, align, shrink: options.shrink ?? false });
    } else if (options.shrink) {
      const natural = this.pdf.widthOfString(line);
      if (natural > width) this.pdf.fontSize(size * width / natural);
      this.pdf.text(line, x, y, { width, align: options.align ?? 'left', lineBreak: false });
      this.pdf.fontSize(size);
    } else {
      this.pdf.text(this.fit(line, width), x, y, { width, align: options.align ?? 'left', lineBreak: false });
    }
    return this.pdf.currentLineHeight(true);
  }

  /** The height of a wrapped text (`text` with `wrap`) without a bound. */
  private heightOf(value: string, width: number, options: { bold?: boolean; size?: number } = {}): number {
    const bold = options.bold ?? false;
    const size = options.size ?? 9;
    const text = printable(value);
    this.pdf.font(bold ? FONT_BOLD : FONT).fontSize(size);
    return this.runs.plain(text, bold) ? this.pdf.heightOfString(text, { width }) : this.runs.height(text, width, { bold, size });
  }

  /** The text cut with an ellipsis where it would not fit in `width` (cells of one line of Noto Sans). */
  private fit(value: string, width: number): string {
    if (this.pdf.widthOfString(value) <= width) return value;
    let low = 0;
    let high = value.length;
    while (low < high) {
      const mid = Math.ceil((low + high) / 2);
      if (this.pdf.widthOfString(`${value.slice(0, mid)}…`) <= width) low = mid; else high = mid - 1;
    }
    return `${value.slice(0, low)}…`;
  }

  private lateText(x: number, y: number, width: number, text: (late: LateValues) => string, options: { align?: Align; bold?: boolean; size?: number } = {}): void {
    this.late.push({ page: this.page, x, y, width, align: options.align ?? 'left', bold: options.bold ?? false, size: options.size ?? 9, text });
  }

  private newPage(): void {
    this.pdf.addPage();
    this.page++;
    this.y = MARGIN;
  }

  /** Room for `height` more on this page, else a new page (then `again` draws what a page repeats). */
  private ensure(height: number, again?: () => void): void {
    if (this.y + height <= BOTTOM) return;
    this.newPage();
    again?.();
  }

  header(): void {
    const { doc, labels } = this;
    if (doc.logo) drawLogo(this.libraries, this.pdf, { content_type: doc.logo.content_type, bytes: doc.logo.bytes }, MARGIN + WIDTH - 160, MARGIN - 5, 160, 55);
    this.text(labels.titles[doc.kind], MARGIN, MARGIN, WIDTH - 170, { bold: true, size: 18 });
    this.y = MARGIN + 28;
    // A self-billing invoice says so under its title (VAT directive art. 226(10a)).
    if (this.selfBilling) this.y += this.text(labels.selfBilling.note, MARGIN, this.y, WIDTH - 170, { bold: true, wrap: true }) + 4;
    const facts: [string, string | null][] = [
      [labels.issueDate, formatDate(doc.issue_date, doc.locale)],
      ...(doc.due_date && doc.kind !== 'credit_note' ? [[labels.dueDate, formatDate(doc.due_date, doc.locale)] as [string, string]] : []),
      [labels.period, `${formatDate(doc.period.from, doc.locale)} – ${formatDate(doc.period.to, doc.locale)}`],
      ...(doc.buyer_reference ? [[labels.reference, doc.buyer_reference] as [string, string]] : []),
      ...(doc.customer_number ? [[labels.customerNumber, doc.customer_number] as [string, string]] : []),
    ];
    const labelWidth = 95;
    if (!doc.draft) {
      this.text(`${labels.number}:`, MARGIN, this.y, labelWidth);
      this.lateText(MARGIN + labelWidth, this.y, 250, (late) => late.number ?? '', { bold: true });
      this.y += 12;
    }
    for (const [label, value] of facts) {
      this.text(`${label}:`, MARGIN, this.y, labelWidth);
      this.text(value ?? '', MARGIN + labelWidth, this.y, WIDTH - labelWidth - 170);
      this.y += 12;
    }
    this.y = Math.max(this.y, MARGIN + 60) + 12;
  }

  parties(): void {
    const { doc, labels } = this;
    const top = this.y;
    const column = WIDTH / 2 - 10;
    const block = (title: string, p: DocumentParty, x: number, extra: string[]) => {
      let y = top;
      y += this.text(title, x, y, column, { bold: true, color: GREY }) + 1;
      const rows = [p.address.street, [p.address.postal_code, p.address.city].filter(Boolean).join(' '), p.address.country,
        p.vat_number ? `${labels.vatNumber}: ${p.vat_number}` : null, p.company_reg_num ? `${labels.companyReg}: ${p.company_reg_num}` : null, ...extra];
      y += this.text(p.name, x, y, column, { bold: true, wrap: true, oneLine: true });
      for (const row of rows.filter((r): r is string => !!r)) y += this.text(row, x, y, column, { wrap: true, oneLine: true });
      return y;
    };
    const contact = (p: DocumentParty) => [p.email, p.phone, p.website].filter((v): v is string => !!v);
    const sellerTitle = this.selfBilling ? labels.selfBilling.seller : labels.seller;
    const buyerTitle = this.selfBilling ? labels.selfBilling.buyer : labels.buyer;
    // The issuer's contact: the administration's (the buyer of a self-billing invoice).
    const left = block(sellerTitle, doc.seller, MARGIN, this.selfBilling ? [] : contact(doc.seller));
    const right = block(buyerTitle, doc.buyer, MARGIN + WIDTH / 2 + 10, this.selfBilling ? contact(doc.buyer) : []);
    this.y = Math.max(left, right) + 18;
  }

  private lineHeader = () => {
    const cells: Record<string, string> = { number: '#', description: this.labels.description, vat: this.labels.vat, net: `${this.labels.net} (${this.doc.currency})` };
    for (const c of LINE_COLUMNS) this.text(cells[c.key], MARGIN + c.x, this.y, c.width, { align: c.align, bold: true });
    this.y += 13;
    this.pdf.moveTo(MARGIN, this.y - 2).lineTo(MARGIN + WIDTH, this.y - 2).lineWidth(0.5).strokeColor('#999999').stroke();
    this.y += 2;
  };

  lines(): void {
    const { doc } = this;
    this.lineHeader();
    doc.lines.forEach((line, index) => {
      const height = Math.max(12, this.heightOf(line.description, LINE_COLUMNS[1].width) + 3);
      this.ensure(height, this.lineHeader);
      const cells: Record<string, string> = {
        number: String(index + 1), vat: `${line.vat_category} ${formatAmount(line.vat_percent, doc.locale)}%`, net: formatAmount(line.net_amount, doc.locale),
      };
      this.text(cells.number, MARGIN + LINE_COLUMNS[0].x, this.y, LINE_COLUMNS[0].width);
      this.text(line.description, MARGIN + LINE_COLUMNS[1].x, this.y, LINE_COLUMNS[1].width, { wrap: true });
      this.text(cells.vat, MARGIN + LINE_COLUMNS[2].x, this.y, LINE_COLUMNS[2].width, { align: 'right', shrink: true });
      this.text(cells.net, MARGIN + LINE_COLUMNS[3].x, this.y, LINE_COLUMNS[3].width, { align: 'right', shrink: true });
      this.y += height;
    });
    this.y += 6;
  }

  /** Label and value rows; the value right-aligned. */
  private rows(rows: [string, string][], bold = false): void {
    this.ensure(rows.length * 12 + 4);
    for (const [label, value] of rows) {
      this.text(label, MARGIN, this.y, 330, { bold, shrink: true });
      this.text(value, MARGIN + 330, this.y, WIDTH - 330, { align: 'right', bold, shrink: true });
      this.y += 12;
    }
    this.y += 4;
  }

  totals(): void {
    const { doc, labels } = this;
    this.ensure(30 + doc.vat_breakdown.length * 12 + 40);
    this.text(labels.vatSummary, MARGIN, this.y, WIDTH, { bold: true, color: GREY });
    this.y += 13;
    this.rows(doc.vat_breakdown.map((v) => [
      `${v.vat_category} ${formatAmount(v.vat_percent, doc.locale)}%: ${labels.taxable} ${this.money(v.taxable_amount)}${v.exemption_reason ? ` (${v.exemption_reason})` : ''}`,
      this.money(v.vat_amount)]));
    this.pdf.moveTo(MARGIN + 330, this.y - 2).lineTo(MARGIN + WIDTH, this.y - 2).lineWidth(0.5).strokeColor('#999999').stroke();
    this.y += 2;
    this.rows([[labels.totalNet, this.money(doc.totals.net)], [labels.totalVat, this.money(doc.totals.vat)], [labels.totalGross, this.money(doc.totals.gross)]], true);
    if (doc.tax_currency) {
      this.rows([[`${labels.taxCurrency} ${doc.tax_currency.code} (${doc.tax_currency.rate})`, `${formatAmount(doc.tax_currency.vat_total, doc.locale)} ${doc.tax_currency.code}`]]);
    }
    this.y += 8;
  }

  payment(): void {
    const { doc, labels } = this;
    const p = labels.payment;
    const method = doc.payment.method;
    const methodLabel = labelOf(p.methods, method);
    const credit = doc.kind === 'credit_note';
    const rows: [string, string][] = [];
    if (!credit && methodLabel) rows.push([p.method, methodLabel]);
    if (!credit && doc.due_date) rows.push([labels.dueDate, formatDate(doc.due_date, doc.locale)]);
    const payee = payeeAccount(doc);
    if (!credit && method === 'bank_transfer' && payee) {
      rows.push([p.payTo, [groupedIban(payee.iban), payee.bic, payee.name].filter(Boolean).join(', ')]);
    }
    if (doc.payment.mandate) {
      if (doc.payment.mandate.reference) rows.push([p.mandate, doc.payment.mandate.reference]);
      rows.push([p.debitedAccount, groupedIban(doc.payment.mandate.iban)]);
    }
    // A self-billed credit note is paid by the party to the administration that issued it.
    const note = credit ? p.creditNote : doc.kind === 'self_billing_invoice' ? p.selfBillingNote
      : method === 'bank_transfer' ? (doc.kind === 'self_billing_credit_note' ? p.selfBillingCreditNote : p.transferNote) : method === 'direct_debit' ? p.directDebitNote : method === 'card' ? p.cardNote : null;
    this.ensure(16 + (rows.length + 3) * 12 + 24);
    this.text(p.title, MARGIN, this.y, WIDTH, { bold: true, color: GREY });
    this.y += 13;
    const labelWidth = 130;
    for (const [label, value] of rows) {
      this.text(`${label}:`, MARGIN, this.y, labelWidth);
      this.text(value, MARGIN + labelWidth, this.y, WIDTH - labelWidth);
      this.y += 12;
    }
    if (!doc.draft) {
      this.text(`${p.reference}:`, MARGIN, this.y, labelWidth);
      this.lateText(MARGIN + labelWidth, this.y, WIDTH - labelWidth, (late) => (late.payment_reference ? groupedReference(late.payment_reference) : ''), { bold: true });
      this.y += 12;
    }
    if (note) this.y += this.text(note, MARGIN, this.y + 2, WIDTH, { wrap: true }) + 2;
    if (!credit && doc.payment.terms) this.y += this.text(doc.payment.terms, MARGIN, this.y, WIDTH, { wrap: true, color: GREY });
    this.y += 10;
  }

  private annexHeader = () => {
    const a = this.labels.annex;
    const cells: Record<string, string> = {
      start: a.start, location: a.location, token: a.token, energy: a.energy, duration: a.duration, amount: `${a.amount} (${this.doc.currency})`,
    };
    for (const c of ANNEX_COLUMNS) this.text(cells[c.key], MARGIN + c.x, this.y, c.width, { align: c.align, bold: true, size: 7.5 });
    this.y += 11;
    this.pdf.moveTo(MARGIN, this.y - 2).lineTo(MARGIN + WIDTH, this.y - 2).lineWidth(0.5).strokeColor('#999999').stroke();
    this.y += 1;
  };

  async annex(): Promise<void> {
    const { doc, labels } = this;
    if (!doc.annex.length) return;
    // After the totals: on this page when a few rows fit, else on the next.
    this.ensure(120);
    this.y += 6;
    this.text(labels.annex.title, MARGIN, this.y, WIDTH, { bold: true, size: 12 });
    this.y += 17;
    this.y += this.text(labels.annex.intro, MARGIN, this.y, WIDTH, { color: GREY, wrap: true }) + 6;
    for (const section of doc.annex) await this.section(section);
  }

  private async section(section: AnnexSection): Promise<void> {
    const { doc, labels } = this;
    const title = `${section.line_number}. ${section.line_name}`;
    const titleHeight = this.heightOf(title, WIDTH, { bold: true, size: 8.5 });
    this.ensure(titleHeight + 40);
    this.y += this.text(title, MARGIN, this.y, WIDTH, { bold: true, size: 8.5, wrap: true }) + 3;
    this.annexHeader();
    const ROW = 10.5;
    for (const [index, row] of section.rows.entries()) {
      if (index % ROWS_PER_TURN === ROWS_PER_TURN - 1) await new Promise((resolve) => setImmediate(resolve));
      this.ensure(ROW, this.annexHeader);
      const place = [row.location, row.evse_id].filter(Boolean).join(' · ');
      const cells: Record<string, string> = {
        start: row.start ? formatDateTime(row.start, doc.locale) : '',
        location: row.reversal ? `${labels.annex.reversal}: ${place}` : place,
        token: row.token ?? '',
        energy: row.energy_kwh !== null ? formatAmount(row.energy_kwh, doc.locale) : '',
        duration: row.duration_minutes !== null ? formatDuration(row.duration_minutes) : '',
        amount: formatAmount(row.amount, doc.locale),
      };
      for (const c of ANNEX_COLUMNS) this.text(cells[c.key], MARGIN + c.x, this.y, c.width, { align: c.align, size: 7.5, shrink: c.align === 'right' });
      this.y += ROW;
    }
    this.ensure(16);
    this.pdf.moveTo(MARGIN + ANNEX_COLUMNS[5].x, this.y).lineTo(MARGIN + WIDTH, this.y).lineWidth(0.5).strokeColor('#999999').stroke();
    this.y += 2;
    this.text(`${labels.annex.subtotal} ${section.line_number}`, MARGIN, this.y, ANNEX_COLUMNS[5].x, { bold: true, size: 7.5 });
    this.text(formatAmount(section.subtotal, doc.locale), MARGIN + ANNEX_COLUMNS[5].x, this.y, ANNEX_COLUMNS[5].width, { bold: true, size: 7.5, align: 'right', shrink: true });
    this.y += 16;
  }

  /** The late fields, then on every page the footer ("page n of m") and a draft's mark. */
  finish(late: LateValues | null): void {
    const values: LateValues = late ?? { number: null, payment_reference: null };
    const { doc, labels, pdf } = this;
    for (const field of this.late) {
      pdf.switchToPage(field.page);
      this.text(field.text(values), field.x, field.y, field.width, { align: field.align, bold: field.bold, size: field.size });
    }
    const range = pdf.bufferedPageRange();
    const title = `${labels.titles[doc.kind]}${values.number ? ` ${values.number}` : ''}`;
    for (let i = 0; i < range.count; i++) {
      pdf.switchToPage(range.start + i);
      pdf.moveTo(MARGIN, FOOTER_Y - 4).lineTo(MARGIN + WIDTH, FOOTER_Y - 4).lineWidth(0.5).strokeColor('#bbbbbb').stroke();
      this.text(title, MARGIN, FOOTER_Y, WIDTH / 2, { size: 7.5, color: GREY });
      this.text(fill(labels.page, { n: i + 1, m: range.count }), MARGIN + WIDTH / 2, FOOTER_Y, WIDTH / 2, { size: 7.5, color: GREY, align: 'right' });
      if (doc.draft) this.text(labels.draft, MARGIN, 18, WIDTH, { bold: true, size: 14, color: '#c00000', align: 'center' });
    }
    pdf.info.Title = title;
  }
}
