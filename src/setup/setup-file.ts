// The format of `npm run cli -- setup apply <file.json>` (docs/setup.md), checked with yup so a
// failure names its place, e.g. rate_plans[0].versions[1].valid_from.
import * as yup from 'yup';
import { RECURRING_PERIODS } from '../msp/save-subscription-plan.service.ts';
import { RATE_COMPONENTS } from '../pricing/rate-plan-definition.ts';
import { parseTimestamp, TIMESTAMP_FORMAT } from '../platform/timestamp.ts';
import { VAT_KINDS } from '../pricing/vat-rate.entity.ts';

const timestamp = () => yup.string().test('timestamp', `\${path} must be ${TIMESTAMP_FORMAT}`,
  (v) => v === undefined || v === null || parseTimestamp(v) !== null);
const text = (max = 255) => yup.string().max(max, '${path} must be at most ${max} characters');
const oneOf = <T extends string>(values: readonly T[]) => yup.string().oneOf([...values], `\${path} must be one of: ${values.join(', ')}`);
const list = <T extends yup.Schema>(item: T) => yup.array(item.defined()).max(1000, '${path} must hold at most ${max} items');

export const setupFileSchema = yup.object({
  administrations: list(yup.object({
    id: text(63).required('${path} is required'),
    name: text().required('${path} is required'),
    currency: yup.string().matches(/^[A-Z]{3}$/, '${path} must be an ISO 4217 code').required('${path} is required'),
    country: yup.string().matches(/^[A-Za-z]{2}$/, '${path} must be a two-letter country code').required('${path} is required'),
    locale_id: text(32).nullable(),
  })),
  vat_rates: list(yup.object({
    country: yup.string().matches(/^[A-Za-z]{2}$/, '${path} must be a two-letter country code').required('${path} is required'),
    vat_kind: oneOf(VAT_KINDS).required('${path} is required'),
    percentage: yup.string().required('${path} is required'),
    valid_from: timestamp().required('${path} is required'),
    valid_until: timestamp().nullable(),
  })),
  rate_plans: list(yup.object({
    external_reference: text().required('${path} is required'),
    name: text().required('${path} is required'),
    currency: yup.string().matches(/^[A-Z]{3}$/, '${path} must be an ISO 4217 code').required('${path} is required'),
    admin_ids: list(text(63).defined()),
    versions: list(yup.object({
      valid_from: timestamp().required('${path} is required'),
      definition: yup.object().required('${path} is required'),
    })),
  })),
  subscription_plans: list(yup.object({
    external_reference: text().required('${path} is required'),
    admin_id: text(63).required('${path} is required'),
    name: text().required('${path} is required'),
    description: text(10000).nullable(),
    publish_from: timestamp().nullable(),
    publish_until: timestamp().nullable(),
    rate_plan_external_reference: text().nullable(),
    recurring_costs: list(yup.object({
      description: text().required('${path} is required'),
      amount_excl_vat: yup.string().required('${path} is required'),
      period: oneOf(RECURRING_PERIODS).required('${path} is required'),
    })),
    use_customer_reimbursement_vat: yup.boolean(),
    credit_excluded_components: list(oneOf(RATE_COMPONENTS)),
  })),
});

export type SetupFile = yup.InferType<typeof setupFileSchema>;
