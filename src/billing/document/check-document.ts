// The sums a document must hold before it is written (EN 16931 BR-CO-10, BR-CO-13..15, BR-CO-17,
// BR-S-08 and the other categories' -08/-09, BR-DEC; Peppol BIS line amount = quantity × price):
// a model that does not add up is a defect of the service, never something to round away.
import { addCurrency, compareDecimal, isCurrencyText, isNegative, isZero, mulDivToCurrency, sumCurrency } from '../../money/decimal.ts';
import { vatOf } from '../box-totals.ts';
import type { BillingDocument, VatCategory } from './billing-document.ts';

/** A decimal as the model writes it, of any size: a line's unit price is its net amount, which
 * may have more integer digits than an input decimal (isDecimalText: at most 14) may. */
const isPlainDecimal = (value: string) => /^-?\d+(\.\d+)?$/.test(value);

type Rated = { vat_category: VatCategory; vat_percent: string };
const sameRate = (a: Rated, b: Rated) => a.vat_category === b.vat_category && compareDecimal(a.vat_percent, b.vat_percent) === 0;
const equal = (a: string, b: string) => compareDecimal(a, b) === 0;
const sign = (a: string) => compareDecimal(a, '0');

function amountsOf(doc: BillingDocument): string[] {
  return [
    ...doc.lines.map((l) => l.net_amount),
    ...doc.vat_breakdown.flatMap((v) => [v.taxable_amount, v.vat_amount]),
    doc.totals.net, doc.totals.vat, doc.totals.gross,
    ...(doc.tax_currency ? [doc.tax_currency.vat_total] : []),
  ];
}

export function assertConsistent(doc: BillingDocument): void {
  const fail = (what: string) => { throw new Error(`billing document ${doc.number ?? 'draft'}: ${what}`); };
  for (const amount of amountsOf(doc)) if (!isCurrencyText(amount)) fail(`${amount} is not an amount with 2 decimals`);
  for (const l of doc.lines) {
    if (!isPlainDecimal(l.quantity) || !isPlainDecimal(l.unit_price) || isNegative(l.unit_price)) fail(`line ${l.id} needs a decimal quantity and a price that is not negative`);
    const net = mulDivToCurrency(l.quantity, l.unit_price);
    if (!equal(net, l.net_amount)) fail(`line ${l.id}: ${l.quantity} × ${l.unit_price} is ${net}, not ${l.net_amount}`);
    if (doc.vat_breakdown.filter((v) => sameRate(v, l)).length !== 1) fail(`line ${l.id}: ${l.vat_category} ${l.vat_percent} % needs exactly one VAT breakdown entry`);
  }
  const net = sumCurrency(doc.lines.map((l) => l.net_amount));
  if (!equal(net, doc.totals.net)) fail(`lines add up to ${net}, the net total is ${doc.totals.net}`);
  for (const v of doc.vat_breakdown) {
    const taxable = sumCurrency(doc.lines.filter((l) => sameRate(l, v)).map((l) => l.net_amount));
    if (!equal(taxable, v.taxable_amount)) fail(`lines of ${v.vat_category} ${v.vat_percent} % add up to ${taxable}, not ${v.taxable_amount}`);
    if (v.vat_category !== 'S' && !isZero(v.vat_percent)) fail(`category ${v.vat_category} has the rate 0 %, not ${v.vat_percent} %`);
    const vat = v.vat_category === 'S' ? vatOf(v.taxable_amount, v.vat_percent) : '0.00';
    if (!equal(vat, v.vat_amount)) fail(`the VAT of ${v.vat_category} ${v.vat_percent} % on ${v.taxable_amount} is ${vat}, not ${v.vat_amount}`);
  }
  const vat = sumCurrency(doc.vat_breakdown.map((v) => v.vat_amount));
  if (!equal(vat, doc.totals.vat)) fail(`the VAT breakdown adds up to ${vat}, the VAT total is ${doc.totals.vat}`);
  if (!equal(addCurrency(doc.totals.net, doc.totals.vat), doc.totals.gross)) fail('net + VAT is not the gross total');
  if (doc.tax_currency && sign(doc.tax_currency.vat_total) * sign(doc.totals.vat) < 0) fail('the VAT total in the VAT accounting currency has the other sign');
}
