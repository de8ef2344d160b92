// The sums a document must hold before it is written (EN 16931 BR-CO-10, BR-CO-13..15, BR-S-08):
// a model that does not add up is a defect of the service, never something to round away.
import { addCurrency, sumCurrency } from '../../money/decimal.ts';
import type { BillingDocument } from './billing-document.ts';

export function assertConsistent(doc: BillingDocument): void {
  const fail = (what: string) => { throw new Error(`billing document ${doc.number ?? 'draft'}: ${what}`); };
  const net = sumCurrency(doc.lines.map((l) => l.net_amount));
  if (net !== doc.totals.net) fail(`lines add up to ${net}, the net total is ${doc.totals.net}`);
  for (const v of doc.vat_breakdown) {
    const taxable = sumCurrency(doc.lines.filter((l) => l.vat_category === v.vat_category && l.vat_percent === v.vat_percent).map((l) => l.net_amount));
    if (taxable !== v.taxable_amount) fail(`lines of ${v.vat_category} ${v.vat_percent} % add up to ${taxable}, not ${v.taxable_amount}`);
  }
  const vat = sumCurrency(doc.vat_breakdown.map((v) => v.vat_amount));
  if (vat !== doc.totals.vat) fail(`the VAT breakdown adds up to ${vat}, the VAT total is ${doc.totals.vat}`);
  if (addCurrency(doc.totals.net, doc.totals.vat) !== doc.totals.gross) fail('net + VAT is not the gross total');
}
