// Measuring, wrapping, cutting and drawing a text that needs more than Noto Sans (font-runs.ts
// splits it into runs; pdf-document.ts sends only such texts here, a text of Noto Sans alone is laid
// out by pdfkit as before). Each run is measured and drawn in its own font, so a text of mixed scripts
// wraps, is cut and is aligned by the widths it is drawn with; every run sits on Noto Sans's baseline
// and the lines keep Noto Sans's line height, as the document's other lines do.
// Lines break after spaces and hyphens, and between characters of scripts written without spaces
// (Chinese, Japanese, Thai, ...) where Intl.Segmenter finds a word boundary, never before closing
// punctuation; a word too long for the line is broken between graphemes. As pdfkit does, a text that
// does not fit in its lines ends with "…".
import { fontRuns, visualOrder, type FontRun } from './font-runs.ts';
import { FONT, FONT_BOLD, selectFont, type DocumentFonts } from './pdf-fonts.ts';

export type Align = 'left' | 'right' | 'center';
export interface RunStyle { bold: boolean; size: number }

const ELLIPSIS = '…';
const graphemeSegmenter = new Intl.Segmenter(undefined, { granularity: 'grapheme' });
const wordSegmenter = new Intl.Segmenter(undefined, { granularity: 'word' });
const SPACE = /\s/u;
const TRAILING_SPACE = /\s+$/u;
const DENSE = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Thai}\p{Script=Lao}\p{Script=Khmer}\p{Script=Myanmar}\p{Extended_Pictographic}]/u;
const CLOSING = /[、。，．！？：；）」』】〕》〉]/u;
const LETTER = /\p{L}/u;

/** Where a line may end in a text (offsets, ascending; its length last). */
function breakOpportunities(text: string): number[] {
  const breaks: number[] = [];
  for (const { index } of wordSegmenter.segment(text)) {
    if (index === 0) continue;
    const before = String.fromCodePoint(text.codePointAt(index - 1 - (/[\uDC00-\uDFFF]/.test(text[index - 1]) ? 1 : 0))!);
    const after = String.fromCodePoint(text.codePointAt(index)!);
    if (SPACE.test(after)) continue;
    if (SPACE.test(before) || (before === '-' && LETTER.test(after)) || (DENSE.test(after) && (DENSE.test(before) || CLOSING.test(before)))) breaks.push(index);
  }
  breaks.push(text.length);
  return breaks;
}

/** The runs covering [from, to) of their joined text. */
function sliceRuns(runs: FontRun[], from: number, to: number): FontRun[] {
  const out: FontRun[] = [];
  let offset = 0;
  for (const run of runs) {
    const end = offset + run.text.length;
    if (end > from && offset < to) out.push({ ...run, text: run.text.slice(Math.max(0, from - offset), Math.min(run.text.length, to - offset)) });
    offset = end;
    if (offset >= to) break;
  }
  return out;
}

/** The runs without the spaces they end with. */
function trimEnd(runs: FontRun[]): FontRun[] {
  const out = [...runs];
  while (out.length) {
    const last = out[out.length - 1];
    const text = last.text.replace(TRAILING_SPACE, '');
    if (text) { out[out.length - 1] = { ...last, text }; break; }
    out.pop();
  }
  return out;
}

const joined = (runs: FontRun[]) => runs.map((r) => r.text).join('');

/**
 * pdfkit lays a text out word by word (split after spaces), in order: a right-to-left run, words and
 * spaces, is given to fontkit whole (any `features` make pdfkit do so; the default ones still apply),
 * which shapes it and reverses its glyphs into visual order.
 */
const shaping = (run: FontRun): { features?: [] } => (run.dir === 'R' ? { features: [] } : {});

export class RunLayout {
  private readonly pdf: PDFKit.PDFDocument;
  private readonly fonts: DocumentFonts;

  constructor(pdf: PDFKit.PDFDocument, fonts: DocumentFonts) {
    this.pdf = pdf;
    this.fonts = fonts;
  }

  runs(text: string, bold: boolean): FontRun[] {
    return fontRuns(text, this.fonts.chain, bold);
  }

  /** Whether the text is drawn as it is in Noto Sans alone (pdfkit lays it out). */
  plain(text: string, bold: boolean): boolean {
    const runs = this.runs(text, bold);
    return runs.length === 0 || (runs.length === 1 && runs[0].font === (bold ? FONT_BOLD : FONT) && runs[0].text === text);
  }

  /** A text wrapped to `width` from `y`, in at most the lines `room` holds (the last then ends with "…"); answers its height. */
  paragraph(text: string, x: number, y: number, width: number, style: RunStyle & { align: Align }, room: number): number {
    const height = this.lineHeight(style);
    const lines = this.lines(text, width, style, Math.floor(room / height + 1e-9));
    lines.forEach((line, i) => this.draw(line, x, y + i * height, width, style.align, style));
    this.restore(style);
    return lines.length * height;
  }

