import * as yup from 'yup';
import { getBillingSettings } from '../../src/billing/billing-settings.queries.ts';
import { saveBillingSettings } from '../../src/billing/billing-settings.service.ts';
import { createSeries, updateSeries } from '../../src/billing/billing-series.service.ts';
import { getSeries, seriesList, type SeriesData } from '../../src/billing/billing-series.queries.ts';
import { createProductCategory } from '../../src/billing/product-category.service.ts';
import { productCategoryList, type ProductCategoryData } from '../../src/billing/product-category.queries.ts';
import { countryCode, externalRef, iso, text } from '../../src/platform/input-schemas.ts';
import { setExchangeRate } from '../../src/billing/exchange-rate.service.ts';
import { exchangeRateList, type ExchangeRateData } from '../../src/billing/exchange-rate.queries.ts';
import { normalize } from '../../src/money/decimal.ts';
import { seekPage } from '../rails/pagination.ts';
import { defineRoute, type RouteDef } from '../rails/route.ts';
import { representation, t, type Infer } from '../rails/shape.ts';

const TAG = 'Billing configuration';

export const seriesShape = representation('BillingSeries', {
  id: t.string(),
  admin_id: t.string(),
  code: t.string(),
  name: t.nullable(t.string()),
  external_reference: t.nullable(t.string()),
  primary_document_type: t.string('invoice, debit_note, credit_note, purchase_order or self_billing_invoice'),
  document_source: t.string('service (the service renders the documents) or external (uploaded at finalize)'),
  item_sources: t.array(t.string()),
  negate_document_amounts: t.boolean(),
  created_at: t.timestamp(),
  updated_at: t.timestamp(),
});

const serializeSeries = (s: SeriesData): Infer<typeof seriesShape> => ({
  id: s.id, admin_id: s.adminId, code: s.code, name: s.name ?? null, external_reference: s.externalReference ?? null,
  primary_document_type: s.primaryDocumentType, document_source: s.documentSource, item_sources: s.itemSources,
  negate_document_amounts: s.negateDocumentAmounts, created_at: iso(s.createdAt), updated_at: iso(s.updatedAt),
});

const seriesBody = yup.object({
  admin_id: text(64).nullable(),
  code: text(20).nullable(),
  name: text().nullable(),
  external_reference: externalRef().nullable(),
  primary_document_type: text(32).nullable(),
  document_source: text(32).nullable(),
  item_sources: yup.array(text(64).defined()).max(20).nullable(),
});

const seriesInput = (b: yup.InferType<typeof seriesBody>) => ({
  adminId: b.admin_id, code: b.code, name: b.name, externalReference: b.external_reference, primaryDocumentType: b.primary_document_type,
  documentSource: b.document_source, itemSources: b.item_sources as string[] | null | undefined,
});

const categoryShape = representation('BillingProductCategory', {
  id: t.nullable(t.string()), admin_id: t.nullable(t.string()), code: t.string(), description: t.string(), built_in: t.boolean(),
});

const serializeCategory = (c: ProductCategoryData): Infer<typeof categoryShape> => ({
  id: c.id, admin_id: c.adminId, code: c.code, description: c.description, built_in: c.builtIn,
});

const sellerShape = t.object({
  name: t.nullable(t.string()), street: t.nullable(t.string()), postal_code: t.nullable(t.string()), city: t.nullable(t.string()),
  country: t.nullable(t.string()), vat_number: t.nullable(t.string()), company_reg_num: t.nullable(t.string()), email: t.nullable(t.string()),
  phone: t.nullable(t.string()), website: t.nullable(t.string()), iban: t.nullable(t.string()), bic: t.nullable(t.string()), bank_account_name: t.nullable(t.string()),
});

const settingsShape = representation('BillingSettings', {
  admin_id: t.string(),
  time_zone: t.string(),
  invoicing_period: t.string('month, quarter or year'),
  payment_methods: t.array(t.string()),
  default_payment_method: t.string(),
  payment_term_days: t.integer(),
  locale_id: t.nullable(t.string()),
  vat_accounting_currency: t.nullable(t.string()),
  seller: sellerShape,
});

const sellerBody = yup.object({
  name: text().nullable(), street: text().nullable(), postal_code: text(32).nullable(), city: text().nullable(), country: countryCode().nullable(),
  vat_number: text(32).nullable(), company_reg_num: text(64).nullable(), email: text(254).nullable(), phone: text(40).nullable(),
  website: text(200).nullable(), iban: text(34).nullable(),
  bic: text(11).nullable(), bank_account_name: text().nullable(),
}).default(undefined).nullable();

/** What the settings' period fields say: fixed once billing has started (src/billing/billing-settings.service.ts). */
const FIXED_ONCE_BILLED = 'Fixed once billing has started (the administration has a billing review-set): another value is 400 invalid_state at this member.';

const settingsBody = yup.object({
  time_zone: text(64).nullable().meta({ description: `The administration's IANA time zone, in which its invoicing periods are cut. ${FIXED_ONCE_BILLED}` }),
  invoicing_period: text(16).nullable().meta({ description: `month, quarter or year. ${FIXED_ONCE_BILLED}` }),
  payment_methods: yup.array(text(32).defined()).max(10).nullable(),
  default_payment_method: text(32).nullable(),
  payment_term_days: yup.number().integer('${path} must be a whole number').nullable(),
  locale_id: text(16).nullable(),
  vat_accounting_currency: text(3).nullable(),
  seller: sellerBody,
});

const rateShape = representation('BillingExchangeRate', {
  id: t.string(), admin_id: t.string(), currency: t.string(), date: t.string(), rate: t.decimal(), created_at: t.timestamp(),
});

