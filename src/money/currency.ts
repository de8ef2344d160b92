// The currencies amounts are kept in (decisions.md "Currencies"): ISO 4217 codes whose minor unit
// is two digits. Every rounded amount here has two decimals (money-math, `roundToCurrency`, the
// documents' checks), so a currency without cents (JPY) or with three decimals (KWD) would be billed
// in amounts it does not have: such a code is refused where a currency enters.
import * as yup from 'yup';

/** ISO 4217 currencies whose minor unit is not 2 (0, 3 or 4 digits). */
const OTHER_MINOR_UNITS = new Set([
  'BIF', 'CLP', 'DJF', 'GNF', 'ISK', 'JPY', 'KMF', 'KRW', 'PYG', 'RWF', 'UGX', 'UYI', 'VND', 'VUV', 'XAF', 'XOF', 'XPF',
  'BHD', 'IQD', 'JOD', 'KWD', 'LYD', 'OMR', 'TND', 'CLF', 'UYW',
]);

export const CURRENCY_RULE = 'an ISO 4217 code of a currency with cents (2 decimals)';

/** Whether `code` is a currency amounts can be kept in: three capital letters, its minor unit 2. */
export function isCentCurrency(code: string): boolean {
  return /^[A-Z]{3}$/.test(code) && !OTHER_MINOR_UNITS.has(code);
}

/** A request member naming a currency (yup): the ISO 4217 pattern, then the cents rule. */
export const currencyCode = () => yup.string().matches(/^[A-Z]{3}$/, '${path} must be an ISO 4217 currency code')
  .test('cents', `\${path} must be ${CURRENCY_RULE}`, (value) => value === undefined || value === null || isCentCurrency(value));
