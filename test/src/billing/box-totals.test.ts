import test from 'ava';
import { boxTotals } from '../../../src/billing/box-totals.ts';

test('VAT is computed once per category and rate on its taxable amount (BR-CO-17), not per roll-up', (t) => {
  const totals = boxTotals([{ vatKind: 'standard', vatPercent: '21.00', net: '0.03' }, { vatKind: 'standard', vatPercent: '21.00', net: '0.03' }]);
  t.deepEqual(totals.vatBreakdown.map((v) => [v.vatCategory, v.taxableAmount, v.vatAmount]), [['S', '0.06', '0.01']]);
  t.deepEqual([totals.totalExclVat, totals.totalVat, totals.totalInclVat], ['0.06', '0.01', '0.07']);
});

test('kinds with the same category and rate share one entry; reverse charge and exempt have their own', (t) => {
  const totals = boxTotals([
    { vatKind: 'standard', vatPercent: '0.00', net: '1.00' }, { vatKind: 'reduced', vatPercent: '0.00', net: '2.00' },
    { vatKind: 'reverse_charge', vatPercent: '0.00', net: '3.00' }, { vatKind: 'exempt', vatPercent: '0.00', net: '-4.00' },
  ]);
  t.deepEqual(totals.vatBreakdown.map((v) => [v.vatCategory, v.taxableAmount, v.vatAmount]), [['AE', '3.00', '0.00'], ['E', '-4.00', '0.00'], ['Z', '3.00', '0.00']]);
  t.is(totals.totalInclVat, '2.00');
});
