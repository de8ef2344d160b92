// The fonts of the PDF documents: Noto Sans (regular and bold) from the npm package
// @expo-google-fonts/noto-sans (SIL Open Font License 1.1), whole TTF files that pdfkit embeds as
// subsets: Latin with its accents and extensions (Łódź, Müller, Ørsted), Greek, Cyrillic and
// Devanagari print right, and a reader needs no font of its own. Read and parsed once per process:
// given the files, pdfkit parses them again for every document, and the glyph tables that layout then
// decodes lazily were decoded anew each time (a fifth of the CPU of a test that renders many
// documents). A parsed font is shared read-only: each document keeps its own subset and layout cache.
//
// What Noto Sans lacks, users' texts still hold: the fallback chain (FALLBACKS) after it, in order,
// Noto Sans Hebrew, Noto Naskh Arabic, Noto Sans Hans (Chinese, Japanese kana and kanji), Noto Sans
// Thai, Noto Emoji (monochrome), each in regular and bold (Noto Emoji 400 and 700), all OFL 1.1. A
// text is drawn in runs, each in the first font of the chain that has its glyphs (font-runs.ts).
// The fallbacks are read and parsed when a text first needs them (Noto Sans Hans is 8 MB a weight),
// and registered on a document when it first draws with them (`selectFont`): most documents never
// embed one. Noto Naskh Arabic and Noto Sans Hebrew come from @embedpdf's builds, whose Arabic has a
// glyph of its own per letter form (the current Noto Arabic fonts draw a letter as a dotless form
// plus its dots, glyphs without a character, so a PDF's text layer reads them back as other letters).
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

const require = createRequire(import.meta.url);

/** What fontkit's `create` answers, as pdfkit takes it (`registerFont` with a font that has `layout`) and the runs read it. */
export type ParsedFont = {
  layout: (...args: never[]) => unknown;
  hasGlyphForCodePoint(codePoint: number): boolean;
  ascent: number;
  unitsPerEm: number;
};

type Create = (buffer: Uint8Array) => unknown;

/** One font of the chain: pdfkit's names of its two faces, which characters it has, its faces parsed on first need. */
export interface ChainFont {
  readonly regularName: string;
  readonly boldName: string;
  /** Whether spaces, punctuation and digits after its characters stay in it (font-runs.ts): not in Noto Emoji, whose spaces are wide. */
  readonly keepsNeutrals: boolean;
  /** Whether the font has a glyph for the code point (its regular face's cmap; the bold one has the same). */
  has(codePoint: number): boolean;
  face(bold: boolean): ParsedFont;
}

export interface DocumentFonts {
  regular: ParsedFont;
  bold: ParsedFont;
  /** Noto Sans first, then the fallbacks. */
  chain: readonly ChainFont[];
}

export const FONT = 'NotoSans';
export const FONT_BOLD = 'NotoSans-Bold';

/** Where a fallback's two files are: its package, the folder in it, the files. */
interface Fallback { name: string; pkg: string; dir: string; regular: string; bold: string; keepsNeutrals?: false }

/** The fallback chain after Noto Sans, in order (the choice: docs/decisions.md, "Scripts beyond Noto Sans"). */
const FALLBACKS: readonly Fallback[] = [
  { name: 'NotoSansHebrew', pkg: '@embedpdf/fonts-hebrew', dir: '../fonts', regular: 'NotoSansHebrew-Regular.ttf', bold: 'NotoSansHebrew-Bold.ttf' },
  { name: 'NotoNaskhArabic', pkg: '@embedpdf/fonts-arabic', dir: '../fonts', regular: 'NotoNaskhArabic-Regular.ttf', bold: 'NotoNaskhArabic-Bold.ttf' },
  { name: 'NotoSansHans', pkg: '@embedpdf/fonts-sc', dir: '../fonts', regular: 'NotoSansHans-Regular.otf', bold: 'NotoSansHans-Bold.otf' },
  { name: 'NotoSansThai', pkg: '@expo-google-fonts/noto-sans-thai', dir: '.', regular: '400Regular/NotoSansThai_400Regular.ttf', bold: '700Bold/NotoSansThai_700Bold.ttf' },
  { name: 'NotoEmoji', pkg: '@expo-google-fonts/noto-emoji', dir: '.', regular: '400Regular/NotoEmoji_400Regular.ttf', bold: '700Bold/NotoEmoji_700Bold.ttf', keepsNeutrals: false },
];

