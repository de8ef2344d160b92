// The payment reference of a document: an ISO 11649 structured creditor reference, "RF", two check
// digits (mod 97, as IBANs) and a body of 1 to 21 letters and digits. The body is the invoice
// code's letters and digits, upper-cased, the rest dropped ("VOL-2026-000001" → VOL2026000001);
// when that is longer than 21, the series' short number, the year and the 6-digit number
// (decisions: "Billing", payment reference). Written as the document's BT-83.

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

/** The creditor reference of a document number. */
export function paymentReferenceOf(number: DocumentNumber): string {
  const body = referenceLetters(number.code);
  if (body.length >= 1 && body.length <= MAX_BODY) return creditorReference(body);
  return creditorReference(`${number.seriesNumber}${number.year}${String(number.sequence).padStart(6, '0')}`);
}

/** In groups of four, as printed ("RF18 VOL2 0260 0000 1"). */
export const groupedReference = (reference: string) => reference.replace(/(.{4})(?=.)/g, '$1 ');
