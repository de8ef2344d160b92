// The payment reference of a document: an ISO 11649 structured creditor reference, "RF", two check
// digits (mod 97, as IBANs) and a body of 1 to 21 letters and digits. The body is the invoice
// code's letters and digits, upper-cased, the rest dropped ("VOL-2026-000001" → VOL2026000001);
// when that is longer than 21, the series' short form: S, its short number, Y, then the year and the
// number ("S12Y2026000123") (decisions: "Billing", payment reference). Written as the document's BT-83.
//
// A body is a prefix of the series (its code's letters, or its short form) + the year (4 digits) + the
// number (6 digits, more past 999 999). Two bodies of different prefixes are equal only when the
// prefixes are, or when one prefix is the other followed by digits (A + 2020 + 26000001 is
// A20 + 2026 + 000001): billing-series.service.ts refuses a code whose prefixes clash so with another
// series' (prefixesClash), so no two documents of an administration share a reference. The short form
// ends in a letter: no short form continues another with digits.

const MAX_BODY = 21;

/** Letters as numbers (A = 10 … Z = 35), then mod 97 in pieces (the number is too long for a double). */
function mod97(text: string): number {
  const digits = text.replace(/[A-Z]/g, (c) => String(c.charCodeAt(0) - 55));
  let rest = 0;
  for (let i = 0; i < digits.length; i += 7) rest = Number(`${rest}${digits.slice(i, i + 7)}`) % 97;
  return rest;
}

/** RF + check digits + body; the body is 1 to 21 letters and digits. */
export function creditorReference(body: string): string {
  if (!/^[A-Z0-9]{1,21}$/.test(body)) throw new Error(`a creditor reference body is 1 to ${MAX_BODY} letters and digits: ${body}`);
  const check = 98 - mod97(`${body}RF00`);
  return `RF${String(check).padStart(2, '0')}${body}`;
}

/** Whether a reference (spaces allowed) is a valid ISO 11649 creditor reference. */
export function isCreditorReference(reference: string): boolean {
  const compact = reference.replace(/ /g, '').toUpperCase();
  if (!/^RF\d{2}[A-Z0-9]{1,21}$/.test(compact)) return false;
  return mod97(`${compact.slice(4)}${compact.slice(0, 4)}`) === 1;
}

export interface DocumentNumber {
  /** The invoice code, `<series code>-<year>-<6 digits>`. */
  code: string;
  /** The series' short number (its position among the administration's series, 1 for the first). */
  seriesNumber: number;
  year: number;
  sequence: number;
}

/** What a payment reference keeps of a code: its letters and digits, upper case. */
export const referenceLetters = (code: string): string => code.toUpperCase().replace(/[^A-Z0-9]/g, '');

/** The widest number a series takes in a year: the counter is a PostgreSQL integer (2 147 483 647). */
const MAX_NUMBER_DIGITS = 10;
const YEAR_DIGITS = 4;
const NUMBER_DIGITS = 6;

/** A series' short form, for codes too long for a reference: never a continuation of another's with digits. */
export const shortForm = (seriesNumber: number): string => `S${seriesNumber}Y`;

/** The short form documents carried before 2026-11-29: the bare number (1, 2, ...), which a code "1" reads as too. */
export const formerShortForm = (seriesNumber: number): string => String(seriesNumber);

/** Whether a series' documents up to number `highest` used a short form: a code too long for one of their references. */
export const usedShortForm = (code: string, highest: number): boolean =>
  referenceLetters(code).length + YEAR_DIGITS + Math.max(NUMBER_DIGITS, String(highest).length) > MAX_BODY;

/** The creditor reference of a document number. */
export function paymentReferenceOf(number: DocumentNumber): string {
  const body = referenceLetters(number.code);
  if (body.length >= 1 && body.length <= MAX_BODY) return creditorReference(body);
  return creditorReference(`${shortForm(number.seriesNumber)}${number.year}${String(number.sequence).padStart(NUMBER_DIGITS, '0')}`);
}

/**
 * The prefixes a series' references can start with (paymentReferenceOf): its code's letters while a
 * 6-digit number fits behind them, its short form when some number's does not.
 */
export function referencePrefixes(code: string, seriesNumber: number): string[] {
  const letters = referenceLetters(code);
  const prefixes: string[] = [];
  if (letters.length + YEAR_DIGITS + NUMBER_DIGITS <= MAX_BODY) prefixes.push(letters);
  if (letters.length + YEAR_DIGITS + MAX_NUMBER_DIGITS > MAX_BODY) prefixes.push(shortForm(seriesNumber));
  return prefixes;
}

/** Whether references of two prefixes could be equal: the prefixes are, or one is the other followed by digits. */
export function prefixesClash(a: string, b: string): boolean {
  const [shorter, longer] = a.length <= b.length ? [a, b] : [b, a];
  return longer.startsWith(shorter) && /^[0-9]*$/.test(longer.slice(shorter.length));
}

/** In groups of four, as printed ("RF18 VOL2 0260 0000 1"). */
export const groupedReference = (reference: string) => reference.replace(/(.{4})(?=.)/g, '$1 ');
