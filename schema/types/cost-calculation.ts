import * as yup from 'yup';
import { compareDecimal, isDecimalText } from '../../src/money/decimal.ts';
import { DomainError } from '../../src/platform/errors.ts';
import { calculateCost, type CostCalculation as CostCalculationResult } from '../../src/msp/cost-calculation.service.ts';
import { isTimeZone } from '../../src/pricing/local-time.ts';
import type { Subtotal } from '../../src/pricing/price-session.ts';
import { countryCode, text } from '../../src/platform/input-schemas.ts';
import { validate } from '../../src/platform/input-validation.ts';
import { builder } from '../builder.ts';
import { EMBEDDED_VALUE } from '../query-cost.ts';
import { inArgument } from '../errors.ts';
import { refFromArg } from '../ids.ts';
import { DateTime } from './date-time.ts';
import { RatePlanVersion } from './rate-plan-version.ts';
import { RatePlan } from './rate-plan.ts';
import { VatKind, VatRate } from './vat-rate.ts';

const CurrentType = builder.enumType('CurrentType', { values: ['AC', 'DC'] as const });

export const CostCalculationRule = builder.objectRef<{ name: string; index: number }>('CostCalculationRule').implement({
  description: 'The rule of the rate plan version that decided the session.',
  fields: (t) => ({
    name: t.exposeString('name'),
    index: t.exposeInt('index', { description: 'Its position in the version\'s rules, from 0.' }),
  }),
});

const decimal = (description: string) => ({ description: `${description} An exact decimal string.` });

/** The members of a subtotal line (REST: the subtotals of cost calculations, priced sessions and reimbursements). */
type Types = typeof builder extends PothosSchemaTypes.SchemaBuilder<infer T> ? T : never;
type Line = Omit<Subtotal, 'kind'> & { kind: string };

export function subtotalFields<L extends Line>(t: PothosSchemaTypes.ObjectFieldBuilder<Types, L>) {
  return {
    kind: t.string({
      description: 'energy, time, parking_time, flat, other (from a rule script), min_price_adjustment, max_price_adjustment (more kinds may come).',
      resolve: (line) => line.kind,
    }),
    component: t.string({ nullable: true, description: 'For other subtotals: the component the rule script named.', resolve: (line) => line.component ?? null }),
    label: t.string({ nullable: true, description: 'For other subtotals: the label the rule script gave.', resolve: (line) => line.label ?? null }),
    volume: t.string({ ...decimal('The measured volume in rateUnit.'), resolve: (line) => line.volume }),
    billedVolume: t.string({ ...decimal('The volume rounded up to stepSize.'), resolve: (line) => line.billed_volume }),
    stepSize: t.string({ nullable: true, ...decimal('The billing step, if any.'), resolve: (line) => line.step_size ?? null }),
    rate: t.string({ ...decimal('The price per rateUnit excl. VAT.'), resolve: (line) => line.rate }),
    rateUnit: t.string({ description: 'kWh, min or session.', resolve: (line) => line.rate_unit }),
    amountExclVatUnrounded: t.string({ ...decimal('billedVolume × rate, 6 decimals.'), resolve: (line) => line.amount_excl_vat_unrounded }),
    amountExclVat: t.string({ ...decimal('Rounded to the currency.'), resolve: (line) => line.amount_excl_vat }),
    vatPercent: t.string({ ...decimal('The VAT percentage applied.'), resolve: (line) => line.vat_percent }),
    vatKind: t.field({ type: VatKind, resolve: (line) => line.vat_kind }),
    vatCountry: t.string({ resolve: (line) => line.vat_country }),
    vatAmountUnrounded: t.string({ ...decimal('6 decimals.'), resolve: (line) => line.vat_amount_unrounded }),
    vatAmount: t.string({ ...decimal('amountInclVat − amountExclVat.'), resolve: (line) => line.vat_amount }),
    amountInclVat: t.string({ ...decimal('Rounded to the currency.'), resolve: (line) => line.amount_incl_vat }),
  };
}

export const CostSubtotal = builder.objectRef<Subtotal>('CostSubtotal').implement({
  description: 'One line of a calculation, rounded once (half away from zero). Every amount is an exact decimal string.',
  fields: (t) => subtotalFields(t),
});

export const Annotation = builder.objectRef<[string, string]>('PricingAnnotation').implement({
  description: "A name and value a rate plan's rule script (or the pricing) set (REST: a member of the annotations map).",
  fields: (t) => ({ name: t.string({ resolve: ([name]) => name }), value: t.string({ resolve: ([, value]) => String(value) }) }),
});

/** REST's annotations map as name/value pairs, in its order. */
export const annotationList = (annotations: Record<string, string> | null | undefined): [string, string][] => Object.entries(annotations ?? {});

