// A rate plan version's definition in the document, member by member, as the service stores it
// (src/pricing/rate-plan-definition.ts parses it: unknown members are refused, absent ones absent).
import type { RatePlanVersionDefinition } from '../../src/pricing/rate-plan-definition.ts';
import { VAT_KINDS } from '../../src/pricing/vat-rate.entity.ts';
import { representation, t, type Field } from '../rails/shape.ts';

const componentRate = representation('RatePlanComponentRate', {
  price: t.decimal(),
  step_size: t.optional(t.decimal()),
  vat_kind: t.optional(t.enum(VAT_KINDS)),
}, 'A price per unit (energy: kWh, time and parking_time: minute, flat: session), its step size and VAT kind when not the rule\'s.');

const rates = representation('RatePlanRates', {
  energy: t.optional(componentRate),
  time: t.optional(componentRate),
  parking_time: t.optional(componentRate),
  flat: t.optional(componentRate),
  min_price: t.optional(t.decimal()),
  max_price: t.optional(t.decimal()),
}, 'Rates per component; min_price and max_price bound a session\'s price excl. VAT.');

const match = representation('RatePlanRuleMatch', {
  cpo_party_ids: t.optional(t.array(t.string())),
  tariff_codes: t.optional(t.array(t.string())),
  countries: t.optional(t.array(t.string())),
  current_type: t.optional(t.enum(['AC', 'DC'])),
  min_power_kw: t.optional(t.decimal()),
  max_power_kw: t.optional(t.decimal()),
  min_duration_minutes: t.optional(t.decimal()),
  max_duration_minutes: t.optional(t.decimal()),
  min_energy_kwh: t.optional(t.decimal()),
  max_energy_kwh: t.optional(t.decimal()),
  time_of_day: t.optional(t.object({ from: t.string('HH:MM local'), until: t.string('HH:MM local (may wrap midnight)') })),
  days_of_week: t.optional(t.array(t.integer('ISO weekday, 1 (Monday) to 7 (Sunday)'))),
  date_from: t.optional(t.string('A local date')),
  date_until: t.optional(t.string('A local date (exclusive)')),
}, 'When a rule applies: every condition given holds.');

const rule = representation('RatePlanRule', {
  name: t.string(),
  match,
  rates,
  vat_kind: t.optional(t.enum(VAT_KINDS)),
  script: t.optional(t.string('JavaScript run in a sandbox after the rates')),
}, 'A rule: the first whose match holds decides.');

export const ratePlanDefinitionShape: Field<RatePlanVersionDefinition> = representation('RatePlanDefinition', {
  rates,
  rules: t.array(rule),
}, 'The definition as created: base rates and ordered rules (see POST /rate-plan/{id}/version).');
