// The VAT rate list both transports call (REST GET /vat-rate, GraphQL `vatRates`): by id.
import type { FilterQuery } from '@mikro-orm/core';
import type { Em } from '../platform/orm.ts';
import { SeekList } from '../platform/seek-page.ts';
import { VatRate } from './vat-rate.entity.ts';

export function vatRateList(em: Em, filter: { country?: string } = {}): SeekList<VatRate> {
  const where: FilterQuery<VatRate> = filter.country ? { country: filter.country.toUpperCase() } : {};
  return new SeekList<VatRate>(em, { entity: VatRate, where, entities: true });
}