const CostCalculation = builder.objectRef<CostCalculationResult>('CostCalculation').implement({
  description: 'The price of a hypothetical session; nothing is stored.',
  fields: (t) => ({
    ratePlan: t.field({ type: RatePlan, resolve: (result) => result.ratePlan.id }),
    ratePlanVersion: t.field({ type: RatePlanVersion, resolve: (result) => result.ratePlanVersionId }),
    currency: t.string({ description: 'ISO 4217 currency code of the rate plan.', resolve: (result) => result.ratePlan.currency }),
    rule: t.field({
      type: CostCalculationRule,
      nullable: true,
      description: 'Null when no rule matched and the base rates applied.',
      resolve: (result) => (result.rule.name === null || result.rule.index === null ? null : { name: result.rule.name, index: result.rule.index }),
    }),
    vatRate: t.field({
      type: VatRate,
      nullable: true,
      description: 'The stored VAT rate applied; null for EXEMPT and REVERSE_CHARGE (0 %).',
      resolve: (result) => result.vatRateId,
    }),
    subtotals: t.field({ type: [CostSubtotal], extensions: EMBEDDED_VALUE, resolve: (result) => result.subtotals }),
    totalExclVat: t.string({ description: 'The sum of the rounded lines. An exact decimal string.', resolve: (result) => result.total_excl_vat }),
    totalVat: t.string({ description: 'An exact decimal string.', resolve: (result) => result.total_vat }),
    totalInclVat: t.string({ description: 'The sum of the rounded lines. An exact decimal string.', resolve: (result) => result.total_incl_vat }),
    explanation: t.stringList({ description: 'How the price came about, step by step, for people.', resolve: (result) => result.explanation }),
    annotations: t.field({
      type: [Annotation], extensions: EMBEDDED_VALUE,
      description: 'Names and values the script of the deciding rule set (empty when there are none).',
      resolve: (result) => annotationList(result.annotations),
    }),
  }),
});

const CostCalculationInput = builder.inputType('CostCalculationInput', {
  description: 'A hypothetical session. Exactly one of ratePlanId and planId.',
  fields: (t) => ({
    ratePlanId: t.id({ description: 'A rate plan: global ID or REST id.' }),
    planId: t.id({ description: 'A subscription plan (its rate plan prices): global ID or REST id.' }),
    startDateTime: t.field({ type: DateTime, required: true }),
    endDateTime: t.field({ type: DateTime, required: true }),
    energyKwh: t.string({ required: true, description: 'A non-negative exact decimal string.' }),
    country: t.string({ required: true, description: 'ISO 3166-1 alpha-2 country code: the VAT rate of this country applies.' }),
    timeZone: t.string({ required: true, description: 'IANA time zone in which rules match the start, e.g. Europe/Amsterdam.' }),
    cpoPartyId: t.string(),
    tariffCode: t.string(),
    currentType: t.field({ type: CurrentType }),
    powerKw: t.string({ description: 'A non-negative exact decimal string.' }),
    parkingMinutes: t.string({ description: 'A non-negative exact decimal string, at most the session\'s duration.' }),
    vatKind: t.field({ type: VatKind, description: 'Unless the deciding rule names one. Default STANDARD.' }),
    cpoCostExclVat: t.string({ description: 'The CPO\'s cost of the session excl. VAT, which rule scripts read (input.cpo_cost_excl_vat). A non-negative exact decimal string.' }),
  }),
});

const amount = () => yup.string().nullable().test('decimal', '${path} must be a non-negative decimal such as "12.5" (at most 6 decimals)',
  (value) => value === undefined || value === null || (isDecimalText(value) && compareDecimal(value, '0') >= 0));

/** The rules of the REST query (GET /msp-charge-cost-calculation) that GraphQL types cannot say. */
const inputRules = yup.object({
  energyKwh: amount(),
  powerKw: amount(),
  parkingMinutes: amount(),
  cpoCostExclVat: amount(),
  country: countryCode(),
  timeZone: yup.string().test('tz', '${path} must be an IANA time zone such as Europe/Amsterdam', (v) => v === undefined || isTimeZone(v)),
  cpoPartyId: text().nullable(),
  tariffCode: text().nullable(),
});

const localId = (id: string | number | null | undefined, typename: string): string | undefined => {
  if (id === null || id === undefined) return undefined;
  const ref = refFromArg(String(id), typename, false);
  return 'id' in ref ? ref.id : undefined;
};

/** The service names REST query parameters (rate_plan_id); here they are members of the input argument. */
function inInput(error: unknown): unknown {
  if (!(error instanceof DomainError)) return error;
  const path = error.fieldPath ?? (error.queryParam ? [error.queryParam] : undefined);
  return inArgument(new DomainError(error.code, error.message, { path, details: error.details }), 'input');
}

builder.queryFields((t) => ({
  costCalculation: t.field({
    type: CostCalculation,
    description: 'Prices a hypothetical session with the same service as REST GET /msp-charge-cost-calculation: the rate plan '
      + 'version valid at the start, the first matching rule, the VAT rate of country at the start; stores nothing.',
    args: { input: t.arg({ type: CostCalculationInput, required: true }) },
    resolve: async (_root, { input }, context) => {
      try {
        validate(inputRules, input);
        return await calculateCost(context.em, {
          ratePlanId: localId(input.ratePlanId, 'RatePlan'),
          planId: localId(input.planId, 'SubscriptionPlan'),
          vatKind: input.vatKind ?? 'standard',
          session: {
            start: input.startDateTime, end: input.endDateTime, energyKwh: input.energyKwh, parkingMinutes: input.parkingMinutes ?? undefined,
            timeZone: input.timeZone, country: input.country.toUpperCase(), cpoPartyId: input.cpoPartyId ?? undefined,
            tariffCode: input.tariffCode ?? undefined, currentType: input.currentType ?? undefined, powerKw: input.powerKw ?? undefined,
            cpoCostExclVat: input.cpoCostExclVat ?? undefined,
          },
        });
      } catch (error) {
        throw inInput(error);
      }
    },
  }),
}));
