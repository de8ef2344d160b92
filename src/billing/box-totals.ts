// A box's money, one home: a roll-up's net is the sum of its items' rounded amounts; VAT is
// computed per VAT category and rate on the category's taxable amount and rounded once
// (EN 16931 BR-CO-17); the total VAT is the sum of the breakdown (decisions.md, "Money").
import { addCurrency, isZero, mulDivToCurrency, sumCurrency } from '../money/decimal.ts';
import type { VatCategory } from './document/billing-document.ts';

export interface RollupAmounts {
  vatKind: string;
  vatPercent: string;
  net: string;
}

export interface VatBreakdownLine {
  vatKind: string;
  vatCategory: VatCategory;
  vatPercent: string;
  taxableAmount: string;
  vatAmount: string;
}

export interface BoxTotals {
  totalExclVat: string;
  totalVat: string;
  totalInclVat: string;
  vatBreakdown: VatBreakdownLine[];
}

/** EN 16931 category of a VAT kind: reverse charge AE, exempt E, a 0 % rate Z, else S. */
export function vatCategoryOf(vatKind: string, vatPercent: string): VatCategory {
  if (vatKind === 'reverse_charge') return 'AE';
  if (vatKind === 'exempt') return 'E';
  return isZero(vatPercent) ? 'Z' : 'S';
}

/** VAT of a net at a rate, rounded once to the cent (through 6 decimals first, 605.67 at 19.12345 % was 115.83 for 115.824999615). */
export const vatOf = (net: string, percent: string): string => mulDivToCurrency(net, percent, '100');

export function boxTotals(rollups: RollupAmounts[]): BoxTotals {
  const groups = new Map<string, VatBreakdownLine>();
  for (const r of rollups) {
    const category = vatCategoryOf(r.vatKind, r.vatPercent);
    // One entry per VAT category and rate (EN 16931): kinds with the same category and rate share it.
    const key = `${category}|${r.vatPercent}`;
    const line = groups.get(key) ?? { vatKind: r.vatKind, vatCategory: category, vatPercent: r.vatPercent, taxableAmount: '0.00', vatAmount: '0.00' };
    line.taxableAmount = addCurrency(line.taxableAmount, r.net);
    groups.set(key, line);
  }
  const vatBreakdown = [...groups.values()].sort((a, b) => a.vatCategory.localeCompare(b.vatCategory) || a.vatPercent.localeCompare(b.vatPercent));
  for (const line of vatBreakdown) line.vatAmount = vatOf(line.taxableAmount, line.vatPercent);
  const totalExclVat = sumCurrency(vatBreakdown.map((l) => l.taxableAmount));
  const totalVat = sumCurrency(vatBreakdown.map((l) => l.vatAmount));
  return { totalExclVat, totalVat, totalInclVat: addCurrency(totalExclVat, totalVat), vatBreakdown };
}
