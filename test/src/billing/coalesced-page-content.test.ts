import test from 'ava';
import PDFDocument from 'pdfkit';
import { coalescePageContent } from '../../../src/billing/document/coalesced-page-content.ts';
import { documentLibraries } from '../../../src/billing/document/document-libraries.ts';
import { registerDocumentFonts } from '../../../src/billing/document/pdf-fonts.ts';
import { FONT, FONT_BOLD } from '../../../src/billing/document/pdf-fonts.ts';

/** A document of buffered pages with text, shapes and colours, and footers drawn after the last page, as the billing PDF does. */
async function draw(coalesced: boolean, rows: number, rowsPerPage = 57): Promise<Buffer> {
  const fixed = new Date('2026-11-01T00:00:00Z');
  const pdf = new PDFDocument({ size: 'A4', margin: 0, bufferPages: true, compress: true, info: { CreationDate: fixed, ModDate: fixed } });
  registerDocumentFonts(pdf, (await documentLibraries()).fonts);
  if (coalesced) coalescePageContent(pdf);
  const chunks: Buffer[] = [];
  pdf.on('data', (chunk: Buffer) => chunks.push(chunk));
  const done = new Promise<Buffer>((resolve) => pdf.on('end', () => resolve(Buffer.concat(chunks))));
  for (let i = 0; i < rows; i++) {
    if (i && i % rowsPerPage === 0) pdf.addPage();
    const y = 40 + (i % 57) * 13;
    pdf.font(i % 7 ? FONT : FONT_BOLD).fontSize(8).fillColor(i % 3 ? 'black' : '#555555').text(`Row ${i} Ünïcødé € ${(i * 1.37).toFixed(2)}`, 45, y, { width: 300 });
    pdf.moveTo(45, y + 11).lineTo(550, y + 11).lineWidth(0.3).strokeColor('#cccccc').stroke();
  }
  const { count } = pdf.bufferedPageRange();
  for (let page = 0; page < count; page++) {
    pdf.switchToPage(page);
    pdf.font(FONT).fontSize(7).fillColor('black').text(`Page ${page + 1} of ${count}`, 45, 810, { width: 500, align: 'right', lineBreak: false });
  }
  pdf.end();
  return done;
}

test('pages whose content is collected as text write the same bytes as pdfkit writing each operator on its own', async (t) => {
  const plain = await draw(false, 400);
  const coalesced = await draw(true, 400);
  t.true(plain.length > 10_000);
  t.true(plain.equals(coalesced));
});

test('pages past the chunk size (64 KiB of operators) are handed over in several chunks, the same bytes', async (t) => {
  // 1,000 rows drawn over one another on each page: some 300 KiB of operators a page.
  const plain = await draw(false, 3000, 1000);
  t.true((await draw(true, 3000, 1000)).equals(plain));
});
