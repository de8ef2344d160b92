// The representations of charge sessions, pricing results and drop-out cases (session-serializers.ts returns them).
import { OCPI_PROGRESS_STATUSES } from '../../src/sessions/session-progress.queries.ts';
import { SESSION_SOURCES, SESSION_STATUSES } from '../../src/sessions/charge-session.entity.ts';
import { DROPOUT_STATUSES, REPROCESS_INSTRUCTIONS } from '../../src/sessions/dropout-case.entity.ts';
import { ruleShape, SUBTOTAL_KINDS, subtotalFields } from '../pricing/cost-calculation.routes.ts';
import { errorShape } from '../rails/error-shape.ts';
import { representation, t } from '../rails/shape.ts';
import { reportedAddressShape, reportedChargePeriodShape } from './reported-shapes.ts';
import { chargeSessionBodyAsReceived } from './session-body.ts';

const reportedText = () => t.nullable(t.string());
const roamingAmount = () => t.nullable(t.decimal());

export const chargeSessionShape = representation('ChargeSession', {
  id: t.string(),
  source: t.enum(SESSION_SOURCES),
  session_id: t.string(),
  status: t.enum(SESSION_STATUSES),
  admin_id: t.nullable(t.string()),
  customer_id: t.nullable(t.string()),
  subscription_id: t.nullable(t.string()),
  token_evco_id: t.string(),
  cpo_id: t.nullable(t.string()),
  cpo_session_id: t.string('The CPO\'s id of the session: cpo_session_id as reported, else session_id.'),
  cpo_cdr_id: reportedText(),
  connector_standard: reportedText(),
  connector_format: reportedText(),
  time_zone: t.string(),
  address: reportedAddressShape,
  evse_id: t.nullable(t.string()),
  evse_uid: t.nullable(t.string()),
  start_date_time: t.timestamp(),
  end_date_time: t.timestamp(),
  total_energy_kwh: t.decimal(),
  total_idle_seconds: t.integer(),
  total_roaming_amount_excl_vat: roamingAmount(),
  total_roaming_flat_amount_excl_vat: roamingAmount(),
  total_roaming_energy_amount_excl_vat: roamingAmount(),
  total_roaming_time_amount_excl_vat: roamingAmount(),
  total_roaming_reservation_amount_excl_vat: roamingAmount(),
  total_roaming_amount_incl_vat: roamingAmount(),
  calculated_roaming_amount_excl_vat: t.nullable(t.decimal()),
  calculated_roaming_amount_incl_vat: t.nullable(t.decimal()),
  roaming_agreement_id: t.nullable(t.string('The roaming agreement the calculation used (null for a provider-facilitated connection).')),
  remark: reportedText(),
  received_at: t.timestamp(),
  pricing_version: t.integer(),
  dropout_case_id: t.nullable(t.string()),
  dropout_reason: t.nullable(t.string()),
  dropout_message: t.nullable(t.string()),
  updated_at: t.timestamp(),
});

export const cpoChargeSessionShape = representation('CpoChargeSession', {
  ...chargeSessionShape.fields,
  tariff_code: reportedText(),
  charge_periods: t.array(reportedChargePeriodShape),
  total_reimbursement_amount_excl_vat: t.nullable(t.decimal()),
  total_sales_amount_excl_vat: t.nullable(t.decimal()),
  roaming_partner_id: t.nullable(t.string('The roaming partner (MSP) whose driver charged: it is billed the roaming amount.')),
  roaming_amount_difference: t.nullable(t.string('Reported and calculated roaming amounts excl. VAT differ by more than 0.01.')),
  location_id: t.nullable(t.string('The location matching found.')),
  connector_id: t.nullable(t.string('The connector matching found (null when the EVSE has several and the session names none).')),
  match_attempts: t.integer(),
  next_match_attempt_at: t.nullable(t.timestamp()),
}, 'total_sales_amount_excl_vat is the deprecated alias of total_roaming_amount_excl_vat (what the CPO charges the driver\'s MSP, as reported).');

export const originalSessionShape = representation('ChargeSessionOriginal', {
  id: t.string(),
  source: t.enum(SESSION_SOURCES),
  received_at: t.timestamp(),
  body: chargeSessionBodyAsReceived,
});

export const sessionProgressShape = representation('ChargeSessionProgress', {
  id: t.string(),
  session_status: t.enum([...SESSION_STATUSES, ...OCPI_PROGRESS_STATUSES]),
  total_energy_kwh: t.decimal(),
  last_update: t.timestamp(),
  evse_id: t.nullable(t.string()),
});

export const sessionReceiptShape = representation('ChargeSessionReceipt', {
  id: t.string(),
  status: t.enum(SESSION_STATUSES),
  received_at: t.timestamp(),
  duplicate: t.boolean(),
});

export const sessionBatchShape = representation('ChargeSessionBatchResult', {
  results: t.array(t.oneOf(sessionReceiptShape, errorShape)),
}, 'One result per session of the request, in its order: the ChargeSessionReceipt POST /charge-session answers, or the Error it '
  + 'answers (400), its param below the session (`$[3].total_energy_kwh`).');

const sessionSubtotalShape = representation('SessionSubtotal', {
  ...subtotalFields,
  kind: t.enum([...SUBTOTAL_KINDS, 'monetary_credit']),
  rate_label: t.string(),
  rate_represent_as_percentage: t.boolean(),
});

export const pricingResultShape = representation('PricingResult', {
  id: t.string(),
  charge_session_id: t.string(),
  version: t.integer(),
  admin_id: t.string(),
  customer_id: t.string(),
  currency_code: t.string(),
  token_evco_id: t.string(),
  subscription_id: t.string(),
  subscription_external_reference: t.nullable(t.string()),
  roaming_agreement: t.nullable(t.object({
    id: t.string(), external_reference: t.nullable(t.string()), connection_id: t.string(), partner_id: t.string(), role: t.string('Our role in the agreement.'),
  }, 'The roaming agreement that applied when this version was priced.')),
  cpo_session_id: t.string(),
  rate_plan_id: t.string(),
  rate_plan_version_id: t.string(),
  rule: ruleShape,
  subtotals: t.array(sessionSubtotalShape),
  total_excl_vat: t.decimal(),
  total_vat: t.decimal(),
  total_incl_vat: t.decimal(),
  monetary_credit_used: t.decimal(),
  annotations: t.map(t.string(), 'Annotations by name: the names the rate plan\'s rule scripts and the pricing chose.'),
  explanation: t.array(t.string()),
  created_at: t.timestamp(),
});

export const dropoutCaseShape = representation('DropoutCase', {
  id: t.string(),
  admin_id: t.nullable(t.string()),
  reason: t.string(),
  message: t.string(),
  status: t.enum(DROPOUT_STATUSES),
  session_count: t.integer(),
  resolution: t.nullable(t.enum(REPROCESS_INSTRUCTIONS)),
  resolved_at: t.nullable(t.timestamp()),
  created_at: t.timestamp(),
  updated_at: t.timestamp(),
});

export const cpoDropoutCaseShape = representation('CpoDropoutCase', {
  ...dropoutCaseShape.fields,
  evse_uid: t.nullable(t.string('The EVSE the sessions name.')),
});
