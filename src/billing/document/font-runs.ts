// The one rule of which font draws which character of a document's text, and in which order the
// pieces of a line go. Every text the PDF draws or measures is split here (run-layout.ts draws and
// measures the runs; pdf-document.ts draws a text of one Noto Sans run as pdfkit lays it out).
//
// Fonts: a character is drawn in the first font of the chain (pdf-fonts.ts) that has a glyph for it.
// A character of no script of its own (spaces, punctuation, digits: Unicode's Common and Inherited)
// stays in the font of the character before it when that font has it (but for Noto Emoji, whose
// spaces are wide), and combining marks, joiners, variation selectors and emoji modifiers always do
// when it has them, so that "北京 123", "דוד לוי" or an emoji sequence stays one run. A character
// no font has prints as U+FFFD; an invisible one (a joiner, a variation selector) is left out.
//
// Direction: pdfkit draws glyphs left to right and fontkit turns a run of a right-to-left script
// (Hebrew, Arabic) into visual order, shaping Arabic. A text with right-to-left letters is split
// further by direction (letters of either direction, European digits, neutrals), and `visualOrder`
// orders one line's runs the way the Unicode bidi algorithm does for a left-to-right paragraph
// (rules W7, N1, I1, L2; no explicit embeddings, mirroring of brackets only): right-to-left words go
// right to left, and a number stays left to right where it is ("רחוב הרצל 12" draws the number left of
// the words).
import type { ChainFont } from './pdf-fonts.ts';

/** L: left-to-right letters; R: right-to-left letters; EN: digits; N: neutrals (spaces, punctuation, symbols). */
export type Direction = 'L' | 'R' | 'EN' | 'N';

/** A piece of a text drawn in one font (pdfkit's name of the face) and one direction. */
export interface FontRun { font: string; text: string; dir: Direction }

const ASCII = /^[\x20-\x7E\n\r]*$/;
const RTL = /[\p{Script=Hebrew}\p{Script=Arabic}\p{Script=Syriac}\p{Script=Thaana}\p{Script=Nko}\p{Script=Samaritan}\p{Script=Mandaic}]/u;
const NEUTRAL_SCRIPT = /[\p{Script=Common}\p{Script=Inherited}]/u;
const ATTACHED = /[\p{M}\u200C\u200D\uFE00-\uFE0F\u{E0020}-\u{E007F}\u{E0100}-\u{E01EF}\u{1F3FB}-\u{1F3FF}]/u;
const INVISIBLE = /\p{Default_Ignorable_Code_Point}/u;
const LINE_BREAK = /[\n\r]/;
const DIGIT = /[0-9\u0660-\u0669\u06F0-\u06F9]/;
const LETTER = /[\p{L}\p{N}]/u;

const directionOf = (c: string): Direction => (DIGIT.test(c) ? 'EN' : RTL.test(c) ? 'R' : LETTER.test(c) ? 'L' : 'N');

/** The runs of a text in logical order, for the regular or bold faces of the chain (directions L alone unless it has right-to-left letters). */
export function fontRuns(text: string, chain: readonly ChainFont[], bold: boolean): FontRun[] {
  const nameOf = (index: number) => (bold ? chain[index].boldName : chain[index].regularName);
  if (ASCII.test(text)) return text ? [{ font: nameOf(0), text, dir: 'L' }] : [];
  const bidi = RTL.test(text);
  const primary = chain[0];
  const runs: { index: number; text: string; dir: Direction }[] = [];
  let current: { index: number; text: string; dir: Direction } | undefined;
  for (const ch of text) {
    const cp = ch.codePointAt(0)!;
    let c = ch;
    let index: number;
    // A mark or joiner goes with the character before it, in its direction.
    let dir: Direction | undefined = current && ATTACHED.test(ch) ? current.dir : undefined;
    if (LINE_BREAK.test(ch)) {
      // Line breaks belong to no font: layout splits the text at them.
      index = current?.index ?? 0;
      dir = bidi ? 'N' : 'L';
    } else if ((!current || current.index === 0) && primary.has(cp)) {
      index = 0;
    } else if (current && chain[current.index].has(cp)
      && (ATTACHED.test(ch) || (chain[current.index].keepsNeutrals && NEUTRAL_SCRIPT.test(ch)))) {
      index = current.index;
    } else {
      index = chain.findIndex((f) => f.has(cp));
      if (index < 0) {
        if (INVISIBLE.test(ch)) continue;
        c = '\uFFFD';
        index = 0;
      }
    }
    dir ??= bidi ? directionOf(c) : 'L';
    if (current && current.index === index && current.dir === dir) current.text += c;
    else runs.push(current = { index, text: c, dir });
  }
  return runs.map((r) => ({ font: nameOf(r.index), text: r.text, dir: r.dir }));
}