  /** The height of a text wrapped to `width`, as `paragraph` draws it without a bound. */
  height(text: string, width: number, style: RunStyle): number {
    const lines = this.lines(text, width, style, Infinity);
    const height = this.lineHeight(style) * lines.length;
    this.restore(style);
    return height;
  }

  /** A one-line cell: cut with "…" where it would not fit, or (`shrink`, amounts) set smaller. */
  cell(text: string, x: number, y: number, width: number, style: RunStyle & { align: Align; shrink: boolean }): void {
    if (style.shrink) {
      const runs = this.runs(text, style.bold);
      const natural = this.width(trimEnd(runs), style.size);
      this.draw(runs, x, y, width, style.align, natural > width ? { ...style, size: style.size * width / natural } : style);
    } else {
      this.draw(this.fit(text, width, style), x, y, width, style.align, style);
    }
    this.restore(style);
  }

  private restore(style: RunStyle): void {
    this.pdf.font(style.bold ? FONT_BOLD : FONT).fontSize(style.size);
  }

  private lineHeight(style: RunStyle): number {
    return this.pdf.font(style.bold ? FONT_BOLD : FONT).fontSize(style.size).currentLineHeight(true);
  }

  private width(runs: FontRun[], size: number): number {
    let width = 0;
    for (const run of runs) {
      selectFont(this.pdf, this.fonts, run.font);
      width += this.pdf.fontSize(size).widthOfString(run.text, shaping(run));
    }
    return width;
  }

  /** The runs of the text, cut to its longest start that fits in `width` with "…" (`always`: even when the whole fits). */
  private fit(text: string, width: number, style: RunStyle, always = false): FontRun[] {
    const whole = this.runs(text, style.bold);
    if (!always && this.width(trimEnd(whole), style.size) <= width) return whole;
    const ends = [0, ...[...graphemeSegmenter.segment(text)].map((g) => g.index + g.segment.length)];
    const cut = (n: number) => this.runs(`${text.slice(0, ends[n]).replace(TRAILING_SPACE, '')}${ELLIPSIS}`, style.bold);
    let low = 0;
    let high = ends.length - 1;
    while (low < high) {
      const mid = Math.ceil((low + high) / 2);
      if (this.width(cut(mid), style.size) <= width) low = mid; else high = mid - 1;
    }
    return cut(low);
  }

  /** The lines of a text wrapped to `width`, at most `maxLines`: where text is left over, the last ends with "…". */
  private lines(text: string, width: number, style: RunStyle, maxLines: number): FontRun[][] {
    const lines: FontRun[][] = [];
    for (const paragraph of text.split(/\r\n?|\n/)) {
      const runs = this.runs(paragraph, style.bold);
      const all = joined(runs);
      const breaks = breakOpportunities(all);
      let start = 0;
      do {
        if (lines.length >= maxLines) {
          if (lines.length) lines[lines.length - 1] = this.fit(joined(lines[lines.length - 1]), width, style, true);
          return lines;
        }
        const end = this.lineEnd(all, runs, start, breaks, width, style.size);
        lines.push(trimEnd(sliceRuns(runs, start, end)));
        start = end;
        while (start < all.length && SPACE.test(all[start])) start++;
      } while (start < all.length);
    }
    return lines;
  }

  /** Where the line that starts at `start` ends: at the last break that fits, else (a word too long) after the graphemes that fit, one at least. */
  private lineEnd(text: string, runs: FontRun[], start: number, breaks: number[], width: number, size: number): number {
    let fits = -1;
    let first = -1;
    for (const end of breaks) {
      if (end <= start) continue;
      if (first < 0) first = end;
      if (this.width(trimEnd(sliceRuns(runs, start, end)), size) > width + 1e-9) break;
      fits = end;
    }
    if (fits > start) return fits;
    let end = start;
    for (const g of graphemeSegmenter.segment(text.slice(start, first))) {
      const next = start + g.index + g.segment.length;
      if (end > start && this.width(sliceRuns(runs, start, next), size) > width + 1e-9) break;
      end = next;
    }
    return end;
  }

  /** One line at (x, y), y its top as pdfkit's: its runs in visual order, each on Noto Sans's baseline. */
  private draw(runs: FontRun[], x: number, y: number, width: number, align: Align, style: RunStyle): void {
    const ordered = visualOrder(trimEnd(runs));
    const widths = ordered.map((run) => this.width([run], style.size));
    const total = widths.reduce((a, b) => a + b, 0);
    let at = align === 'right' ? x + width - total : align === 'center' ? x + (width - total) / 2 : x;
    const face = style.bold ? this.fonts.bold : this.fonts.regular;
    const baseline = y + (face.ascent / face.unitsPerEm) * style.size;
    ordered.forEach((run, i) => {
      selectFont(this.pdf, this.fonts, run.font);
      this.pdf.fontSize(style.size).text(run.text, at, baseline, { lineBreak: false, baseline: 'alphabetic', ...shaping(run) });
      at += widths[i];
    });
  }
}
