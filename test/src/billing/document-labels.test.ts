import test from 'ava';
import { englishLabelsIn } from '../../helpers/invoice-reading.ts';
import { DOCUMENT_LANGUAGES, LABELS, documentLanguage, fill, formatAmount, formatDate } from '../../../src/billing/document/document-labels.ts';

/** Every leaf of the table as [path, text]. */
function leaves(value: unknown, path: string[] = []): [string, string][] {
  if (typeof value === 'string') return [[path.join('.'), value]];
  return Object.entries(value as Record<string, unknown>).flatMap(([key, member]) => leaves(member, [...path, key]));
}

const placeholders = (text: string) => [...text.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();

test('every label exists, filled, in all four languages, with the same placeholders', (t) => {
  const english = leaves(LABELS.en);
  t.true(english.length > 70);
  for (const language of DOCUMENT_LANGUAGES) {
    const own = new Map(leaves(LABELS[language]));
    t.is(own.size, english.length, `${language}: as many labels as en`);
    for (const [path, text] of english) {
      const translated = own.get(path);
      t.true(typeof translated === 'string' && translated.trim().length > 0, `${language}: ${path}`);
      t.deepEqual(placeholders(translated!), placeholders(text), `${language}: ${path} placeholders`);
    }
  }
});

test('nl, de and fr translate every label: equal to the English only where the language has the same word', (t) => {
  // kWh everywhere; French "Date" and "session(s)" are French words too.
  const same = new Set(['nl annex.energy', 'de annex.energy', 'fr annex.energy', 'fr issueDate', 'fr lines.sessions', 'fr lines.sessionOne']);
  const equal: string[] = [];
  for (const language of ['nl', 'de', 'fr'] as const) {
    const own = new Map(leaves(LABELS[language]));
    for (const [path, text] of leaves(LABELS.en)) if (own.get(path) === text) equal.push(`${language} ${path}`);
  }
  t.deepEqual(equal.filter((e) => !same.has(e)), []);
});

test('the language of a locale; formats of amounts and dates', (t) => {
  t.is(documentLanguage('nl-BE'), 'nl');
  t.is(documentLanguage('es-ES'), 'en');
  t.is(documentLanguage(null), 'en');
  t.is(fill('{n} of {m}', { n: 2, m: 3 }), '2 of 3');
  t.is(formatAmount('-1234567.50', 'de'), '-1.234.567,50');
  t.is(formatAmount('1234.5', 'fr-FR'), '1 234,5');
  t.is(formatDate('2026-11-02', 'fr'), '02/11/2026');
});

test('the check for English labels can fail', (t) => {
  t.true(englishLabelsIn('Factuur Total incl. VAT 12,00 Pagina 1 van 1', 'nl').includes('totalGross: Total incl. VAT'));
  t.deepEqual(englishLabelsIn('Factuur Totaal incl. btw 12,00 Pagina 1 van 1', 'nl'), []);
  t.true(englishLabelsIn('Rechnung Page 1 of 2', 'de').includes('page: Page {n} of {m}'));
});
