// What billing needs of an administration: country, currency, time zone, invoicing period and
// its billing settings (defaults when none were saved).
import type { Em } from '../platform/orm.ts';
import { EMPTY_SELLER_LEGAL, type InvoicingPeriod, type SellerLegal } from './billing-settings.entity.ts';

export interface BillingAdmin {
  adminId: string;
  name: string;
  country: string;
  currency: string;
  timeZone: string;
  kind: InvoicingPeriod;
  localeId: string | null;
  paymentTermDays: number;
  defaultPaymentMethod: string;
  seller: SellerLegal;
}

const SELECT = `select a.id, a.name, a.country, a.currency, a.time_zone, a.locale_id as admin_locale, bs.invoicing_period,
    bs.locale_id, bs.payment_term_days, bs.default_payment_method, bs.seller
  from administration a left join billing_settings bs on bs.admin_id = a.id where a.id = ?`;

export async function billingAdmin(em: Em, adminId: string): Promise<BillingAdmin> {
  const [row] = await em.execute<Record<string, any>[]>(SELECT, [adminId]);
  if (!row) throw new Error(`administration ${adminId} does not exist`);
  return {
    adminId: row.id, name: row.name, country: row.country, currency: row.currency, timeZone: row.time_zone,
    kind: row.invoicing_period ?? 'month', localeId: row.locale_id ?? row.admin_locale ?? null,
    paymentTermDays: row.payment_term_days ?? 14, defaultPaymentMethod: row.default_payment_method ?? 'bank_transfer',
    seller: { ...EMPTY_SELLER_LEGAL, ...(row.seller ?? {}) },
  };
}
