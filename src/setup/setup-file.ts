// The format of `npm run cli -- setup apply <file.json>` (docs/setup.md), checked with yup so a
// failure names its place, e.g. rate_plans[0].versions[1].valid_from.
import * as yup from 'yup';
import { RECURRING_PERIODS } from '../msp/save-subscription-plan.service.ts';
import { RATE_COMPONENTS } from '../pricing/rate-plan-definition.ts';
import { countryCode } from '../platform/input-schemas.ts';
import { parseTimestamp, TIMESTAMP_FORMAT } from '../platform/timestamp.ts';
import { VAT_KINDS } from '../pricing/vat-rate.entity.ts';
import { INVOICING_PERIODS, PAYMENT_METHODS } from '../billing/billing-settings.entity.ts';
import { DOCUMENT_SOURCES, PRIMARY_DOCUMENT_TYPES } from '../billing/billing-series.entity.ts';
import { currencyCode } from '../money/currency.ts';
import { DomainError } from '../platform/errors.ts';

const timestamp = () => yup.string().test('timestamp', `\${path} must be ${TIMESTAMP_FORMAT}`,
  (v) => v === undefined || v === null || parseTimestamp(v) !== null);
const text = (max = 255) => yup.string().max(max, '${path} must be at most ${max} characters');
const oneOf = <T extends string>(values: readonly T[]) => yup.string().oneOf([...values], `\${path} must be one of: ${values.join(', ')}`);
const list = <T extends yup.Schema>(item: T) => yup.array(item.defined()).max(1000, '${path} must hold at most ${max} items');
/** An object of the file: a member it does not know (a misspelled section or field) fails, naming it. */
const record = <S extends yup.ObjectShape>(shape: S) => yup.object(shape).noUnknown('${path} has a member the setup file does not know: ${unknown}');

export const setupFileSchema = record({
  administrations: list(record({
    id: text(63).required('${path} is required'),
    name: text().required('${path} is required'),
    currency: currencyCode().required('${path} is required'),
    country: countryCode().required('${path} is required'),
    locale_id: text(32).nullable(),
  })),
  vat_rates: list(record({
    country: countryCode().required('${path} is required'),
    vat_kind: oneOf(VAT_KINDS).required('${path} is required'),
    percentage: yup.string().required('${path} is required'),
    valid_from: timestamp().required('${path} is required'),
    valid_until: timestamp().nullable(),
  })),
  rate_plans: list(record({
    external_reference: text().required('${path} is required'),
    name: text().required('${path} is required'),
    currency: currencyCode().required('${path} is required'),
    admin_ids: list(text(63).defined()),
    versions: list(record({
      valid_from: timestamp().required('${path} is required'),
      definition: yup.object().required('${path} is required'),
    })),
  })),
  subscription_plans: list(record({
    external_reference: text().required('${path} is required'),
    admin_id: text(63).required('${path} is required'),
    name: text().required('${path} is required'),
    description: text(10000).nullable(),
    publish_from: timestamp().nullable(),
    publish_until: timestamp().nullable(),
    rate_plan_external_reference: text().nullable(),
    recurring_costs: list(record({
      description: text().required('${path} is required'),
      amount_excl_vat: yup.string().required('${path} is required'),
      period: oneOf(RECURRING_PERIODS).required('${path} is required'),
    })),
    use_customer_reimbursement_vat: yup.boolean(),
    credit_excluded_components: list(oneOf(RATE_COMPONENTS)),
  })),
  billing: list(record({
    admin_id: text(63).required('${path} is required'),
    time_zone: text(64).nullable(),
    invoicing_period: oneOf(INVOICING_PERIODS).nullable(),
    payment_methods: list(oneOf(PAYMENT_METHODS)).nullable(),
    default_payment_method: oneOf(PAYMENT_METHODS).nullable(),
    payment_term_days: yup.number().integer().min(0).max(365).nullable(),
    locale_id: text(32).nullable(),
    vat_accounting_currency: currencyCode().nullable(),
    seller: record({
      name: text().nullable(), street: text().nullable(), postal_code: text(32).nullable(), city: text().nullable(), country: countryCode().nullable(),
      vat_number: text(32).nullable(), company_reg_num: text(64).nullable(), email: text(254).nullable(), iban: text(34).nullable(),
      bic: text(11).nullable(), bank_account_name: text().nullable(),
    }).default(undefined).nullable(),
    series: list(record({
      code: text(20).required('${path} is required'),
      name: text().nullable(),
      external_reference: text().min(1, '${path} must not be empty (leave it out for none)').nullable(),
      primary_document_type: oneOf(PRIMARY_DOCUMENT_TYPES).nullable(),
      document_source: oneOf(DOCUMENT_SOURCES).nullable(),
      item_sources: list(text(64).defined()).nullable(),
    })),
    product_categories: list(record({
      code: text(64).required('${path} is required'),
      description: text().required('${path} is required'),
    })),
  })),
});

export type SetupFile = yup.InferType<typeof setupFileSchema>;

/** What applying a file did with the records of one kind (the report of `setup apply`). */
export interface KindCount { created: number; updated: number; unchanged: number }

const lower = (value: string | null | undefined) => (value ?? '').toLowerCase();

/** The first entry of `entries` whose key an earlier one had: its index, or -1. */
function repeated<T>(entries: readonly T[] | undefined, key: (entry: T) => string): number {
  const seen = new Set<string>();
  for (const [i, entry] of (entries ?? []).entries()) {
    const k = key(entry);
    if (seen.has(k)) return i;
    seen.add(k);
  }
  return -1;
}

/**
 * One entry per record: two entries of one key (an administration's id, a VAT rate's country, kind
 * and start, a rate plan version's start, ...) were both applied, the second undoing the first at every run, so a second run was
 * never without changes. The place of the second is named.
 */
export function assertNoRepeats(file: SetupFile): void {
  const check = <T>(entries: readonly T[] | undefined, key: (entry: T) => string, path: (string | number)[]) => {
    const i = repeated(entries, key);
    const place = [...path, i].map((part) => (typeof part === 'number' ? `[${part}]` : `.${part}`)).join('').slice(1);
    if (i >= 0) throw new DomainError('validation_failed', `${place} repeats an earlier entry: one entry per record`, { path: [...path, i] });
  };
  check(file.administrations, (a) => lower(a.id), ['administrations']);
  check(file.vat_rates, (v) => `${lower(v.country)}|${v.vat_kind}|${parseTimestamp(v.valid_from)?.getTime()}`, ['vat_rates']);
  check(file.rate_plans, (p) => lower(p.external_reference), ['rate_plans']);
  for (const [i, plan] of (file.rate_plans ?? []).entries()) {
    check(plan.versions, (v: { valid_from: string }) => String(parseTimestamp(v.valid_from)?.getTime()), ['rate_plans', i, 'versions']);
  }
  check(file.subscription_plans, (p) => lower(p.external_reference), ['subscription_plans']);
  check(file.billing, (b) => lower(b.admin_id), ['billing']);
  for (const [i, billing] of (file.billing ?? []).entries()) {
    check(billing.series, (s: { code: string }) => lower(s.code), ['billing', i, 'series']);
    check(billing.product_categories, (c: { code: string }) => lower(c.code), ['billing', i, 'product_categories']);
  }
}
