// The VAT rate reads both transports call (REST GET /vat-rate and /vat-rate/{id}, GraphQL
// `vatRates` and the VatRate node): plain data, by id. VAT rates are instance-wide.
import type { FilterQuery } from '@mikro-orm/core';
import { NotFoundError } from '../platform/errors.ts';
import type { Em } from '../platform/orm.ts';
import { plainData, type Data } from '../platform/plain-data.ts';
import { dataByIds, dataByRef, type RowShape } from '../platform/plain-reads.ts';
import { SeekList } from '../platform/seek-page.ts';
import { VatRate } from './vat-rate.entity.ts';

export type VatRateData = Data<VatRate>;

const RATE: RowShape<VatRateData> = { entity: VatRate, map: (row) => row as VatRateData };

export function vatRateList(em: Em, filter: { country?: string } = {}): SeekList<VatRateData> {
  const where: FilterQuery<VatRate> = filter.country ? { country: filter.country.toUpperCase() } : {};
  return new SeekList<VatRateData>(em, { ...RATE, where });
}

export async function getVatRate(em: Em, id: string): Promise<VatRateData> {
  const rate = await dataByRef(em, RATE, { id });
  if (!rate) throw new NotFoundError('VAT rate');
  return rate;
}

/** GraphQL's VatRate loader. */
export function vatRatesByIds(em: Em, ids: readonly string[]): Promise<VatRateData[]> {
  return dataByIds(em, RATE, ids);
}

/** A rate a service created or changed, as the answers show it. */
export function vatRateData(rate: VatRate): VatRateData {
  return plainData(rate);
}
