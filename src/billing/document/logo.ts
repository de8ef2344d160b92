// The issuer's logo on a document: a PNG (pdfkit draws it) or an SVG (svg-to-pdfkit draws it as
// vectors), at most 1 MB, checked when it is uploaded by drawing it once. An SVG draws from itself
// only: no external files or addresses (an <image> may carry a data: PNG or JPEG), no DOCTYPE or
// entities, no scripts; its text uses the documents' embedded font. Before anything draws or decodes
// it, a PNG (or an SVG's embedded image) is held to MAX_RASTER_SIDE and MAX_RASTER_PIXELS by its header
// (raster-size.ts) and an SVG to what svg-budget.ts allows: the drawing is synchronous, and a small
// file can describe a huge one. A stored logo over them (uploaded before they existed) is not drawn.
import { documentLibraries, type DocumentLibraries } from './document-libraries.ts';
import { FONT, FONT_BOLD, registerDocumentFonts } from './pdf-fonts.ts';
import { isJpeg, isPng, MAX_RASTER_PIXELS, pngDataProblem, rasterSize, rasterSizeProblem } from './raster-size.ts';
import { svgBudget } from './svg-budget.ts';

export const LOGO_TYPES = ['image/png', 'image/svg+xml'] as const;
export const MAX_LOGO_BYTES = 1024 * 1024;
const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
const utf8 = new TextDecoder('utf-8', { fatal: true });

export interface Logo { content_type: string; bytes: Buffer }

/**
 * What could run or fetch in a browser that shows an SVG: a script element of any prefix, an event
 * handler attribute, animation (which can set an href to `javascript:`), foreign (HTML) content, a
 * `javascript:` URL. A logo is a drawing: none of it belongs there.
 */
const ACTIVE_SVG = /<([\w.-]+:)?(script|foreignObject|set|animate\w*|handler|listener)[\s>/]|\son[a-z]+\s*=|javascript:/i;

/** Why a logo cannot be used, or null when it can. */
export async function logoProblem(contentType: string, bytes: Buffer): Promise<string | null> {
  if (!(LOGO_TYPES as readonly string[]).includes(contentType)) return `a logo is ${LOGO_TYPES.join(' or ')}`;
  if (bytes.length === 0) return 'the logo is empty';
  if (bytes.length > MAX_LOGO_BYTES) return `a logo is at most ${MAX_LOGO_BYTES} bytes`;
  if (contentType === 'image/png') {
    if (!bytes.subarray(0, 8).equals(PNG_SIGNATURE)) return 'the body is not a PNG image';
    const problem = rasterSizeProblem(bytes, 'the PNG logo') ?? await pngDataProblem(bytes, 'the PNG logo');
    if (problem) return problem;
  }
  if (contentType === 'image/svg+xml') {
    let text: string;
    try {
      text = utf8.decode(bytes);
    } catch {
      return 'an SVG logo is UTF-8 text';
    }
    if (!/<svg[\s>]/.test(text)) return 'the body is not an SVG image (no <svg> element)';
    if (/<!(DOCTYPE|ENTITY)/i.test(text)) return 'an SVG logo may not carry a DOCTYPE or entities';
    if (ACTIVE_SVG.test(text)) return 'an SVG logo may not carry scripts, event handlers, animations or foreign content';
    const external = [...text.matchAll(/(?:href\s*=\s*["']|url\(\s*["']?)\s*([^"')\s]*)/gi)].map((m) => m[1]).find((ref) => !isInternal(ref));
    if (external !== undefined) return `an SVG logo draws from itself only: ${external.slice(0, 60)} is outside it`;
    const images = svgImages(text);
    if (typeof images === 'string') return images;
    for (const image of images) {
      const problem = isPng(image) ? await pngDataProblem(image, 'an image in the SVG logo') : null;
      if (problem) return problem;
    }
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

/** The SVG's distinct embedded PNGs and JPEGs, or why it is too costly to draw (svg-budget.ts) or they are too large. */
function svgImages(text: string): Buffer[] | string {
  const budget = svgBudget(text);
  if (typeof budget === 'string') return budget;
  const images: Buffer[] = [];
  let pixels = 0;
  for (const link of new Set(budget.images)) {
    const bytes = embeddedImage(link);
    if (!bytes) continue; // not an image pdfkit opens: the drawing reports it
    const problem = rasterSizeProblem(bytes, 'an image in the SVG logo');
    if (problem) return problem;
    const size = rasterSize(bytes)!;
    pixels += size.width * size.height;
    images.push(bytes);
  }
  return pixels > MAX_RASTER_PIXELS ? `the images in an SVG logo have at most ${MAX_RASTER_PIXELS} pixels in all` : images;
}

/** The bytes of a data: image as pdfkit reads them (the whitespace removed: drawLogo's imageCallback), or null. */
function embeddedImage(link: string): Buffer | null {
  const data = /^data:.+?;base64,(.*)$/.exec(link);
  if (!data) return null;
  const bytes = Buffer.from(data[1], 'base64');
  return isPng(bytes) || isJpeg(bytes) ? bytes : null;
}

/** A reference inside the SVG itself, or a data: image. */
function isInternal(ref: string): boolean {
  return ref === '' || ref.startsWith('#') || /^data:image\/(png|jpeg);base64,/i.test(ref);
}

/** Draws the logo fitted into the box (x, y, width, height), kept in proportion, aligned right (the fonts registered: pdf-fonts.ts). */
export function drawLogo(libraries: DocumentLibraries, pdf: PDFKit.PDFDocument, logo: Logo, x: number, y: number, width: number, height: number, warn: (message: string) => void = () => {}): void {
  const checked = logo.content_type === 'image/png' ? rasterSizeProblem(logo.bytes) : svgImages(logo.bytes.toString('utf8'));
  if (typeof checked === 'string') {
    warn(`the logo is not drawn: ${checked}`);
    return;
  }
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
