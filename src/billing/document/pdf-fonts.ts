// The fonts of the PDF documents: Noto Sans (regular and bold) from the npm package
// @expo-google-fonts/noto-sans (SIL Open Font License 1.1), whole TTF files that pdfkit embeds as
// subsets: Latin with its accents and extensions (Łódź, Müller, Ørsted), Greek and Cyrillic print
// right, and a reader needs no font of its own. Read once per process.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

const require = createRequire(import.meta.url);

export interface DocumentFonts { regular: Buffer; bold: Buffer }

let fonts: DocumentFonts | null = null;

export function documentFonts(): DocumentFonts {
  if (!fonts) {
    const dir = dirname(require.resolve('@expo-google-fonts/noto-sans/package.json'));
    fonts = {
      regular: readFileSync(join(dir, '400Regular', 'NotoSans_400Regular.ttf')),
      bold: readFileSync(join(dir, '700Bold', 'NotoSans_700Bold.ttf')),
    };
  }
  return fonts;
}

export const FONT = 'NotoSans';
export const FONT_BOLD = 'NotoSans-Bold';

/** Registers the two fonts on a document under FONT and FONT_BOLD. */
export function registerDocumentFonts(pdf: PDFKit.PDFDocument): void {
  const { regular, bold } = documentFonts();
  pdf.registerFont(FONT, regular);
  pdf.registerFont(FONT_BOLD, bold);
}
