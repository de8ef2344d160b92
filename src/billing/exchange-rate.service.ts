// Daily rates to an administration's VAT accounting currency (foreign currency totals of its boxes):
// set a rate (the list is in exchange-rate.queries.ts).
import { DATE_FORMAT, parseDate } from '../platform/timestamp.ts';
import { isNegative, isZero, parseDecimal } from '../money/decimal.ts';
import { visibleAdministration } from '../parties/customer-input.ts';
import { InvalidInputError } from '../platform/errors.ts';
import type { Em } from '../platform/orm.ts';
import { ExchangeRate } from './exchange-rate.entity.ts';
import { exchangeRateData, type ExchangeRateData } from './exchange-rate.queries.ts';
import { CURRENCY_RULE, isCentCurrency } from '../money/currency.ts';

/** Sets the rate of a currency on a date (a second call for the same date replaces it). */
export async function setExchangeRate(
  em: Em, adminId: string, input: { currency?: string | null; date?: string | null; rate?: string | null },
): Promise<ExchangeRateData> {
  const admin = await visibleAdministration(em, adminId, null);
  if (!input.currency || !isCentCurrency(input.currency)) throw new InvalidInputError(`currency must be ${CURRENCY_RULE}`, { path: ['currency'] });
  const date = input.date ?? '';
  if (!parseDate(date)) throw new InvalidInputError(`date must be ${DATE_FORMAT}`, { path: ['date'] });
  const rate = parseDecimal(input.rate ?? '', ['rate']);
  if (isNegative(rate) || isZero(rate)) throw new InvalidInputError('rate must be positive', { path: ['rate'] });
  const existing = await em.findOne(ExchangeRate, { admin, currency: input.currency, date });
  const row = existing ?? em.create(ExchangeRate, { admin, currency: input.currency, date, rate });
  row.rate = rate;
  await em.flush();
  return exchangeRateData({ ...row, admin: admin.id });
}
