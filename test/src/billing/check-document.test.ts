import test from 'ava';
import type { BillingDocument } from '../../../src/billing/document/billing-document.ts';
import { assertConsistent } from '../../../src/billing/document/check-document.ts';
import { invoiceModel, line } from '../../helpers/billing-document-factory.ts';

const base = invoiceModel();
const [reverseCharge, standard] = base.vat_breakdown;

test(`consistent models pass: the factory's, and one with a reversal line, a free line and a VAT accounting currency`, (t) => {
  t.notThrows(() => assertConsistent(base));
  t.notThrows(() => assertConsistent(invoiceModel({
    lines: [line(1, '40.00'), line(2, '-10.00'), line(3, '0.00', { quantity: '3', unit_price: '0.00' })],
    vat_breakdown: [{ ...standard, taxable_amount: '30.00', vat_amount: '6.30' }],
    totals: { net: '30.00', vat: '6.30', gross: '36.30' },
    tax_currency: { code: 'SEK', rate: '11.5', vat_total: '72.45' },
  })));
});

const BROKEN: Record<string, [Partial<BillingDocument>, RegExp]> = {
  'an amount with 3 decimals (BR-DEC)': [{ totals: { ...base.totals, net: '150.000' } }, /2 decimals/],
  'a negative unit price (BR-27)': [{ lines: [line(1, '100.00', { quantity: '-1', unit_price: '-100.00' }), base.lines[1]] }, /not negative/],
  'a line whose amount is not quantity × price': [{ lines: [line(1, '100.00', { quantity: '3', unit_price: '33.33' }), base.lines[1]] }, /99.99, not 100.00/],
  'a line whose rate has no breakdown entry': [{ vat_breakdown: [standard] }, /needs exactly one VAT breakdown entry/],
  'a breakdown whose taxable amount is not its lines (BR-S-08)': [{ vat_breakdown: [reverseCharge, { ...standard, taxable_amount: '99.00' }] }, /add up to 100.00, not 99.00/],
  'VAT that is not taxable × rate (BR-CO-17)': [{
    vat_breakdown: [reverseCharge, { ...standard, vat_amount: '21.01' }], totals: { net: '150.00', vat: '21.01', gross: '171.01' },
  }, /is 21.00, not 21.01/],
  'reverse charge with VAT (BR-AE-09)': [{
    vat_breakdown: [{ ...reverseCharge, vat_amount: '10.50' }, standard], totals: { net: '150.00', vat: '31.50', gross: '181.50' },
  }, /is 0.00, not 10.50/],
  'reverse charge with a rate': [{
    lines: [base.lines[0], { ...base.lines[1], vat_percent: '21.00' }], vat_breakdown: [{ ...reverseCharge, vat_percent: '21.00' }, standard],
  }, /rate 0 %/],
  'lines that do not add up to the net total (BR-CO-10)': [{ totals: { net: '151.00', vat: '21.00', gross: '172.00' } }, /lines add up to 150.00/],
  'a VAT total that is not the breakdown (BR-CO-14)': [{ totals: { net: '150.00', vat: '20.00', gross: '170.00' } }, /breakdown adds up to 21.00/],
  'a gross total that is not net + VAT (BR-CO-15)': [{ totals: { net: '150.00', vat: '21.00', gross: '171.01' } }, /gross/],
  'a VAT accounting currency total of the other sign': [{ tax_currency: { code: 'SEK', rate: '11.5', vat_total: '-241.50' } }, /other sign/],
};

for (const [name, [overrides, message]] of Object.entries(BROKEN)) {
  test(`refused: ${name}`, (t) => {
    t.throws(() => assertConsistent(invoiceModel(overrides)), { message });
  });
}
