// The row PostgreSQL answers `select *` with once a statement of a set-based writer stored it:
// the values the statement wrote (column names) in the types pg reads them with (a numeric in its
// column's scale, a timestamp as a Date), the columns it did not write their default, else null.
// The writers render the data of their events from it (charge-session.queries.ts shapes it as the
// reads do), without reading the rows back.
import type { EntityName } from '@mikro-orm/core';
import { toFixedDecimal } from '../money/decimal.ts';
import type { Em } from '../platform/orm.ts';

function stored(em: Em, value: unknown, column: string, scale: number | undefined): unknown {
  if (value === null || value === undefined) return null;
  if (column.startsWith('numeric') && scale !== undefined) return toFixedDecimal(String(value), scale);
  if (column === 'timestamptz') return value instanceof Date ? value : em.getPlatform().parseDate(value as string);
  return value;
}

/** `written`: every column the statement writes (null included); the others take their default. */
export function storedRow(em: Em, entity: EntityName<any>, written: Record<string, unknown>): Record<string, unknown> {
  const meta = em.getMetadata(entity);
  const row: Record<string, unknown> = {};
  for (const prop of meta.props) {
    if (prop.persist === false || !prop.fieldNames) continue;
    const column = prop.columnTypes?.[0] ?? '';
    for (const field of prop.fieldNames) {
      row[field] = stored(em, Object.hasOwn(written, field) ? written[field] : prop.default, column, prop.scale);
    }
  }
  return row;
}
