// The fonts of the PDF documents: Noto Sans (regular and bold) from the npm package
// @expo-google-fonts/noto-sans (SIL Open Font License 1.1), whole TTF files that pdfkit embeds as
// subsets: Latin with its accents and extensions (Łódź, Müller, Ørsted), Greek and Cyrillic print
// right, and a reader needs no font of its own. Read and parsed once per process: given the files,
// pdfkit parses them again for every document, and the glyph tables that layout then decodes
// lazily were decoded anew each time (a fifth of the CPU of a test that renders many documents).
// A parsed font is shared read-only: each document keeps its own subset and layout cache.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

const require = createRequire(import.meta.url);

/** What fontkit's `create` answers, as pdfkit takes it (`registerFont` with a font that has `layout`). */
export type ParsedFont = { layout: (...args: never[]) => unknown };

export interface DocumentFonts { regular: ParsedFont; bold: ParsedFont }

/** The two fonts, parsed by fontkit's `create` (the fontkit pdfkit uses: document-libraries.ts loads it). */
export function parseDocumentFonts(create: (buffer: Uint8Array) => unknown): DocumentFonts {
  const dir = dirname(require.resolve('@expo-google-fonts/noto-sans/package.json'));
  const parse = (file: string) => create(readFileSync(join(dir, file))) as ParsedFont;
  return { regular: parse(join('400Regular', 'NotoSans_400Regular.ttf')), bold: parse(join('700Bold', 'NotoSans_700Bold.ttf')) };
}

export const FONT = 'NotoSans';
export const FONT_BOLD = 'NotoSans-Bold';

/** Registers the two fonts on a document under FONT and FONT_BOLD. */
export function registerDocumentFonts(pdf: PDFKit.PDFDocument, fonts: DocumentFonts): void {
  pdf.registerFont(FONT, fonts.regular);
  pdf.registerFont(FONT_BOLD, fonts.bold);
}
