import { defineEntity, p } from '@mikro-orm/core';
import { adminScopeFilter } from '../access/admin-scope.ts';
import { createdAtProperty, updatedAtProperty } from '../platform/entity-properties.ts';
import { Administration } from '../parties/administration.entity.ts';

export const INVOICING_PERIODS = ['month', 'quarter', 'year'] as const;
export type InvoicingPeriod = (typeof INVOICING_PERIODS)[number];
export const PAYMENT_METHODS = ['bank_transfer', 'direct_debit', 'card', 'other'] as const;
export type PaymentMethod = (typeof PAYMENT_METHODS)[number];

/** The seller's legal data printed on documents. */
export interface SellerLegal {
  name: string | null;
  street: string | null;
  postal_code: string | null;
  city: string | null;
  country: string | null;
  vat_number: string | null;
  company_reg_num: string | null;
  email: string | null;
  /** Contact printed in the documents' header (with the e-mail). */
  phone: string | null;
  website: string | null;
  iban: string | null;
  bic: string | null;
  bank_account_name: string | null;
}

export const EMPTY_SELLER_LEGAL: SellerLegal = {
  name: null, street: null, postal_code: null, city: null, country: null, vat_number: null,
  company_reg_num: null, email: null, phone: null, website: null, iban: null, bic: null, bank_account_name: null,
};

/** Billing configuration of one administration (one row per administration; defaults until set). */
export const BillingSettingsSchema = defineEntity({
  name: 'BillingSettings',
  tableName: 'billing_settings',
  filters: adminScopeFilter('admin'),
  properties: {
    admin: () => p.oneToOne(Administration).primary().owner(),
    invoicingPeriod: p.enum(INVOICING_PERIODS).default('month'),
    paymentMethods: p.json<PaymentMethod[]>().onCreate(() => ['bank_transfer']),
    defaultPaymentMethod: p.enum(PAYMENT_METHODS).default('bank_transfer'),
    paymentTermDays: p.integer().default(14),
    localeId: p.string().nullable(),
    seller: p.json<SellerLegal>().onCreate(() => ({ ...EMPTY_SELLER_LEGAL })),
    /** VAT accounting currency (BT-6) and its daily rates, when documents need a second VAT total. */
    vatAccountingCurrency: p.string().length(3).nullable(),
    createdAt: createdAtProperty(),
    updatedAt: updatedAtProperty(),
  },
});

export class BillingSettings extends BillingSettingsSchema.class {}
BillingSettingsSchema.setClass(BillingSettings);
