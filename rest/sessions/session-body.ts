// The body of POST /charge-session and POST /cpo-charge-session: basic checks that reject a
// malformed or incomplete session with a 400 naming the field.
import * as yup from 'yup';
import { compareDecimal, isDecimalText, sumDecimal } from '../../src/money/decimal.ts';
import { ENERGY_KWH_BOUND } from '../../src/sessions/session-energy.ts';
import { DomainError } from '../../src/platform/errors.ts';
import { isTimeZone } from '../../src/pricing/local-time.ts';
import type { SessionSubmission } from '../../src/sessions/session-submission.ts';
import { submissionOf } from '../../src/sessions/session-submission.ts';
import { countryCode, text, timestamp } from '../../src/platform/input-schemas.ts';
import { isPartyId } from '../../src/platform/party-id.ts';
import { tariffSchema } from '../../src/ocpi/schemas/tariff.ts';
import type { Field } from '../rails/shape.ts';
import { toJsonSchema } from '../rails/yup-to-json-schema.ts';

const volume = () => yup.string().test('decimal', '${path} must be a non-negative decimal string such as "12.5" (at most 6 decimals)',
  (value) => value === undefined || (isDecimalText(value) && compareDecimal(value, '0') >= 0));

export const POWER_TYPES = ['ac_1phase', 'ac_2phase', 'ac_2phase_split', 'ac_3phase', 'dc'] as const;

/** Enumerations of the session feed, in any casing (OCPI senders write AUTH_REQUEST, CABLE, DC). */
const anyCase = (values: readonly string[]) => yup.string().test('one-of', `\${path} must be one of: ${values.join(', ')} (any casing)`,
  (value) => value === undefined || values.includes(value.toLowerCase()));

const dimension = yup.object({
  type: yup.string().defined('${path} is required').test('energy-only',
    '${path}: only the energy dimension is accepted (flat, time and parking_time dimensions are refused)',
    (value) => value === undefined || value.toLowerCase() === 'energy'),
  volume: volume().defined('${path} is required'),
});

const chargePeriod = yup.object({
  start_date_time: timestamp().defined('${path} is required'),
  dimensions: yup.array(dimension.defined()).min(1, '${path} must hold at least one dimension').max(20).defined('${path} is required'),
});

const common = {
  session_id: text().min(1).defined('${path} is required'),
  evco_id: text(64).min(1).defined('${path} is required'),
  start_date_time: timestamp().defined('${path} is required'),
  end_date_time: timestamp().defined('${path} is required'),
  total_energy_kwh: volume(),
  total_idle_seconds: yup.number().integer('${path} must be a whole number').min(0).max(31_622_400),
  charge_periods: yup.array(chargePeriod.defined()).max(1000, '${path} must hold at most ${max} periods')
    .test('energy-sum', `\${path}: the energy of the periods must sum to less than ${ENERGY_KWH_BOUND} kWh`, (periods) => {
      const volumes = (periods ?? []).flatMap((period) => period?.dimensions ?? []).map((dimension) => dimension?.volume);
      if (!volumes.every((v): v is string => typeof v === 'string' && isDecimalText(v))) return true; // each volume reports its own error
      return volumes.length === 0 || compareDecimal(sumDecimal(volumes), ENERGY_KWH_BOUND) < 0;
    }),
  time_zone: yup.string().defined('${path} is required').test('tz', '${path} must be an IANA time zone such as Europe/Amsterdam',
    (value) => value === undefined || isTimeZone(value)),
  address: yup.object({
    street: text(), city: text(), postal_code: text(32), country: countryCode().defined('${path} is required'),
  }).defined('${path} is required'),
  evse_id: text(64),
  connector_standard: text(64),
  connector_format: anyCase(['socket', 'cable']),
  power_type: anyCase([...POWER_TYPES, 'ac_1_phase', 'ac_2_phase', 'ac_2_phase_split', 'ac_3_phase']),
  max_power_kw: volume(),
  tariff_code: text(),
  auth_method: anyCase(['auth_request', 'command', 'whitelist']),
  auth_ref: text(),
  remark: text(1000),
};

/** A party id (`NL*TDR`); its country part must be an assigned code as well (src/platform/party-id.ts). */
const PARTY_SHAPE = /^[A-Za-z]{2}[*\- ]?[A-Za-z0-9]{3}$/;

