// The session annex as CSV (RFC 4180, UTF-8, comma-separated, a header row of fixed machine names):
// the UBL carries it as its additional supporting document (BT-122..125), embedded up to 5 MB and
// else by reference. One row per annex row, with its line's number; amounts and kWh as exact
// decimals with a point. Text cells that a spreadsheet would read as a formula get a leading quote.
import type { BillingDocument } from './billing-document.ts';

/** The largest CSV the UBL embeds; a larger one is stored beside the documents and referenced. */
export const MAX_EMBEDDED_ANNEX_BYTES = 5 * 1024 * 1024;

const HEADER = ['line', 'session_id', 'start_local', 'location', 'evse_id', 'token', 'energy_kwh', 'duration_minutes', 'amount_excl_vat', 'entry'];

function cell(value: string | number | null, text = false): string {
  if (value === null) return '';
  let s = String(value);
  if (text && /^[=+\-@\t\r]/.test(s)) s = `'${s}`;
  return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

export function annexCsv(doc: BillingDocument): Buffer {
  const lines = [HEADER.join(',')];
  for (const section of doc.annex) {
    for (const r of section.rows) {
      lines.push([cell(section.line_number), cell(r.session_id, true), cell(r.start), cell(r.location, true), cell(r.evse_id, true), cell(r.token, true),
        cell(r.energy_kwh), cell(r.duration_minutes), cell(r.amount), r.reversal ? 'reversal' : 'original'].join(','));
    }
  }
  return Buffer.from(`${lines.join('\r\n')}\r\n`, 'utf8');
}

/** The annex file's name beside the documents: `<number>-sessions.csv`. */
export const annexFilename = (number: string) => `${number}-sessions.csv`;
