// Daily rates to an administration's VAT accounting currency (foreign currency totals of its boxes).
import { DATE_FORMAT, parseDate } from '../platform/timestamp.ts';
import { isNegative, isZero, parseDecimal } from '../money/decimal.ts';
import { visibleAdministration } from '../parties/customer-input.ts';
import { InvalidInputError } from '../platform/errors.ts';
import type { Em } from '../platform/orm.ts';
import { SeekList } from '../platform/seek-page.ts';
import { ExchangeRate } from './exchange-rate.entity.ts';

export interface ExchangeRateData { id: string; adminId: string; currency: string; date: string; rate: string; createdAt: Date }

const toData = (row: Record<string, any>): ExchangeRateData => ({
  id: row.id, adminId: typeof row.admin === 'object' ? row.admin.id : row.admin, currency: row.currency, date: row.date, rate: row.rate, createdAt: row.createdAt,
});


export function exchangeRateList(em: Em, adminId: string): SeekList<ExchangeRateData> {
  return new SeekList<ExchangeRateData>(em, { entity: ExchangeRate, where: { admin: adminId }, map: toData });
}

/** Sets the rate of a currency on a date (a second call for the same date replaces it). */
export async function setExchangeRate(em: Em, adminId: string, input: { currency?: string | null; date?: string | null; rate?: string | null }) {
  const admin = await visibleAdministration(em, adminId, null);
  if (!input.currency || !/^[A-Z]{3}$/.test(input.currency)) throw new InvalidInputError('currency must be an ISO 4217 code', { path: ['currency'] });
  const date = input.date ?? '';
  if (!parseDate(date)) throw new InvalidInputError(`date must be ${DATE_FORMAT}`, { path: ['date'] });
  const rate = parseDecimal(input.rate ?? '', ['rate']);
  if (isNegative(rate) || isZero(rate)) throw new InvalidInputError('rate must be positive', { path: ['rate'] });
  const existing = await em.findOne(ExchangeRate, { admin, currency: input.currency, date });
  const row = existing ?? em.create(ExchangeRate, { admin, currency: input.currency, date, rate });
  row.rate = rate;
  await em.flush();
  return toData({ ...row, admin: admin.id });
}