const serializeRate = (r: ExchangeRateData): Infer<typeof rateShape> => ({
  id: r.id, admin_id: r.adminId, currency: r.currency, date: r.date, rate: normalize(r.rate), created_at: iso(r.createdAt),
});

export const billingConfigRoutes: RouteDef[] = [
  defineRoute({
    method: 'get', path: '/administration/:id/billing-exchange-rate', tag: TAG, extension: true, paged: true, response: rateShape,
    summary: "Daily rates to the administration's VAT accounting currency",
    handler: async ({ ctx, em, params, rawQuery }) => {
      await getBillingSettings(em, params.id);
      return seekPage(ctx, { list: exchangeRateList(em, params.id), rawQuery, path: ctx.path, serialize: serializeRate });
    },
  }),
  defineRoute({
    method: 'post', path: '/administration/:id/billing-exchange-rate', tag: TAG, graphql: 'setBillingExchangeRate', extension: true, response: rateShape,
    body: yup.object({ currency: text(3).nullable(), date: text(10).nullable(), rate: text(32).nullable() }),
    summary: 'Set the rate of a currency on a date: one unit of the administration\'s currency is `rate` units of `currency`',
    description: 'A box answers foreign_currency_totals (and its UBL the second VAT total) with the rate of its invoice date, '
      + 'or of the latest earlier date, when the administration names a vat_accounting_currency in its billing settings.',
    handler: async ({ em, params, body }) => serializeRate(await setExchangeRate(em, params.id, body)),
  }),
  defineRoute({
    method: 'get', path: '/billing-series', tag: TAG, paged: true, summary: 'List billing series', response: seriesShape,
    query: yup.object({ admin_id: text(64) }),
    handler: async ({ ctx, em, query, rawQuery }) => seekPage(ctx, { list: seriesList(em, { adminId: query.admin_id }), rawQuery, path: ctx.path, serialize: serializeSeries }),
  }),
  defineRoute({
    method: 'post', path: '/billing-series', tag: TAG, graphql: 'createBillingSeries', extension: true, body: seriesBody, response: seriesShape,
    summary: 'Create a billing series of an administration',
    description: 'item_sources names the item sources it bills (msp_session, msp_subscription_fee, custom); a series with none is the default. '
      + 'Sessions priced before the administration had a series are billed when its first series is created.',
    handler: async ({ em, body }) => serializeSeries(await createSeries(em, seriesInput(body))),
  }),
  defineRoute({
    method: 'get', path: '/billing-series/:id', tag: TAG, response: seriesShape,
    summary: 'Get a billing series (id, external reference, or ext_ref.<reference>)',
    handler: async ({ em, params }) => serializeSeries(await getSeries(em, params.id)),
  }),
  defineRoute({
    method: 'post', path: '/billing-series/:id', tag: TAG, graphql: 'updateBillingSeries', extension: true, body: seriesBody, response: seriesShape,
    summary: 'Merge-update a billing series (admin_id is fixed)',
    handler: async ({ em, body, params }) => serializeSeries(await updateSeries(em, params.id, seriesInput(body))),
  }),
  defineRoute({
    method: 'get', path: '/billing-product-category', tag: TAG, response: categoryShape, paged: true,
    summary: 'Product categories of the administrations the credential sees (the built-in charging, subscription_fee and custom included)',
    query: yup.object({ admin_id: text(64) }),
    handler: async ({ ctx, em, query, rawQuery }) =>
      seekPage(ctx, { list: productCategoryList(em, { adminId: query.admin_id }), rawQuery, path: ctx.path, serialize: serializeCategory }),
  }),
  defineRoute({
    method: 'post', path: '/billing-product-category', tag: TAG, graphql: 'createBillingProductCategory', extension: true, response: categoryShape,
    body: yup.object({ admin_id: text(64).nullable(), code: text(64).nullable(), description: text().nullable() }),
    summary: 'Create a product category of an administration',
    handler: async ({ em, body }) => serializeCategory(await createProductCategory(em, { adminId: body.admin_id, code: body.code, description: body.description })),
  }),
  defineRoute({
    method: 'get', path: '/administration/:id/billing-settings', tag: TAG, extension: true, response: settingsShape,
    summary: "An administration's billing settings (defaults until saved)",
    handler: async ({ em, params }) => serializeSettings(await getBillingSettings(em, params.id)),
  }),
  defineRoute({
    method: 'post', path: '/administration/:id/billing-settings', tag: TAG, graphql: 'updateBillingSettings', extension: true, body: settingsBody, response: settingsShape,
    summary: "Merge-update an administration's billing settings (time zone of invoicing periods, period, payment, seller's legal data)",
    handler: async ({ em, params, body }) => serializeSettings(await saveBillingSettings(em, params.id, {
      timeZone: body.time_zone, invoicingPeriod: body.invoicing_period, paymentMethods: body.payment_methods as string[] | null | undefined,
      defaultPaymentMethod: body.default_payment_method, paymentTermDays: body.payment_term_days, localeId: body.locale_id,
      vatAccountingCurrency: body.vat_accounting_currency,
      seller: body.seller as Record<string, string | null> | null | undefined,
    })),
  }),
];

function serializeSettings(s: Awaited<ReturnType<typeof getBillingSettings>>): Infer<typeof settingsShape> {
  return {
    admin_id: s.adminId, time_zone: s.timeZone, invoicing_period: s.invoicingPeriod, payment_methods: s.paymentMethods,
    default_payment_method: s.defaultPaymentMethod, payment_term_days: s.paymentTermDays, locale_id: s.localeId,
    vat_accounting_currency: s.vatAccountingCurrency, seller: s.seller,
  };
}

