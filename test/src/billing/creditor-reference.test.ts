import test from 'ava';
import {
  creditorReference, groupedReference, isCreditorReference, paymentReferenceOf, prefixesClash, referencePrefixes,
} from '../../../src/billing/document/creditor-reference.ts';

test('ISO 11649: the standard\'s example, and check digits that the mod-97 check accepts', (t) => {
  t.is(creditorReference('539007547034'), 'RF18539007547034');
  t.true(isCreditorReference('RF18 5390 0754 7034'));
  t.false(isCreditorReference('RF19 5390 0754 7034'));
  t.false(isCreditorReference('RF18 5390 0754 7035'));
  for (const body of ['A', 'VOL2026000001', 'Z'.repeat(21), '000000000000000000001']) t.true(isCreditorReference(creditorReference(body)), body);
  t.throws(() => creditorReference('X'.repeat(22)));
  t.throws(() => creditorReference('VOL-1'));
});

test('the body is the invoice code\'s letters and digits, upper-cased; too long: S, the series number, Y, the year and the number', (t) => {
  t.is(paymentReferenceOf({ code: 'VOL-2026-000001', seriesNumber: 1, year: 2026, sequence: 1 }).slice(4), 'VOL2026000001');
  t.is(paymentReferenceOf({ code: 'vol_x-2026-000017', seriesNumber: 1, year: 2026, sequence: 17 }).slice(4), 'VOLX2026000017');
  const long = paymentReferenceOf({ code: 'CHARGINGINVOICESNL26-2026-000123', seriesNumber: 12, year: 2026, sequence: 123 });
  t.is(long.slice(4), 'S12Y2026000123');
  t.true(isCreditorReference(long));
  t.is(groupedReference('RF18539007547034'), 'RF18 5390 0754 7034');
});

test('a series\' reference prefixes: its code\'s letters while a number fits, its short form S<n>Y when one may not', (t) => {
  t.deepEqual(referencePrefixes('VOL', 1), ['VOL']);
  t.deepEqual(referencePrefixes('A-B-C-D-E-F-G', 2), ['ABCDEFG'], '7 letters: a 10-digit number still fits');
  t.deepEqual(referencePrefixes('ABCDEFGH', 3), ['ABCDEFGH', 'S3Y'], 'from number 1 000 000 000 on: the short form');
  t.deepEqual(referencePrefixes('ABCDEFGHIJK', 4), ['ABCDEFGHIJK', 'S4Y']);
  t.deepEqual(referencePrefixes('ABCDEFGHIJKL', 5), ['S5Y'], 'never fits');
  // Past 999 999 a number has more digits: the switch to the short form follows the body's length.
  t.is(paymentReferenceOf({ code: 'ABCDEFGHIJK-2026-1000000', seriesNumber: 4, year: 2026, sequence: 1_000_000 }).slice(4), 'S4Y20261000000');
  t.is(paymentReferenceOf({ code: 'ABCDEFGHIJ-2026-1000000', seriesNumber: 4, year: 2026, sequence: 1_000_000 }).slice(4), 'ABCDEFGHIJ20261000000');
});

test('two prefixes clash when equal or when one continues the other with digits (the year and number are digits)', (t) => {
  for (const [a, b] of [['VOL', 'VOL'], ['1', '12'], ['12', '1'], ['FAC', 'FAC2026'], ['S1Y', 'S1Y9']]) t.true(prefixesClash(a, b), `${a} ${b}`);
  for (const [a, b] of [['VOL', 'VOLT'], ['1', '1A'], ['S1Y', 'S12Y'], ['S1', 'S1Y'], ['FAC', 'FA'], ['AB', 'BA']]) t.false(prefixesClash(a, b), `${a} ${b}`);
  // Why: number 26 000 001 of 2020 of code A and number 1 of 2026 of code A20 have one body; a letter after the
  // shorter prefix is never a digit of a year.
  const a = paymentReferenceOf({ code: 'A-2020-26000001', seriesNumber: 1, year: 2020, sequence: 26_000_001 });
  t.is(a, paymentReferenceOf({ code: 'A20-2026-000001', seriesNumber: 2, year: 2026, sequence: 1 }));
});
