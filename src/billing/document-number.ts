// Gap-free document numbers per series and calendar year: one counter row, incremented in the
// finalize transaction. Concurrent finalizes of one series wait until the taker commits (finalize
// takes its number last, after laying out its documents); a rollback gives the number back.
// Format `<series code>-<year>-<6 digits>` (decisions.md).
import type { Em } from '../platform/orm.ts';
import type { DocumentNumber } from './document/creditor-reference.ts';

const TAKE = `insert into billing_number_counter (series_id, year, last_number) values (?, ?, 1)
  on conflict (series_id, year) do update set last_number = billing_number_counter.last_number + 1
  returning last_number`;

/**
 * The series' code and short number: its position among its administration's series by creation (1
 * for the first). Series are never deleted, so the short number never changes; a payment reference
 * uses it when the invoice code is too long for one (creditor-reference.ts).
 */
const SERIES = `select me.code, (select count(*)::int from billing_series s
    where s.admin_id = me.admin_id and (s.created_at, s.id) <= (me.created_at, me.id)) as n
  from billing_series me where me.id = ?`;

/**
 * The series' numbering, held to the commit (two-key form, a class of its own after the series
 * saves' 736400131). Taking a number and renaming the series take it, so a number is always issued
 * under the code the series has when it commits, and a rename sees every number taken before it.
 */
export async function lockSeriesNumbering(em: Em, seriesId: string): Promise<void> {
  await em.execute('select pg_advisory_xact_lock(736400132, hashtext(?::text))', [seriesId]);
}

/** The next number of the series, under its code as read with the numbering locked (a rename may have committed since the box was read). */
export async function takeDocumentNumber(em: Em, seriesId: string, year: number): Promise<DocumentNumber> {
  if (!em.isInTransaction()) throw new Error('a document number is taken in the finalize transaction');
  await lockSeriesNumbering(em, seriesId);
  const [series] = await em.execute<{ code: string; n: number }[]>(SERIES, [seriesId]);
  const [row] = await em.execute<{ last_number: number }[]>(TAKE, [seriesId, year]);
  return { code: `${series.code}-${year}-${String(row.last_number).padStart(6, '0')}`, seriesNumber: series.n, year, sequence: row.last_number };
}
