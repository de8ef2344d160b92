// The `billing` part of a setup file: per administration its billing settings, series and
// product categories. Keys: the administration, a series' code, a category's code. A record
// already holding the file's values is not written. A built-in category's code is refused.
import { getBillingSettings } from '../billing/billing-settings.queries.ts';
import { saveBillingSettings } from '../billing/billing-settings.service.ts';
import { createSeries, updateSeries } from '../billing/billing-series.service.ts';
import { BillingSeries } from '../billing/billing-series.entity.ts';
import { isBuiltInCategory, ProductCategory } from '../billing/product-category.entity.ts';
import { createProductCategory } from '../billing/product-category.service.ts';
import type { Em } from '../platform/orm.ts';
import type { FieldPath } from '../platform/field-path.ts';
import type { KindCount, SetupFile } from './setup-file.ts';

export interface BillingReport { billing_settings: KindCount; billing_series: KindCount; product_categories: KindCount }

type At = <T>(path: FieldPath, work: () => Promise<T>) => Promise<T>;

const canonical = (value: unknown): string => JSON.stringify(value, (_key, v) => (v && typeof v === 'object' && !Array.isArray(v)
  ? Object.fromEntries(Object.entries(v).filter(([, x]) => x !== undefined).sort(([a], [b]) => a.localeCompare(b))) : v));

export const emptyBillingReport = (): BillingReport => ({
  billing_settings: { created: 0, updated: 0, unchanged: 0 },
  billing_series: { created: 0, updated: 0, unchanged: 0 },
  product_categories: { created: 0, updated: 0, unchanged: 0 },
});

export async function applyBilling(em: Em, file: SetupFile, report: BillingReport, at: At): Promise<void> {
  for (const [i, b] of (file.billing ?? []).entries()) {
    const path = ['billing', i];
    const current = await at(path, () => getBillingSettings(em, b.admin_id));
    const wanted = {
      ...current,
      ...(b.time_zone != null ? { timeZone: b.time_zone } : {}),
      ...(b.invoicing_period != null ? { invoicingPeriod: b.invoicing_period } : {}),
      ...(b.payment_methods != null ? { paymentMethods: b.payment_methods } : {}),
      ...(b.default_payment_method != null ? { defaultPaymentMethod: b.default_payment_method } : {}),
      ...(b.payment_term_days != null ? { paymentTermDays: b.payment_term_days } : {}),
      ...(b.locale_id !== undefined ? { localeId: b.locale_id } : {}),
      ...(b.vat_accounting_currency !== undefined ? { vatAccountingCurrency: b.vat_accounting_currency } : {}),
      ...(b.seller ? { seller: { ...current.seller, ...b.seller } } : {}),
    };
    if (canonical(wanted) === canonical(current)) {
      report.billing_settings.unchanged++;
    } else {
      await at(path, () => saveBillingSettings(em, b.admin_id, {
        timeZone: wanted.timeZone, invoicingPeriod: wanted.invoicingPeriod, paymentMethods: wanted.paymentMethods as string[],
        defaultPaymentMethod: wanted.defaultPaymentMethod, paymentTermDays: wanted.paymentTermDays, localeId: wanted.localeId,
        vatAccountingCurrency: wanted.vatAccountingCurrency, seller: wanted.seller,
      }));
      report.billing_settings.updated++;
    }
    for (const [j, s] of (b.series ?? []).entries()) {
      const sPath = [...path, 'series', j];
      const input = {
        code: s.code, name: s.name ?? null, externalReference: s.external_reference ?? null, primaryDocumentType: s.primary_document_type ?? 'invoice',
        documentSource: s.document_source ?? 'service', itemSources: (s.item_sources ?? []) as string[],
      };
      const existing = await em.findOne(BillingSeries, { admin: b.admin_id, code: s.code });
      if (!existing) {
        await at(sPath, () => createSeries(em, { ...input, adminId: b.admin_id }));
        report.billing_series.created++;
      } else if (canonical({ ...input, code: existing.code }) === canonical({
        code: existing.code, name: existing.name ?? null, externalReference: existing.externalReference ?? null,
        primaryDocumentType: existing.primaryDocumentType, documentSource: existing.documentSource, itemSources: existing.itemSources,
      })) {
        report.billing_series.unchanged++;
      } else {
        await at(sPath, () => updateSeries(em, existing.id, input));
        report.billing_series.updated++;
      }
    }
    for (const [j, c] of (b.product_categories ?? []).entries()) {
      const cPath = [...path, 'product_categories', j];
      // A built-in category is no entry of the file: the service refuses its code (as POST
      // /billing-product-category does), whether or not the administration has its rows yet.
      const existing = isBuiltInCategory(c.code.toLowerCase()) ? null : await em.findOne(ProductCategory, { admin: b.admin_id, code: c.code });
      if (!existing) {
        await at(cPath, () => createProductCategory(em, { adminId: b.admin_id, code: c.code, description: c.description }));
        report.product_categories.created++;
      } else if (existing.description === c.description) {
        report.product_categories.unchanged++;
      } else {
        existing.description = c.description;
        await em.flush();
        report.product_categories.updated++;
      }
    }
  }
}
