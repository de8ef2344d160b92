import test from 'ava';
import { creditorReference, groupedReference, isCreditorReference, paymentReferenceOf } from '../../../src/billing/document/creditor-reference.ts';

test('ISO 11649: the standard\'s example, and check digits that the mod-97 check accepts', (t) => {
  t.is(creditorReference('539007547034'), 'RF18539007547034');
  t.true(isCreditorReference('RF18 5390 0754 7034'));
  t.false(isCreditorReference('RF19 5390 0754 7034'));
  t.false(isCreditorReference('RF18 5390 0754 7035'));
  for (const body of ['A', 'VOL2026000001', 'Z'.repeat(21), '000000000000000000001']) t.true(isCreditorReference(creditorReference(body)), body);
  t.throws(() => creditorReference('X'.repeat(22)));
  t.throws(() => creditorReference('VOL-1'));
});

test('the body is the invoice code\'s letters and digits, upper-cased; too long: series number, year and number', (t) => {
  t.is(paymentReferenceOf({ code: 'VOL-2026-000001', seriesNumber: 1, year: 2026, sequence: 1 }).slice(4), 'VOL2026000001');
  t.is(paymentReferenceOf({ code: 'vol_x-2026-000017', seriesNumber: 1, year: 2026, sequence: 17 }).slice(4), 'VOLX2026000017');
  const long = paymentReferenceOf({ code: 'CHARGINGINVOICESNL26-2026-000123', seriesNumber: 12, year: 2026, sequence: 123 });
  t.is(long.slice(4), '122026000123');
  t.true(isCreditorReference(long));
  t.is(groupedReference('RF18539007547034'), 'RF18 5390 0754 7034');
});
