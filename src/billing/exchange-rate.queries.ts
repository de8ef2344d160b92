// The exchange rates of an administration (REST GET /administration/{id}/billing-exchange-rate):
// plain data, seek paging by id.
import type { Em } from '../platform/orm.ts';
import { SeekList } from '../platform/seek-page.ts';
import { ExchangeRate } from './exchange-rate.entity.ts';

export interface ExchangeRateData { id: string; adminId: string; currency: string; date: string; rate: string; createdAt: Date }

/** A rate from a row (or an entity's values) of the table. */
export const exchangeRateData = (row: Record<string, any>): ExchangeRateData => ({
  id: row.id, adminId: typeof row.admin === 'object' ? row.admin.id : row.admin, currency: row.currency, date: row.date, rate: row.rate, createdAt: row.createdAt,
});

export function exchangeRateList(em: Em, adminId: string): SeekList<ExchangeRateData> {
  return new SeekList<ExchangeRateData>(em, { entity: ExchangeRate, where: { admin: adminId }, map: exchangeRateData });
}
