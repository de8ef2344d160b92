// The currencies amounts are kept in (decisions.md "Currencies"): ISO 4217 codes whose minor unit
// is two digits. Every rounded amount here has two decimals (money-math, `roundToCurrency`, the
// documents' checks), so a currency without cents (JPY) or with three decimals (KWD) would be billed
// in amounts it does not have: such a code is refused where a currency enters.
import * as yup from 'yup';

/**
 * The ISO 4217 currencies whose minor unit is 2: the one list of currencies amounts are kept in.
 * Left out: codes of no currency (XXX, XTS), precious metals and units of account (XAU, XDR, XSU, XUA ...),
 * fund codes (BOV, CHE, CHW, COU, MXV, USN, CLF, UYI, UYW), and the currencies with 0, 3 or 4 decimals
 * (JPY, KRW, KWD, BHD, ...). Withdrawn currencies still in ICU's list are kept (BGN, HRK, CUC, ANG, SLL,
 * ZWL): rates and documents of dates when they were current.
 */
const CENT_CURRENCIES = new Set(`
  AED AFN ALL AMD ANG AOA ARS AUD AWG AZN BAM BBD BDT BGN BMD BND BOB BRL BSD BTN BWP BYN BZD CAD CDF CHF CNY COP
  CRC CUC CUP CVE CZK DKK DOP DZD EGP ERN ETB EUR FJD FKP GBP GEL GHS GIP GMD GTQ GYD HKD HNL HRK HTG HUF IDR ILS
  INR IRR JMD KES KGS KHR KPW KYD KZT LAK LBP LKR LRD LSL MAD MDL MGA MKD MMK MNT MOP MRU MUR MVR MWK MXN MYR MZN
  NAD NGN NIO NOK NPR NZD PAB PEN PGK PHP PKR PLN QAR RON RSD RUB SAR SBD SCR SDG SEK SGD SHP SLE SLL SOS SRD SSP
  STN SVC SYP SZL THB TJS TMT TOP TRY TTD TWD TZS UAH USD UYU UZS VED VES WST XCD XCG YER ZAR ZMW ZWG ZWL
`.trim().split(/\s+/));

export const CURRENCY_RULE = 'an ISO 4217 code of a currency with cents (2 decimals)';

/** Whether `code` is a currency amounts can be kept in: an ISO 4217 currency whose minor unit is 2. */
export function isCentCurrency(code: string): boolean {
  return CENT_CURRENCIES.has(code);
}

/** A request member naming a currency (yup): the ISO 4217 pattern, then the cents rule. */
export const currencyCode = () => yup.string().matches(/^[A-Z]{3}$/, '${path} must be an ISO 4217 currency code')
  .test('cents', `\${path} must be ${CURRENCY_RULE}`, (value) => value === undefined || value === null || isCentCurrency(value));
