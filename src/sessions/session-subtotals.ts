// The subtotals of a priced session as the priced-session resource shows them: the lines of the
// pricing core plus `monetary_credit` lines (one per VAT rate) when credits pay part of the session.
import {
  addCurrency, addDecimal, compareDecimal, floorToCurrency, isZero, minDecimal, normalize, percentOfDecimal, roundToCurrency, subtractCurrency, sumCurrency, toFixedDecimal,
} from '../money/decimal.ts';
import type { Subtotal } from '../pricing/price-session.ts';

export interface SessionSubtotal extends Omit<Subtotal, 'kind'> {
  kind: Subtotal['kind'] | 'monetary_credit';
  rate_label: string;
  rate_represent_as_percentage: boolean;
}

const LABELS: Record<string, string> = {
  energy: 'Energy', time: 'Charging time', parking_time: 'Parking time', flat: 'Session fee',
  min_price_adjustment: 'Minimum price', max_price_adjustment: 'Maximum price', monetary_credit: 'Charge credit',
};

export function labelled(subtotals: Subtotal[]): SessionSubtotal[] {
  return subtotals.map((s) => ({ ...s, rate_label: s.label ?? LABELS[s.kind] ?? s.kind, rate_represent_as_percentage: false }));
}

/** What credits may pay: the rounded excl.-VAT lines of components the plan does not exclude. */
export function creditEligibleAmount(subtotals: SessionSubtotal[], excluded: string[]): string {
  const eligible = sumCurrency(subtotals.filter((s) => !excluded.includes(s.kind)).map((s) => s.amount_excl_vat));
  return compareDecimal(eligible, '0') > 0 ? eligible : '0.00';
}

/** The part of `balance` a session uses: whole cents, never more than the balance or the eligible amount. */
export function creditToUse(balance: string, eligible: string): string {
  return minDecimal(floorToCurrency(balance), eligible);
}

/**
 * A negative line for the credit used. Credits are amounts excl. VAT, so the VAT of the part
 * they pay goes too: the line carries the session's VAT rate on the negative amount.
 */
export function creditLine(used: string, like: SessionSubtotal): SessionSubtotal {
  const amount = normalize(`-${used}`);
  const vatUnrounded = percentOfDecimal(amount, like.vat_percent);
  const incl = roundToCurrency(addDecimal(amount, vatUnrounded));
  const excl = roundToCurrency(amount);
  return {
    kind: 'monetary_credit', volume: '1.00', billed_volume: '1.00', step_size: null, rate: amount, rate_unit: 'session',
    rate_label: LABELS.monetary_credit, rate_represent_as_percentage: false,
    amount_excl_vat_unrounded: toFixedDecimal(amount, 6), amount_excl_vat: excl,
    vat_percent: like.vat_percent, vat_kind: like.vat_kind, vat_country: like.vat_country,
    vat_amount_unrounded: toFixedDecimal(vatUnrounded, 6), vat_amount: subtractCurrency(incl, excl), amount_incl_vat: incl,
  };
}

export interface SessionTotals { total_excl_vat: string; total_vat: string; total_incl_vat: string }

export function totalsOf(subtotals: SessionSubtotal[]): SessionTotals {
  const excl = sumCurrency(subtotals.map((s) => s.amount_excl_vat));
  const incl = sumCurrency(subtotals.map((s) => s.amount_incl_vat));
  return { total_excl_vat: excl, total_vat: subtractCurrency(incl, excl), total_incl_vat: incl };
}

/**
 * Adds the credit lines: the credit pays the eligible lines in their order, and each VAT rate
 * among the lines it pays gets a line of its own, so the VAT that goes is that rate's.
 */
export function withCredit(subtotals: SessionSubtotal[], used: string, excluded: string[] = []): SessionSubtotal[] {
  if (isZero(used)) return subtotals;
  let left = used;
  const byVat = new Map<string, { amount: string; like: SessionSubtotal }>();
  for (const s of subtotals) {
    if (excluded.includes(s.kind) || compareDecimal(s.amount_excl_vat, '0') <= 0 || compareDecimal(left, '0') <= 0) continue;
    const part = minDecimal(s.amount_excl_vat, left);
    left = subtractCurrency(left, part);
    const key = `${s.vat_kind}|${s.vat_percent}|${s.vat_country}`;
    const group = byVat.get(key);
    byVat.set(key, { amount: group ? addCurrency(group.amount, part) : roundToCurrency(part), like: group?.like ?? s });
  }
  return [...subtotals, ...[...byVat.values()].map((g) => creditLine(g.amount, g.like))];
}