/** A package's folder: the @embedpdf packages export only their entry point (dist/index.cjs), the fonts are beside it. */
const packageDir = (pkg: string, dir: string) => join(dirname(require.resolve(dir === '.' ? `${pkg}/package.json` : pkg)), dir);

/** A font's cmap looked up once per code point (the runs ask for every character of every text). */
function coverage(font: () => ParsedFont): (codePoint: number) => boolean {
  const bmp = new Uint8Array(0x10000); // 0 not asked yet, 1 has a glyph, 2 has none
  const astral = new Map<number, boolean>();
  return (cp) => {
    if (cp < 0x10000) {
      const known = bmp[cp];
      if (known) return known === 1;
      const has = font().hasGlyphForCodePoint(cp);
      bmp[cp] = has ? 1 : 2;
      return has;
    }
    let has = astral.get(cp);
    if (has === undefined) astral.set(cp, has = font().hasGlyphForCodePoint(cp));
    return has;
  };
}

function chainFont(regularName: string, boldName: string, keepsNeutrals: boolean, parse: (bold: boolean) => ParsedFont): ChainFont {
  const faces: [ParsedFont | null, ParsedFont | null] = [null, null];
  const face = (bold: boolean) => (faces[bold ? 1 : 0] ??= parse(bold));
  return { regularName, boldName, keepsNeutrals, has: coverage(() => face(false)), face };
}

/** The fonts, parsed by fontkit's `create` (the fontkit pdfkit uses: document-libraries.ts loads it): Noto Sans now, the fallbacks when needed. */
export function parseDocumentFonts(create: Create): DocumentFonts {
  const dir = dirname(require.resolve('@expo-google-fonts/noto-sans/package.json'));
  const parse = (file: string) => create(readFileSync(join(dir, file))) as ParsedFont;
  const regular = parse(join('400Regular', 'NotoSans_400Regular.ttf'));
  const bold = parse(join('700Bold', 'NotoSans_700Bold.ttf'));
  const chain = [
    chainFont(FONT, FONT_BOLD, true, (b) => (b ? bold : regular)),
    ...FALLBACKS.map((f) => chainFont(f.name, `${f.name}-Bold`, f.keepsNeutrals ?? true,
      (b) => create(readFileSync(join(packageDir(f.pkg, f.dir), b ? f.bold : f.regular))) as ParsedFont)),
  ];
  return { regular, bold, chain };
}

/** The fonts each document has registered (Noto Sans at its start, the fallbacks when first drawn with). */
const registered = new WeakMap<PDFKit.PDFDocument, Set<string>>();

/** Registers Noto Sans on a document under FONT and FONT_BOLD (the fallbacks register when used: `selectFont`). */
export function registerDocumentFonts(pdf: PDFKit.PDFDocument, fonts: DocumentFonts): void {
  pdf.registerFont(FONT, fonts.regular);
  pdf.registerFont(FONT_BOLD, fonts.bold);
  registered.set(pdf, new Set([FONT, FONT_BOLD]));
}

/** Makes a font of the chain (by its face's name) the document's current font, registering it on first use. */
export function selectFont(pdf: PDFKit.PDFDocument, fonts: DocumentFonts, name: string): void {
  let names = registered.get(pdf);
  if (!names) registered.set(pdf, names = new Set());
  if (!names.has(name)) {
    const font = fonts.chain.find((f) => f.regularName === name || f.boldName === name);
    if (!font) throw new Error(`no document font ${name}`);
    pdf.registerFont(name, font.face(name === font.boldName));
    names.add(name);
  }
  pdf.font(name);
}
