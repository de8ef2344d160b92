// An administration's billing settings (REST: /administration/{id}/billing-settings): read (defaults
// until saved) and merge-update.
import * as yup from 'yup';
import { getBillingSettings, type BillingSettingsData } from '../../src/billing/billing-settings.queries.ts';
import { saveBillingSettings, type BillingSettingsInput as SettingsInput } from '../../src/billing/billing-settings.service.ts';
import type { SellerLegal } from '../../src/billing/billing-settings.entity.ts';
import { countryCode, text } from '../../src/platform/input-schemas.ts';
import { validate } from '../../src/platform/input-validation.ts';
import { builder } from '../builder.ts';
import { administrationKey } from '../ids.ts';
import { mutate } from '../mutation.ts';

/** The seller's members as GraphQL names them, and as the settings store them. */
const SELLER_MEMBERS = {
  name: 'name', street: 'street', postalCode: 'postal_code', city: 'city', country: 'country', vatNumber: 'vat_number',
  companyRegNum: 'company_reg_num', email: 'email', phone: 'phone', website: 'website', iban: 'iban', bic: 'bic', bankAccountName: 'bank_account_name',
} as const satisfies Record<string, keyof SellerLegal>;

type SellerField = keyof typeof SELLER_MEMBERS;

const BillingSeller = builder.objectRef<SellerLegal>('BillingSeller').implement({
  description: "The seller's legal data on the administration's documents.",
  fields: (t) => Object.fromEntries(Object.entries(SELLER_MEMBERS).map(([field, member]) =>
    [field, t.string({ nullable: true, resolve: (seller) => seller[member] ?? null })])) as Record<SellerField, ReturnType<typeof t.string>>,
});

const BillingSettings = builder.objectRef<BillingSettingsData>('BillingSettings').implement({
  description: "An administration's billing settings (REST: /administration/{id}/billing-settings); defaults until saved.",
  fields: (t) => ({
    adminId: t.exposeString('adminId'),
    timeZone: t.exposeString('timeZone', { description: 'The time zone of its invoicing periods.' }),
    invoicingPeriod: t.exposeString('invoicingPeriod', { description: 'month, quarter or year.' }),
    paymentMethods: t.exposeStringList('paymentMethods'),
    defaultPaymentMethod: t.exposeString('defaultPaymentMethod'),
    paymentTermDays: t.exposeInt('paymentTermDays'),
    localeId: t.string({ nullable: true, resolve: (s) => s.localeId }),
    vatAccountingCurrency: t.string({ nullable: true, resolve: (s) => s.vatAccountingCurrency }),
    seller: t.field({ type: BillingSeller, resolve: (s) => s.seller }),
  }),
});

const BillingSellerInput = builder.inputType('BillingSellerInput', {
  description: 'Merged into the stored seller: an absent field keeps its value, null clears it.',
  fields: (t) => Object.fromEntries(Object.keys(SELLER_MEMBERS).map((field) =>
    [field, t.string({ description: field === 'country' ? 'ISO 3166-1 alpha-2 country code, upper case.' : undefined })])) as Record<SellerField, ReturnType<typeof t.string>>,
});

const BillingSettingsInput = builder.inputType('BillingSettingsInput', {
  description: 'JSON Merge Patch semantics: an absent field keeps its value, null resets it to its default.',
  fields: (t) => ({
    timeZone: t.string({ description: 'An IANA time zone: Europe/Amsterdam. Fixed once billing has started (the administration has a billing review-set): '
      + 'another value is refused, invalid_state.' }),
    invoicingPeriod: t.string({ description: 'month, quarter or year. Fixed once billing has started (the administration has a billing review-set): '
      + 'another value is refused, invalid_state.' }),
    paymentMethods: t.stringList(),
    defaultPaymentMethod: t.string(),
    paymentTermDays: t.int({ description: '0 to 365.' }),
    localeId: t.string(),
    vatAccountingCurrency: t.string({ description: 'An ISO 4217 code; its daily rates: setBillingExchangeRate.' }),
    seller: t.field({ type: BillingSellerInput, description: 'null clears every member.' }),
  }),
});

/** What GraphQL types cannot say; the same rules as the REST body. */
const rules = yup.object({
  timeZone: text(64).nullable(), invoicingPeriod: text(16).nullable(), paymentMethods: yup.array(text(32).defined()).max(10).nullable(),
  defaultPaymentMethod: text(32).nullable(), localeId: text(16).nullable(), vatAccountingCurrency: text(3).nullable(),
  seller: yup.object({
    name: text().nullable(), street: text().nullable(), postalCode: text(32).nullable(), city: text().nullable(), country: countryCode().nullable(),
    vatNumber: text(32).nullable(), companyRegNum: text(64).nullable(), email: text(254).nullable(), phone: text(40).nullable(),
    website: text(200).nullable(), iban: text(34).nullable(), bic: text(11).nullable(), bankAccountName: text().nullable(),
  }).default(undefined).nullable(),
});

function settingsInput(input: typeof BillingSettingsInput.$inferInput): SettingsInput {
  validate(rules, input);
  const { seller, ...fields } = input;
  if (seller === undefined) return fields as SettingsInput;
  const stored = seller === null ? null : Object.fromEntries(Object.entries(seller)
    .filter(([, value]) => value !== undefined).map(([field, value]) => [SELLER_MEMBERS[field as SellerField], value]));
  return { ...fields, seller: stored } as SettingsInput;
}

builder.queryField('billingSettings', (t) => t.field({
  type: BillingSettings,
  description: "An administration's billing settings, defaults until saved (REST: GET /administration/{id}/billing-settings).",
  args: { adminId: t.arg.string({ required: true, description: 'Slug or global ID of the administration.' }) },
  resolve: (_root, args, context) => getBillingSettings(context.em, administrationKey(args.adminId)),
}));

builder.mutationField('updateBillingSettings', (t) => t.field({
  type: BillingSettings, nullable: true,
  description: "Merge-updates an administration's billing settings: time zone of invoicing periods, period, payment, the seller's legal data "
    + '(REST: POST /administration/{id}/billing-settings).',
  args: {
    adminId: t.arg.string({ required: true, description: 'Slug or global ID of the administration.' }),
    input: t.arg({ type: BillingSettingsInput, required: true }),
  },
  resolve: (_root, args, context) => mutate(context, 'input', (em) => saveBillingSettings(em, administrationKey(args.adminId), settingsInput(args.input))),
}));
