// Billing document models for renderer tests: consistent sums, overridable parts.
import type { BillingDocument, DocumentLine } from '../../src/billing/document/billing-document.ts';

export const SELLER_PARTY = {
  name: 'Charge Co B.V.', address: { street: 'Stationsplein 1', postal_code: '3511 ED', city: 'Utrecht', country: 'NL' },
  vat_number: 'NL123456789B01', company_reg_num: '12345678', email: 'billing@charge.example',
  bank_account: { iban: 'NL91ABNA0417164300', bic: 'ABNANL2A', name: 'Charge Co B.V.' },
};

export const BUYER_PARTY = {
  name: 'Fleet B.V.', address: { street: 'Kade 2', postal_code: '1011 AA', city: 'Amsterdam', country: 'NL' },
  vat_number: 'NL987654321B01', company_reg_num: '87654321', email: 'ap@fleet.example',
};

export const line = (n: number, net: string, overrides: Partial<DocumentLine> = {}): DocumentLine => ({
  id: `line-${n}`, description: `Charging sessions ${n}`, quantity: net.startsWith('-') ? '-1' : '1', unit_code: 'C62',
  unit_price: net.replace('-', ''), net_amount: net, vat_category: 'S', vat_percent: '21.00', ...overrides,
});

/** An invoice with a 21 % line and a reverse-charge line (amounts add up). */
export function invoiceModel(overrides: Partial<BillingDocument> = {}): BillingDocument {
  return {
    kind: 'invoice', draft: false, number: 'INV-2026-000001', issue_date: '2026-11-02', due_date: '2026-11-16', currency: 'EUR', locale: 'en',
    period: { from: '2026-10-01', to: '2026-10-31' }, seller: SELLER_PARTY, buyer: BUYER_PARTY, buyer_reference: 'PO-1', customer_number: 'CUST-7',
    payment: { method: 'bank_transfer', terms: 'Payment within 14 days', mandate: null }, payment_reference: 'RF94INV2026000001',
    annex: [], logo: null,
    lines: [line(1, '100.00'), line(2, '50.00', { vat_category: 'AE', vat_percent: '0.00', description: 'Roaming' })],
    vat_breakdown: [
      { vat_category: 'AE', vat_percent: '0.00', taxable_amount: '50.00', vat_amount: '0.00', exemption_reason: 'Reverse charge' },
      { vat_category: 'S', vat_percent: '21.00', taxable_amount: '100.00', vat_amount: '21.00', exemption_reason: null },
    ],
    totals: { net: '150.00', vat: '21.00', gross: '171.00' },
    tax_currency: null,
    ...overrides,
  };
}
