// An administration's billing settings: merge-update (answering the settings as
// billing-settings.queries.ts reads them, defaults until saved). The time zone and the invoicing period
// are fixed once billing has started (assertPeriodsUnchanged).
import { UniqueConstraintViolationException } from '@mikro-orm/core';
import { visibleAdministration } from '../parties/customer-input.ts';
import { isCountryCode, refuseUnprefixedVatNumber } from '../platform/countries.ts';
import { refuseBlank } from '../platform/blank-text.ts';
import { DomainError, InvalidInputError } from '../platform/errors.ts';
import type { Em } from '../platform/orm.ts';
import { isTimeZone } from '../pricing/local-time.ts';
import { BillingSettings, EMPTY_SELLER_LEGAL, INVOICING_PERIODS, PAYMENT_METHODS, type InvoicingPeriod, type PaymentMethod, type SellerLegal } from './billing-settings.entity.ts';
import { getBillingSettings, type BillingSettingsData } from './billing-settings.queries.ts';
import { CURRENCY_RULE, isCentCurrency } from '../money/currency.ts';
import { lockFeeBilling } from './fee-lock.ts';

export interface BillingSettingsInput {
  timeZone?: string | null;
  invoicingPeriod?: string | null;
  paymentMethods?: string[] | null;
  defaultPaymentMethod?: string | null;
  paymentTermDays?: number | null;
  localeId?: string | null;
  vatAccountingCurrency?: string | null;
  seller?: Partial<SellerLegal> | null;
}

const isMethod = (value: string): value is PaymentMethod => (PAYMENT_METHODS as readonly string[]).includes(value);

const STARTED = 'select exists (select 1 from billing_review_set where admin_id = ?) as started';

/**
 * Billing has started once the administration has a review-set: its periods are cut in its time zone and
 * invoicing period. Another zone or length would cut periods overlapping those, and bill their fees again.
 * Under the fee lock: the period start, which makes the first review-sets, reads the settings after it.
 */
async function assertPeriodsUnchanged(tx: Em, adminId: string, field: 'time_zone' | 'invoicing_period', current: string): Promise<void> {
  await lockFeeBilling(tx, adminId);
  const [{ started }] = await tx.execute<{ started: boolean }[]>(STARTED, [adminId]);
  if (started) throw new DomainError('invalid_state', `billing has started (the administration has review-sets): ${field} stays ${current}`, { path: [field] });
}

export async function saveBillingSettings(em: Em, adminId: string, input: BillingSettingsInput): Promise<BillingSettingsData> {
  try {
    await applySettings(em, adminId, input);
  } catch (error) {
    // The first settings of an administration saved at once: the others find them stored, and merge into them.
    if (!(error instanceof UniqueConstraintViolationException)) throw error;
    await applySettings(em, adminId, input);
  }
  return getBillingSettings(em, adminId);
}

async function applySettings(em: Em, adminId: string, input: BillingSettingsInput): Promise<void> {
  await em.transactional(async (tx) => {
    const admin = await visibleAdministration(tx, adminId, null);
    const settings = (await tx.findOne(BillingSettings, { admin })) ?? tx.create(BillingSettings, {
      admin, invoicingPeriod: 'month', paymentMethods: ['bank_transfer'], defaultPaymentMethod: 'bank_transfer', paymentTermDays: 14,
      seller: { ...EMPTY_SELLER_LEGAL },
    });
    if (input.timeZone !== undefined) {
      if (!input.timeZone || !isTimeZone(input.timeZone)) throw new InvalidInputError('time_zone must be an IANA time zone', { path: ['time_zone'] });
      if (input.timeZone !== admin.timeZone) await assertPeriodsUnchanged(tx, admin.id, 'time_zone', admin.timeZone);
      admin.timeZone = input.timeZone;
    }
    if (input.invoicingPeriod !== undefined) {
      if (!input.invoicingPeriod || !(INVOICING_PERIODS as readonly string[]).includes(input.invoicingPeriod)) {
        throw new InvalidInputError(`invoicing_period must be one of ${INVOICING_PERIODS.join(', ')}`, { path: ['invoicing_period'] });
      }
      if (input.invoicingPeriod !== settings.invoicingPeriod) await assertPeriodsUnchanged(tx, admin.id, 'invoicing_period', settings.invoicingPeriod);
      settings.invoicingPeriod = input.invoicingPeriod as InvoicingPeriod;
    }
    if (input.paymentMethods !== undefined) {
      const methods = input.paymentMethods ?? ['bank_transfer'];
      const bad = methods.findIndex((m) => !isMethod(m));
      if (bad >= 0 || methods.length === 0) throw new InvalidInputError(`payment_methods must list some of ${PAYMENT_METHODS.join(', ')}`, { path: ['payment_methods', Math.max(bad, 0)] });
      settings.paymentMethods = methods as PaymentMethod[];
    }
    if (input.defaultPaymentMethod !== undefined) {
      if (!input.defaultPaymentMethod || !isMethod(input.defaultPaymentMethod)) {
        throw new InvalidInputError(`default_payment_method must be one of ${PAYMENT_METHODS.join(', ')}`, { path: ['default_payment_method'] });
      }
      settings.defaultPaymentMethod = input.defaultPaymentMethod;
    }
    if (input.paymentTermDays !== undefined) {
      const days = input.paymentTermDays ?? 14;
      if (!Number.isInteger(days) || days < 0 || days > 365) throw new InvalidInputError('payment_term_days must be 0 to 365', { path: ['payment_term_days'] });
      settings.paymentTermDays = days;
    }
    if (input.localeId !== undefined) settings.localeId = input.localeId;
    if (input.vatAccountingCurrency !== undefined) {
      if (input.vatAccountingCurrency !== null && !isCentCurrency(input.vatAccountingCurrency)) {
        throw new InvalidInputError(`vat_accounting_currency must be ${CURRENCY_RULE}`, { path: ['vat_accounting_currency'] });
      }
      settings.vatAccountingCurrency = input.vatAccountingCurrency;
    }
    if (input.seller !== undefined) {
      const merged: SellerLegal = input.seller === null ? { ...EMPTY_SELLER_LEGAL } : { ...EMPTY_SELLER_LEGAL, ...settings.seller };
      for (const [key, value] of Object.entries(input.seller ?? {})) {
        if (!(key in EMPTY_SELLER_LEGAL)) continue;
        // A member of white space only names nothing on an invoice (an empty seller name or IBAN failed EN 16931 BR-06, BR-50).
        refuseBlank(value, ['seller', key]);
        merged[key as keyof SellerLegal] = value ?? null;
      }
      refuseUnprefixedVatNumber(merged.vat_number, ['seller', 'vat_number']);
      if (merged.country && (!/^[A-Z]{2}$/.test(merged.country) || !isCountryCode(merged.country))) {
        throw new InvalidInputError('seller.country must be an officially assigned ISO 3166-1 alpha-2 code in upper case', { path: ['seller', 'country'] });
      }
      if (merged.website && !/^(https?:\/\/)?[A-Za-z0-9-]+(\.[A-Za-z0-9-]+)+(:\d+)?([/?#]\S*)?$/.test(merged.website)) {
        throw new InvalidInputError('seller.website must be a web address such as www.example.com or https://example.com/billing', { path: ['seller', 'website'] });
      }
      settings.seller = merged;
    }
    await tx.flush();
  });
}