const MIRRORED: Record<string, string> = { '(': ')', ')': '(', '[': ']', ']': '[', '{': '}', '}': '{', '<': '>', '>': '<', '«': '»', '»': '«' };

/**
 * One line's runs (logical order, as `fontRuns` split them) in the order to draw them left to right,
 * for a left-to-right paragraph. Right-to-left runs side by side in one font (words and the spaces
 * between them) become one run of direction R, in logical order: fontkit shapes it and reverses its
 * glyphs whole (run-layout.ts draws it so), and a PDF reader reads it back as one piece, in reading order.
 * A neutral run on its own between right-to-left ones is reversed here, its brackets mirrored.
 */
export function visualOrder(runs: FontRun[]): FontRun[] {
  if (!runs.some((r) => r.dir === 'R')) return runs;
  // W7: digits after left-to-right letters (or at the start) are left to right.
  let strong: 'L' | 'R' = 'L';
  const types = runs.map((r) => {
    if (r.dir === 'L' || r.dir === 'R') strong = r.dir;
    return r.dir === 'EN' && strong === 'L' ? 'L' : r.dir;
  });
  // N1: neutrals between right-to-left letters or digits after them take their direction; I1: levels.
  const strongAround = (i: number, step: 1 | -1): 'L' | 'R' => {
    for (let j = i + step; j >= 0 && j < types.length; j += step) if (types[j] !== 'N') return types[j] === 'L' ? 'L' : 'R';
    return 'L';
  };
  const levels = types.map((type, i) => (type === 'L' ? 0 : type === 'R' ? 1 : type === 'EN' ? 2
    : strongAround(i, -1) === 'R' && strongAround(i, 1) === 'R' ? 1 : 0));
  const pieces: { run: FontRun; level: number }[] = [];
  runs.forEach((run, i) => {
    const last = pieces.at(-1);
    if (last && last.level === 1 && levels[i] === 1 && last.run.font === run.font) {
      last.run = { font: run.font, text: last.run.text + run.text, dir: last.run.dir === 'R' || run.dir === 'R' ? 'R' : 'N' };
    } else {
      pieces.push({ run, level: levels[i] });
    }
  });
  // L2: from the highest level down to 1, reverse each sequence at that level or above.
  for (let level = Math.max(...levels); level >= 1; level--) {
    for (let i = 0; i < pieces.length;) {
      if (pieces[i].level < level) { i++; continue; }
      let j = i;
      while (j < pieces.length && pieces[j].level >= level) j++;
      pieces.splice(i, j - i, ...pieces.slice(i, j).reverse());
      i = j;
    }
  }
  return pieces.map(({ run, level }) => {
    if (level % 2 === 1 && run.dir !== 'R') return { ...run, text: [...run.text].reverse().map((c) => MIRRORED[c] ?? c).join('') };
    // Arabic-Indic digits are of the Arabic script: fontkit would reverse them, so they go reversed.
    if (run.dir === 'EN' && RTL.test(run.text)) return { ...run, text: [...run.text].reverse().join('') };
    return run;
  });
}
