// Gap-free document numbers per series and calendar year: one counter row, incremented in the
// finalize transaction. Concurrent finalizes of one series wait on the row; a rollback gives the
// number back. Format `<series code>-<year>-<6 digits>` (decisions.md).
import type { Em } from '../platform/orm.ts';

const TAKE = `insert into billing_number_counter (series_id, year, last_number) values (?, ?, 1)
  on conflict (series_id, year) do update set last_number = billing_number_counter.last_number + 1
  returning last_number`;

export async function takeDocumentNumber(em: Em, seriesId: string, seriesCode: string, year: number): Promise<string> {
  if (!em.isInTransaction()) throw new Error('a document number is taken in the finalize transaction');
  const [row] = await em.execute<{ last_number: number }[]>(TAKE, [seriesId, year]);
  return `${seriesCode}-${year}-${String(row.last_number).padStart(6, '0')}`;
}
