// An administration's billing settings (REST GET /administration/{id}/billing-settings, the setup
// file): the saved ones, defaults until saved.
import { visibleAdministration } from '../parties/customer-input.ts';
import type { Em } from '../platform/orm.ts';
import { BillingSettings, EMPTY_SELLER_LEGAL, type InvoicingPeriod, type PaymentMethod, type SellerLegal } from './billing-settings.entity.ts';

export interface BillingSettingsData {
  adminId: string;
  timeZone: string;
  invoicingPeriod: InvoicingPeriod;
  paymentMethods: PaymentMethod[];
  defaultPaymentMethod: PaymentMethod;
  paymentTermDays: number;
  localeId: string | null;
  vatAccountingCurrency: string | null;
  seller: SellerLegal;
}

export async function getBillingSettings(em: Em, adminId: string): Promise<BillingSettingsData> {
  const admin = await visibleAdministration(em, adminId, null);
  const s = await em.findOne(BillingSettings, { admin });
  return {
    adminId: admin.id, timeZone: admin.timeZone, invoicingPeriod: s?.invoicingPeriod ?? 'month', paymentMethods: s?.paymentMethods ?? ['bank_transfer'],
    defaultPaymentMethod: s?.defaultPaymentMethod ?? 'bank_transfer', paymentTermDays: s?.paymentTermDays ?? 14, localeId: s?.localeId ?? null,
    vatAccountingCurrency: s?.vatAccountingCurrency ?? null,
    seller: { ...EMPTY_SELLER_LEGAL, ...(s?.seller ?? {}) },
  };
}
