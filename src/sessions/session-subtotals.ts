// The subtotals of a priced session as the priced-session resource shows them: the lines of the
// pricing core, labelled, plus `monetary_credit` lines (one per VAT rate) when credits pay part of
// the session (src/msp/monetary-credit.service.ts); the totals are the sums of the rounded lines.
import { subtractCurrency, sumCurrency } from '../money/decimal.ts';
import type { Subtotal } from '../pricing/price-session.ts';

export interface SessionSubtotal extends Omit<Subtotal, 'kind'> {
  kind: Subtotal['kind'] | 'monetary_credit';
  rate_label: string;
  rate_represent_as_percentage: boolean;
}

const LABELS: Record<string, string> = {
  energy: 'Energy', time: 'Charging time', parking_time: 'Parking time', flat: 'Session fee',
  min_price_adjustment: 'Minimum price', max_price_adjustment: 'Maximum price',
};

export function labelled(subtotals: Subtotal[]): SessionSubtotal[] {
  return subtotals.map((s) => ({ ...s, rate_label: s.label ?? LABELS[s.kind] ?? s.kind, rate_represent_as_percentage: false }));
}

export interface SessionTotals { total_excl_vat: string; total_vat: string; total_incl_vat: string }

export function totalsOf(subtotals: SessionSubtotal[]): SessionTotals {
  const excl = sumCurrency(subtotals.map((s) => s.amount_excl_vat));
  const incl = sumCurrency(subtotals.map((s) => s.amount_incl_vat));
  return { total_excl_vat: excl, total_vat: subtractCurrency(incl, excl), total_incl_vat: incl };
}