export const chargeSessionBody = yup.object({
  ...common,
  cpo_id: text(16).defined('${path} is required').matches(PARTY_SHAPE, '${path} must be a party id: country code and three characters')
    .test('party-id-country', '${path} must start with an officially assigned country code', (value) => value === undefined || !PARTY_SHAPE.test(value) || isPartyId(value)),
  cpo_session_id: text(),
  cpo_cdr_id: text(),
  roaming_connection_id: text(),
  roaming_protocol: text(32),
  invoice_reference_id: text(),
  total_roaming_amount_excl_vat: volume(),
  /** The roaming split of the public integration guide: stored and returned as reported. */
  total_roaming_flat_amount_excl_vat: volume(),
  total_roaming_energy_amount_excl_vat: volume(),
  total_roaming_time_amount_excl_vat: volume(),
  total_roaming_reservation_amount_excl_vat: volume(),
  total_roaming_amount_incl_vat: volume(),
  /** The currency of the reported amounts (an OCPI CDR's): processing compares it with the administration's, there is no conversion. */
  currency: yup.string().matches(/^[A-Z]{3}$/, '${path} must be an ISO 4217 currency code').meta({
    description: 'The currency of the amounts the session reports (an OCPI CDR\'s currency). Absent: those of its administration. '
      + 'Another than its administration\'s drops the session out at processing (currency_mismatch); amounts are never converted.',
  }),
  historical_tariff: yup.object().test('tariff', '${path} must be an OCPI tariff object', (v) => v === undefined || (typeof v === 'object' && v !== null))
    .meta({ jsonSchema: { ...tariffSchema, description: 'An OCPI 2.2.1 Tariff: the CPO cost when the session states no amount. One that does not conform drops the session out at processing (historical_tariff_invalid).' } }),
  /** Deprecated names (v3.50.0), still accepted. */
  roaming_connection: text(),
  total_cost_excl_vat: volume(),
  total_cost_incl_vat: volume(),
});

export const cpoChargeSessionBody = yup.object({
  ...common,
  evse_uid: text(64).min(1).defined('${path} is required'),
  cpo_id: text(16),
  /** Matching: the location and connector the CPMS names (optional; the EVSE's location and connector decide). */
  location_id: text(64),
  connector_id: text(36),
  /** What a plan in mode cpms_supplied reimburses. */
  total_reimbursement_amount_excl_vat: volume(),
  /** What the CPO charges the driver's MSP (a roaming partner) as the CPMS reports it; `total_sales_amount_excl_vat` is its deprecated name. */
  total_roaming_amount_excl_vat: volume(),
  total_sales_amount_excl_vat: volume(),
});

type Body = yup.InferType<typeof chargeSessionBody> & { evse_uid?: string };

/** The checked body as the pipeline reads it (src/sessions/session-submission.ts); null when it reports no energy. */
export function submissionFrom(source: SessionSubmission['source'], body: Body, raw: Record<string, unknown>): SessionSubmission | null {
  return submissionOf(source, body, raw);
}

/** The submission of a checked body; one that reports no energy is refused. */
export function requiredSubmission(source: SessionSubmission['source'], body: Body, raw: Record<string, unknown>): SessionSubmission {
  const submission = submissionOf(source, body, raw);
  if (!submission) throw new DomainError('validation_failed', 'total_energy_kwh is required when there are no charge_periods', { path: ['total_energy_kwh'] });
  return submission;
}

/**
 * A session's body as received (GET /msp-charge-session-original): the body of POST /charge-session
 * or of POST /cpo-charge-session, with any member the endpoint did not know kept as it came.
 */
export const chargeSessionBodyAsReceived: Field<Record<string, unknown>> = {
  toJsonSchema: (components) => components.ref('ChargeSessionBodyAsReceived', chargeSessionBodyAsReceived, () => ({
    description: 'The request body as received: that of POST /charge-session (source charge_session) or POST /cpo-charge-session '
      + '(source cpo_charge_session); members the endpoint did not know are kept as they came.',
    anyOf: [chargeSessionBody, cpoChargeSessionBody].map((body) => asReceived({ ...toJsonSchema(body), additionalProperties: true })),
  })),
};

/**
 * What the body schema says of values as they were received: timestamps as the sender wrote them
 * (any RFC 3339 offset), and an OCPI tariff as the sender sent it (processing checks it).
 */
function asReceived(schema: Record<string, unknown>): Record<string, unknown> {
  const properties = schema.properties as Record<string, Record<string, unknown>>;
  const walk = (node: unknown): unknown => {
    if (Array.isArray(node)) return node.map(walk);
    if (!node || typeof node !== 'object') return node;
    const copy = Object.fromEntries(Object.entries(node).map(([key, value]) => [key, walk(value)])) as Record<string, unknown>;
    if (copy.format === 'date-time') {
      delete copy.format;
      copy.description = 'A timestamp as the sender wrote it (RFC 3339).';
    }
    return copy;
  };
  const result = walk(schema) as Record<string, unknown>;
  if (properties.historical_tariff) {
    (result.properties as Record<string, unknown>).historical_tariff = {
      type: 'object', additionalProperties: true,
      description: 'The OCPI tariff as the sender sent it (one that is not an OCPI 2.2.1 Tariff drops the session out: historical_tariff_invalid).',
    };
  }
  return result;
}
