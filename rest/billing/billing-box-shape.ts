// The billing box representation (REST): the spec's fields, decisions.md's additions and the
// deprecated aliases (rollup_method, preferred_locale_ids).
import { iso } from '../../src/platform/input-schemas.ts';
import type { BoxData, RollupData } from '../../src/billing/billing-box.queries.ts';
import { representation, t, type Infer } from '../rails/shape.ts';

export const rollupShape = representation('BillingRollup', {
  id: t.string(),
  context: t.nullable(t.string()),
  product_category: t.string(),
  vat_kind: t.string(),
  vat_percentage: t.decimal(),
  group_value: t.nullable(t.string()),
  period_from: t.timestamp(),
  period_until: t.timestamp(),
  volume: t.map(t.decimal(), 'Volume billed per unit (the units of the items: kWh, min, a custom item\'s unit ...).'),
  item_count: t.integer(),
  subtotal_excl_vat: t.decimal(),
  vat_amount: t.decimal(),
  subtotal_incl_vat: t.decimal(),
  average_amount_per_kwh_excl_tax: t.nullable(t.decimal()),
});

const vatLineShape = t.object({
  vat_kind: t.string(), vat_category: t.string(), vat_percentage: t.decimal(), taxable_amount: t.decimal(), vat_amount: t.decimal(),
});

export const boxShape = representation('BillingBox', {
  id: t.string(),
  admin_id: t.string(),
  state: t.string('open, closed, approved, ready or finalized'),
  deferred: t.boolean(),
  transferred: t.boolean(),
  party_kind: t.string(),
  party_id: t.string(),
  party_external_reference: t.nullable(t.string()),
  period_from: t.timestamp(),
  period_until: t.timestamp(),
  vat_country: t.string(),
  currency_code: t.string(),
  locale_id: t.nullable(t.string()),
  preferred_locale_ids: t.array(t.string()),
  billing_reference: t.nullable(t.string()),
  payment_method: t.nullable(t.string()),
  payment_period: t.nullable(t.integer('days')),
  negate_document_amounts: t.boolean(),
  billing_series_code: t.string(),
  billing_series_external_reference: t.nullable(t.string()),
  billing_series_id: t.string(),
  billing_reviewset_code: t.string(),
  billing_reviewset_id: t.string(),
  billing_box_reviewset_sequence: t.integer(),
  box_distinct_code: t.nullable(t.string()),
  rollup_group_by: t.string(),
  rollup_method: t.string(),
  rollups: t.array(rollupShape),
  total_amount_excl_vat: t.decimal(),
  total_vat_amount: t.decimal(),
  total_amount_incl_vat: t.decimal(),
  vat_breakdown: t.array(vatLineShape),
  foreign_currency_totals: t.nullable(t.object({ currency: t.string(), rate: t.decimal(), total_vat_amount: t.decimal() })),
  document_kind: t.nullable(t.string()),
  invoice_code: t.nullable(t.string()),
  invoice_date: t.nullable(t.string()),
  documents: t.array(t.object({ filename: t.string(), content_type: t.string(), size: t.integer(), primary: t.boolean(), draft: t.boolean() })),
  created_at: t.timestamp(),
  updated_at: t.timestamp(),
});

export function serializeRollup(r: RollupData, box: BoxData): Infer<typeof rollupShape> {
  return {
    id: r.id, context: r.context, product_category: r.productCategory, vat_kind: r.vatKind, vat_percentage: r.vatPercent,
    group_value: r.groupValue, period_from: iso(box.periodFrom), period_until: iso(box.periodUntil), volume: r.volume,
    item_count: r.itemCount, subtotal_excl_vat: r.net, vat_amount: r.vatAmount, subtotal_incl_vat: r.inclVat,
    average_amount_per_kwh_excl_tax: r.averageAmountPerKwhExclVat,
  };
}

export function serializeBox(b: BoxData): Infer<typeof boxShape> {
  return {
    id: b.id, admin_id: b.adminId, state: b.state, deferred: b.deferred, transferred: b.transferred, party_kind: b.partyKind,
    party_id: b.partyId, party_external_reference: b.partyExternalReference, period_from: iso(b.periodFrom), period_until: iso(b.periodUntil),
    vat_country: b.vatCountry, currency_code: b.currency, locale_id: b.localeId, preferred_locale_ids: b.localeId ? [b.localeId] : [],
    billing_reference: b.billingReference, payment_method: b.paymentMethod, payment_period: b.paymentPeriodDays,
    negate_document_amounts: b.negateDocumentAmounts, billing_series_code: b.seriesCode, billing_series_external_reference: b.seriesExternalReference,
    billing_series_id: b.seriesId, billing_reviewset_code: b.reviewSetCode, billing_reviewset_id: b.reviewSetId,
    billing_box_reviewset_sequence: b.reviewSetSequence, box_distinct_code: b.distinctCode || null, rollup_group_by: b.rollupGroupBy,
    rollup_method: b.rollupGroupBy, rollups: b.rollups.map((r) => serializeRollup(r, b)),
    total_amount_excl_vat: b.totals.totalExclVat, total_vat_amount: b.totals.totalVat, total_amount_incl_vat: b.totals.totalInclVat,
    vat_breakdown: b.totals.vatBreakdown.map((v) => ({
      vat_kind: v.vatKind, vat_category: v.vatCategory, vat_percentage: v.vatPercent, taxable_amount: v.taxableAmount, vat_amount: v.vatAmount,
    })),
    foreign_currency_totals: b.foreignCurrencyTotals
      ? { currency: b.foreignCurrencyTotals.currency, rate: b.foreignCurrencyTotals.rate, total_vat_amount: b.foreignCurrencyTotals.totalVat } : null,
    document_kind: b.documentKind, invoice_code: b.invoiceCode, invoice_date: b.invoiceDate,
    documents: b.documents.map((d) => ({ filename: d.filename, content_type: d.contentType, size: d.size, primary: d.primary, draft: d.draft })),
    created_at: iso(b.createdAt), updated_at: iso(b.updatedAt),
  };
}
