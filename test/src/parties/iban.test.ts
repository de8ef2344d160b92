import test from 'ava';
import { checkBic, checkIban } from '../../../src/parties/iban.ts';

test('valid IBANs are accepted in compact upper case', (t) => {
  for (const iban of ['NL91ABNA0417164300', 'DE89370400440532013000', 'GB29NWBK60161331926819', 'BE68539007547034', 'NO9386011117947', 'FR1420041010050500013M02606', 'MT84MALT011000012345MTLCAST001S']) {
    t.deepEqual(checkIban(iban), { ok: true, value: iban });
  }
  t.deepEqual(checkIban(' nl91 abna 0417 1643 00 '), { ok: true, value: 'NL91ABNA0417164300' });
});

test('wrong check digits, lengths, countries and characters are refused', (t) => {
  t.false(checkIban('NL92ABNA0417164300').ok, 'check digits');
  t.false(checkIban('NL91ABNA0417164301').ok, 'a changed account digit');
  t.false(checkIban('NL91ABNA041716430').ok, 'one character short');
  t.false(checkIban('DE8937040044053201300').ok, 'too short for DE');
  t.false(checkIban('US12345678901234567').ok, 'no IBAN country');
  t.false(checkIban('NL91-ABNA-0417-1643-00').ok, 'dashes');
  t.false(checkIban('').ok);
  t.false(checkIban('12NL').ok);
});

/** Check digits the textbook way, with BigInt, independent of the code under test. */
function checkDigits(country: string, bban: string): string {
  const numeric = [...`${bban}${country}00`].map((c) => (/[A-Z]/.test(c) ? String(c.charCodeAt(0) - 55) : c)).join('');
  return String(98n - (BigInt(numeric) % 97n)).padStart(2, '0');
}

test('check digits 00, 01 and 99 are refused even where mod 97 holds', (t) => {
  const bbans = Array.from({ length: 1000 }, (_, i) => `ABNA0417${String(i).padStart(6, '0')}`);
  const high = bbans.find((bban) => checkDigits('NL', bban) === '98')!;
  const low = bbans.find((bban) => checkDigits('NL', bban) === '02')!;
  t.true(checkIban(`NL98${high}`).ok);
  t.false(checkIban(`NL01${high}`).ok, '01 = 98 - 97');
  t.true(checkIban(`NL02${low}`).ok);
  t.false(checkIban(`NL99${low}`).ok, '99 = 02 + 97');
  t.false(checkIban(`NL00${low}`).ok);
});

test('BICs: 8 or 11 characters, a real country code, upper-cased', (t) => {
  t.deepEqual(checkBic('ABNANL2A'), { ok: true, value: 'ABNANL2A' });
  t.deepEqual(checkBic('deutdeff500'), { ok: true, value: 'DEUTDEFF500' });
  t.true(checkBic('RAIFXKPR').ok, 'Kosovo uses XK');
  t.false(checkBic('ABNANL2').ok);
  t.false(checkBic('ABNANL2AX').ok);
  t.false(checkBic('ABNANL2A0000').ok);
  t.false(checkBic('AB1ANL2A').ok, 'institution code is letters');
  t.false(checkBic('ABNA122A').ok, 'country code is letters');
  t.false(checkBic('ABNAQQ2A').ok, 'QQ is no country');
  t.false(checkBic('ABNAZZ2A').ok);
  t.false(checkBic('ABNA NL2A').ok);
});
