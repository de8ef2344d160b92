// Reading a finalized box's documents back as a reader would: the PDF's text (pdf-parse) page by
// page and line by line, the UBL, the box's session items; the payment reference printed, and any
// English label of the document texts (src/billing/document/document-labels.ts) on a document in
// another language.
import { LABELS, type DocumentLanguage } from '../../src/billing/document/document-labels.ts';
import type { TestApp } from './app.ts';
import { pdfPages } from './pdf-text.ts';

export async function readInvoice(app: TestApp, boxId: string) {
  const pdf = await app.request('GET', `/main/v1/billing-box/${boxId}/document`);
  if (pdf.status !== 200) throw new Error(`document: ${pdf.status} ${JSON.stringify(pdf.body)}`);
  const xml = await app.request('GET', `/main/v1/billing-box/${boxId}/document`, { headers: { accept: 'application/xml' } });
  const items = await app.request('GET', `/main/v1/billing-box/${boxId}/msp-charge-session?page_size=1000`);
  const pages = await pdfPages(pdf.body);
  return { pdf: pdf.body as Buffer, pages, text: pages.join('\n').replace(/\s+/g, ' '), xml: xml.body as string, sessionItems: items.body.items as any[] };
}

/** Every line of text, whitespace collapsed. */
export const textLines = (pages: string[]) => pages.flatMap((p) => p.split('\n')).map((l) => l.replace(/\s+/g, ' ').trim()).filter(Boolean);

/** The ISO 11649 reference printed (grouped by four), compacted. */
export function paymentReferenceIn(text: string): string {
  const match = /(?:^|\s)(RF\d{2}(?: [A-Z0-9]{1,4}(?=\s|$))+)/.exec(text);
  if (!match) throw new Error(`no payment reference in\n${text}`);
  return match[1].replace(/ /g, '');
}

/** "YYYY-MM-DD HH:MM" of an instant in a time zone. */
export function localStart(iso: string, timeZone: string): string {
  const parts = Object.fromEntries(new Intl.DateTimeFormat('en-CA', {
    timeZone, year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', hourCycle: 'h23',
  }).formatToParts(new Date(iso)).map((p) => [p.type, p.value]));
  return `${parts.year}-${parts.month}-${parts.day} ${parts.hour}:${parts.minute}`;
}

function leaves(value: unknown, path: string[] = []): [string, string][] {
  if (typeof value === 'string') return [[path.join('.'), value]];
  return Object.entries(value as Record<string, unknown>).flatMap(([key, member]) => leaves(member, [...path, key]));
}

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** The English labels (not also the language's own) that the text holds, as whole words; placeholders match anything. */
export function englishLabelsIn(text: string, language: DocumentLanguage): string[] {
  const own = new Set(leaves(LABELS[language]).map(([, label]) => label));
  return leaves(LABELS.en).filter(([, label]) => !own.has(label)).filter(([, label]) => {
    const pattern = label.split(/\{\w+\}/).map(escape).join('.+?');
    return new RegExp(`(^|[^\\p{L}])${pattern}($|[^\\p{L}])`, 'u').test(text);
  }).map(([path, label]) => `${path}: ${label}`);
}
