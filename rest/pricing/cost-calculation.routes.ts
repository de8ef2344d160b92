import * as yup from 'yup';
import { compareDecimal, isDecimalText } from '../../src/money/decimal.ts';
import { checkedTimestamp } from '../../src/platform/timestamp.ts';
import { calculateCost } from '../../src/msp/cost-calculation.service.ts';
import { isTimeZone } from '../../src/pricing/local-time.ts';
import { VAT_KINDS, type VatKind } from '../../src/pricing/vat-rate.entity.ts';
import { defineRoute, type RouteDef } from '../rails/route.ts';
import { countryCode, oneOf, text, timestamp } from '../../src/platform/input-schemas.ts';
import { representation, t, type Infer } from '../rails/shape.ts';
import { RATE_COMPONENTS } from '../../src/pricing/rate-plan-definition.ts';

export const SUBTOTAL_KINDS = [...RATE_COMPONENTS, 'other', 'min_price_adjustment', 'max_price_adjustment'] as const;

/** One line of a price (src/pricing/price-session.ts Subtotal). */
export const subtotalFields = {
  kind: t.enum(SUBTOTAL_KINDS),
  component: t.optional(t.string('Subtotals of rule scripts: their component name.')),
  label: t.optional(t.string('Subtotals of rule scripts: their label.')),
  volume: t.decimal(),
  billed_volume: t.decimal(),
  step_size: t.nullable(t.decimal()),
  rate: t.decimal(),
  rate_unit: t.string(),
  amount_excl_vat_unrounded: t.decimal(),
  amount_excl_vat: t.decimal(),
  vat_percent: t.decimal(),
  vat_kind: t.enum(VAT_KINDS),
  vat_country: t.string(),
  vat_amount_unrounded: t.decimal(),
  vat_amount: t.decimal(),
  amount_incl_vat: t.decimal(),
};

/** Which rule of the rate plan version decided (index from 0; both null: the base rates). */
export const ruleShape = t.object({ name: t.nullable(t.string()), index: t.nullable(t.integer()) });

const costCalculationShape = representation('CostCalculation', {
  rate_plan_id: t.string(),
  rate_plan_version_id: t.string(),
  currency: t.string(),
  rule: ruleShape,
  vat_rate_id: t.nullable(t.string()),
  subtotals: t.array(representation('CostSubtotal', subtotalFields)),
  total_excl_vat: t.decimal(),
  total_vat: t.decimal(),
  total_incl_vat: t.decimal(),
  annotations: t.map(t.string(), 'Annotations by name: the names the rate plan\'s rule scripts and the pricing chose.'),
  explanation: t.array(t.string()),
});

const amount = () => yup.string().test('decimal', '${path} must be a non-negative decimal such as "12.5" (at most 6 decimals)', (value) => {
  return value === undefined || (isDecimalText(value) && compareDecimal(value, '0') >= 0);
});

const query = yup.object({
  rate_plan_id: yup.string(),
  plan_id: yup.string(),
  start_date_time: timestamp().required('${path} is required'),
  end_date_time: timestamp().required('${path} is required'),
  energy_kwh: amount().required('${path} is required'),
  country: countryCode().required('${path} is required'),
  time_zone: yup.string().required('${path} is required').test('tz', '${path} must be an IANA time zone such as Europe/Amsterdam', (v) => v === undefined || isTimeZone(v)),
  cpo_party_id: text(),
  tariff_code: text(),
  current_type: oneOf(['AC', 'DC'] as const),
  power_kw: amount(),
  parking_minutes: amount(),
  vat_kind: oneOf(VAT_KINDS),
  cpo_cost_excl_vat: amount(),
});

export const costCalculationRoutes: RouteDef[] = [
  defineRoute({
    method: 'get', path: '/msp-charge-cost-calculation', tag: 'MSP charge sessions', summary: 'Price a hypothetical session (stores nothing)',
    description: 'Exactly one of rate_plan_id and plan_id (a subscription plan: its rate plan). The rate plan version valid at '
      + 'start_date_time (the latest with valid_from <= start) and the VAT rate of country at the start apply; the first matching '
      + 'rule decides, its vat_kind (if any) wins over vat_kind (default standard). Rules match on the start in time_zone. '
      + 'Each subtotal (amount_excl_vat, VAT and amount_incl_vat) is rounded once; what the script of the deciding rule computes '
      + '(e.g. CPO price + 10 %, from cpo_cost_excl_vat) is an `other` subtotal with its component and label, its annotations are '
      + 'in annotations; a min/max session price shows as a min_price_adjustment/max_price_adjustment subtotal. parking_minutes '
      + 'may not exceed the session (its duration in whole seconds, rounded up, as total_idle_seconds at submission): 400 otherwise.',
    query, response: costCalculationShape,
    handler: async ({ em, query: q }): Promise<Infer<typeof costCalculationShape>> => {
      const result = await calculateCost(em, {
        ratePlanId: q.rate_plan_id, planId: q.plan_id, vatKind: (q.vat_kind ?? 'standard') as VatKind,
        session: {
          start: checkedTimestamp(q.start_date_time), end: checkedTimestamp(q.end_date_time), energyKwh: q.energy_kwh, parkingMinutes: q.parking_minutes,
          timeZone: q.time_zone, country: q.country.toUpperCase(), cpoPartyId: q.cpo_party_id, tariffCode: q.tariff_code,
          currentType: q.current_type as 'AC' | 'DC' | undefined, powerKw: q.power_kw, cpoCostExclVat: q.cpo_cost_excl_vat,
        },
      });
      return {
        rate_plan_id: result.ratePlan.id,
        rate_plan_version_id: result.ratePlanVersionId,
        currency: result.ratePlan.currency,
        rule: result.rule,
        vat_rate_id: result.vatRateId,
        subtotals: result.subtotals,
        total_excl_vat: result.total_excl_vat,
        total_vat: result.total_vat,
        total_incl_vat: result.total_incl_vat,
        annotations: result.annotations,
        explanation: result.explanation,
      };
    },
  }),
];
