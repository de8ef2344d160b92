// The issuer's logo on a document: a PNG (pdfkit draws it) or an SVG (svg-to-pdfkit draws it as
// vectors), at most 1 MB, checked when it is uploaded by drawing it once. An SVG draws from itself
// only: no external files or addresses (an <image> may carry a data: PNG or JPEG), no DOCTYPE or
// entities, no scripts; its text uses the documents' embedded font.
import { documentLibraries, type DocumentLibraries } from './document-libraries.ts';
import { FONT, FONT_BOLD, registerDocumentFonts } from './pdf-fonts.ts';

export const LOGO_TYPES = ['image/png', 'image/svg+xml'] as const;
export const MAX_LOGO_BYTES = 1024 * 1024;

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
const utf8 = new TextDecoder('utf-8', { fatal: true });

export interface Logo { content_type: string; bytes: Buffer }

/** Why a logo cannot be used, or null when it can. */
export async function logoProblem(contentType: string, bytes: Buffer): Promise<string | null> {
  if (!(LOGO_TYPES as readonly string[]).includes(contentType)) return `a logo is ${LOGO_TYPES.join(' or ')}`;
  if (bytes.length === 0) return 'the logo is empty';
  if (bytes.length > MAX_LOGO_BYTES) return `a logo is at most ${MAX_LOGO_BYTES} bytes`;
  if (contentType === 'image/png' && !bytes.subarray(0, 8).equals(PNG_SIGNATURE)) return 'the body is not a PNG image';
  if (contentType === 'image/svg+xml') {
    let text: string;
    try {
      text = utf8.decode(bytes);
    } catch {
      return 'an SVG logo is UTF-8 text';
    }
    if (!/<svg[\s>]/.test(text)) return 'the body is not an SVG image (no <svg> element)';
    if (/<!(DOCTYPE|ENTITY)/i.test(text)) return 'an SVG logo may not carry a DOCTYPE or entities';
    if (/<script[\s>]/i.test(text)) return 'an SVG logo may not carry scripts';
    const external = [...text.matchAll(/(?:href\s*=\s*["']|url\(\s*["']?)\s*([^"')\s]*)/gi)].map((m) => m[1]).find((ref) => !isInternal(ref));
    if (external !== undefined) return `an SVG logo draws from itself only: ${external.slice(0, 60)} is outside it`;
  }
  const libraries = await documentLibraries();
  try {
    const pdf = new libraries.PDFDocument({ size: 'A4' });
    registerDocumentFonts(pdf, libraries.fonts);
    pdf.on('data', () => {});
    const problems: string[] = [];
    drawLogo(libraries, pdf, { content_type: contentType, bytes }, 0, 0, 150, 50, (warning) => problems.push(warning));
    pdf.end();
    if (contentType === 'image/svg+xml' && problems.some((p) => /Error|failed|invalid/i.test(p))) return `the SVG logo does not draw: ${problems[0]}`;
  } catch (error) {
    return `the logo does not draw: ${(error as Error).message}`;
  }
  return null;
}

/** A reference inside the SVG itself, or a data: image. */
function isInternal(ref: string): boolean {
  return ref === '' || ref.startsWith('#') || /^data:image\/(png|jpeg);base64,/i.test(ref);
}

/** Draws the logo fitted into the box (x, y, width, height), kept in proportion, aligned right (the fonts registered: pdf-fonts.ts). */
export function drawLogo(libraries: DocumentLibraries, pdf: PDFKit.PDFDocument, logo: Logo, x: number, y: number, width: number, height: number, warn: (message: string) => void = () => {}): void {
  if (logo.content_type === 'image/png') {
    pdf.image(logo.bytes, x, y, { fit: [width, height], align: 'right' });
    return;
  }
  libraries.SVGtoPDF(pdf, logo.bytes.toString('utf8'), x, y, {
    width, height, preserveAspectRatio: 'xMaxYMin meet', assumePt: true,
    fontCallback: (_family: string, bold: boolean) => (bold ? FONT_BOLD : FONT),
    imageCallback: (link: string) => (isInternal(link.trim()) && link.trim() !== '' ? link.replace(/\s+/g, '') : Buffer.alloc(0)),
    warningCallback: warn,
  });
}
