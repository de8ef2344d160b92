// Gap-free document numbers per series and calendar year: one counter row, incremented in the
// finalize transaction. Concurrent finalizes of one series wait on the row until the taker commits
// (finalize takes it last, after laying out its documents); a rollback gives the number back.
// Format `<series code>-<year>-<6 digits>` (decisions.md).
import type { Em } from '../platform/orm.ts';
import type { DocumentNumber } from './document/creditor-reference.ts';

const TAKE = `insert into billing_number_counter (series_id, year, last_number) values (?, ?, 1)
  on conflict (series_id, year) do update set last_number = billing_number_counter.last_number + 1
  returning last_number`;

/**
 * The series' short number: its position among its administration's series by creation (1 for the
 * first). Series are never deleted, so it never changes; a payment reference uses it when the
 * invoice code is too long for one (creditor-reference.ts).
 */
const SERIES_NUMBER = `select count(*)::int as n from billing_series s, billing_series me
  where me.id = ? and s.admin_id = me.admin_id and (s.created_at, s.id) <= (me.created_at, me.id)`;

export async function takeDocumentNumber(em: Em, seriesId: string, seriesCode: string, year: number): Promise<DocumentNumber> {
  if (!em.isInTransaction()) throw new Error('a document number is taken in the finalize transaction');
  const [series] = await em.execute<{ n: number }[]>(SERIES_NUMBER, [seriesId]);
  const [row] = await em.execute<{ last_number: number }[]>(TAKE, [seriesId, year]);
  return { code: `${seriesCode}-${year}-${String(row.last_number).padStart(6, '0')}`, seriesNumber: series.n, year, sequence: row.last_number };
}
