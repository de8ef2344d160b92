// Daily rates to an administration's VAT accounting currency (foreign currency totals of its boxes):
// set a rate (the list is in exchange-rate.queries.ts).
import { DATE_FORMAT, parseDate } from '../platform/timestamp.ts';
import { isNegative, isZero, parseDecimal } from '../money/decimal.ts';
import { visibleAdministration } from '../parties/customer-input.ts';
import { InvalidInputError } from '../platform/errors.ts';
import type { Em } from '../platform/orm.ts';
import { exchangeRateData, type ExchangeRateData } from './exchange-rate.queries.ts';
import { CURRENCY_RULE, isCentCurrency } from '../money/currency.ts';

const SET_RATE = `insert into billing_exchange_rate (id, admin_id, currency, "date", rate, created_at) values (svc_uuidv7(), ?, ?, ?, ?, now())
  on conflict (admin_id, currency, "date") do update set rate = excluded.rate
  returning id, admin_id, currency, "date", rate::text as rate, created_at`;

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
  // One statement: the same rate set several times at once stores one row (the last one's rate).
  const [row] = await em.execute<Record<string, any>[]>(SET_RATE, [admin.id, input.currency, date, rate]);
  return exchangeRateData({ ...row, admin: row.admin_id, createdAt: new Date(row.created_at) });
}
