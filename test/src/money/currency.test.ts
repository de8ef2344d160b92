import test from 'ava';
import { isCentCurrency } from '../../../src/money/currency.ts';

test('cent currencies are ISO 4217 currencies whose minor unit is 2: not codes of no currency, metals, funds, or currencies without cents', (t) => {
  for (const code of ['EUR', 'USD', 'GBP', 'SEK', 'CHF', 'PLN', 'XCD', 'XCG', 'ZWG', 'SLE', 'VED']) t.true(isCentCurrency(code), code);
  for (const code of ['XXX', 'XTS', 'XAU', 'XAG', 'XDR', 'XSU', 'XUA', 'ABC', 'EUX', 'JPY', 'KRW', 'KWD', 'BHD', 'CLF', 'UYW', 'CHE', 'USN', 'eur', 'EURO', '']) {
    t.false(isCentCurrency(code), code);
  }
});
