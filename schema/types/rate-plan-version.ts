import { DomainError } from '../../src/platform/errors.ts';
import { isDataOf } from '../../src/platform/seek-page.ts';
import { ratePlanVersionsByIds, versionsOfRatePlans, type RatePlanVersionData } from '../../src/pricing/rate-plan.queries.ts';
import { createRatePlanVersion } from '../../src/pricing/rate-plan.service.ts';
import type {
  ComponentRate as ComponentRateData, Rates as RatesData, RatePlanVersionDefinition, RateRule as RateRuleData, RuleMatch as RuleMatchData,
} from '../../src/pricing/rate-plan-definition.ts';
import { builder } from '../builder.ts';
import { EMBEDDED_VALUE } from '../query-cost.ts';
import { childConnectionsOf } from '../child-connection.ts';
import { inArgument } from '../errors.ts';
import { mutate } from '../mutation.ts';
import { DateTime } from './date-time.ts';
import { JsonScalar } from './json.ts';
import { RATE_PLAN_ID_DESCRIPTION, RatePlan, ratePlanRef } from './rate-plan.ts';
import { VatKind } from './vat-rate.ts';

const ComponentRate = builder.objectRef<ComponentRateData>('RatePlanComponentRate').implement({
  description: "A price per unit (energy: kWh, time and parking_time: minute, flat: session), its step size and VAT kind when not the rule's.",
  fields: (t) => ({
    price: t.exposeString('price', { description: 'An exact decimal string.' }),
    stepSize: t.string({ nullable: true, resolve: (r) => r.step_size ?? null }),
    vatKind: t.field({ type: VatKind, nullable: true, resolve: (r) => r.vat_kind ?? null }),
  }),
});

const Rates = builder.objectRef<RatesData>('RatePlanRates').implement({
  description: "Rates per component; minPrice and maxPrice bound a session's price excl. VAT.",
  fields: (t) => ({
    energy: t.field({ type: ComponentRate, nullable: true, resolve: (r) => r.energy ?? null }),
    time: t.field({ type: ComponentRate, nullable: true, resolve: (r) => r.time ?? null }),
    parkingTime: t.field({ type: ComponentRate, nullable: true, resolve: (r) => r.parking_time ?? null }),
    flat: t.field({ type: ComponentRate, nullable: true, resolve: (r) => r.flat ?? null }),
    minPrice: t.string({ nullable: true, resolve: (r) => r.min_price ?? null }),
    maxPrice: t.string({ nullable: true, resolve: (r) => r.max_price ?? null }),
  }),
});

const TimeOfDay = builder.objectRef<{ from: string; until: string }>('RatePlanTimeOfDay').implement({
  fields: (t) => ({
    from: t.exposeString('from', { description: 'HH:MM local.' }),
    until: t.exposeString('until', { description: 'HH:MM local (may wrap midnight).' }),
  }),
});

const RuleMatch = builder.objectRef<RuleMatchData>('RatePlanRuleMatch').implement({
  description: 'When a rule applies: every condition given holds (null: no condition).',
  fields: (t) => ({
    cpoPartyIds: t.stringList({ nullable: true, resolve: (m) => m.cpo_party_ids ?? null }),
    tariffCodes: t.stringList({ nullable: true, resolve: (m) => m.tariff_codes ?? null }),
    countries: t.stringList({ nullable: true, resolve: (m) => m.countries ?? null }),
    currentType: t.string({ nullable: true, description: 'AC or DC.', resolve: (m) => m.current_type ?? null }),
    minPowerKw: t.string({ nullable: true, resolve: (m) => m.min_power_kw ?? null }),
    maxPowerKw: t.string({ nullable: true, resolve: (m) => m.max_power_kw ?? null }),
    minDurationMinutes: t.string({ nullable: true, resolve: (m) => m.min_duration_minutes ?? null }),
    maxDurationMinutes: t.string({ nullable: true, resolve: (m) => m.max_duration_minutes ?? null }),
    minEnergyKwh: t.string({ nullable: true, resolve: (m) => m.min_energy_kwh ?? null }),
    maxEnergyKwh: t.string({ nullable: true, resolve: (m) => m.max_energy_kwh ?? null }),
    timeOfDay: t.field({ type: TimeOfDay, nullable: true, resolve: (m) => m.time_of_day ?? null }),
    daysOfWeek: t.intList({ nullable: true, description: 'ISO weekdays, 1 (Monday) to 7 (Sunday).', resolve: (m) => m.days_of_week ?? null }),
    dateFrom: t.string({ nullable: true, description: 'A local date.', resolve: (m) => m.date_from ?? null }),
    dateUntil: t.string({ nullable: true, description: 'A local date (exclusive).', resolve: (m) => m.date_until ?? null }),
  }),
});

const Rule = builder.objectRef<RateRuleData>('RatePlanRule').implement({
  description: 'A rule: the first whose match holds decides.',
  fields: (t) => ({
    name: t.exposeString('name'),
    match: t.field({ type: RuleMatch, resolve: (r) => r.match }),
    rates: t.field({ type: Rates, resolve: (r) => r.rates }),
    vatKind: t.field({ type: VatKind, nullable: true, resolve: (r) => r.vat_kind ?? null }),
    script: t.string({ nullable: true, description: 'JavaScript run in a sandbox after the rates.', resolve: (r) => r.script ?? null }),
  }),
});

const RatePlanDefinition = builder.objectRef<RatePlanVersionDefinition>('RatePlanDefinition').implement({
  description: 'The definition as created: base rates and ordered rules (REST: definition; POST /rate-plan/{id}/version).',
  fields: (t) => ({
    rates: t.field({ type: Rates, resolve: (d) => d.rates }),
    rules: t.field({ type: [Rule], resolve: (d) => d.rules }),
  }),
});

export const RatePlanVersion = builder.loadableNode('RatePlanVersion', {
  description: 'The rates of a plan from validFrom until the next version\'s validFrom. Immutable: a change is a new version.',
  id: { resolve: (version: RatePlanVersionData) => version.id },
  cacheResolved: (version) => version.id,
  isTypeOf: (value) => isDataOf(value, 'RatePlanVersion'),
  load: (ids: string[], context) => ratePlanVersionsByIds(context.em, ids),
  fields: (t) => ({
    databaseId: t.exposeString('id', { description: 'The id of this version in the REST API.' }),
    ratePlanId: t.string({ description: 'The REST id of the rate plan.', resolve: (version) => version.ratePlan.id }),
    ratePlan: t.field({ type: RatePlan, resolve: (version) => version.ratePlan.id }),
    validFrom: t.field({ type: DateTime, resolve: (version) => version.validFrom }),
    definition: t.field({ type: RatePlanDefinition, extensions: EMBEDDED_VALUE, resolve: (version) => version.definition as RatePlanVersionDefinition }),
    createdAt: t.field({ type: DateTime, resolve: (version) => version.createdAt }),
  }),
});

export const RatePlanVersionConnection = builder.connectionObject(
  { type: RatePlanVersion, name: 'RatePlanVersionConnection' },
  { name: 'RatePlanVersionEdge' },
);

builder.objectField(RatePlan, 'versions', (t) => t.loadable({
  type: RatePlanVersionConnection,
  byPath: true,
  description: 'The versions of this plan, by id (REST: GET /rate-plan/{id}/version).',
  args: { ...t.arg.connectionArgs() },
  load: (planIds: string[], context, args) => childConnectionsOf(planIds, args, (ids, range) => versionsOfRatePlans(context.em, ids, range)),
  resolve: (plan) => plan.id,
}));

const RatePlanVersionInput = builder.inputType('RatePlanVersionInput', {
  fields: (t) => ({
    validFrom: t.field({ type: DateTime, required: true, description: 'Unique within the plan.' }),
    definition: t.field({
      type: JsonScalar,
      required: true,
      description: 'As in REST (POST /rate-plan/{id}/version): {rates, rules}, every amount an exact decimal string, never a number.',
    }),
  }),
});

/** `valid_from` is `$.input.validFrom`; places inside the definition keep the JSON's own member names. */
function inInput(error: unknown): unknown {
  return error instanceof DomainError ? inArgument(error, { name: 'input', jsonMembers: ['definition'] }) : error;
}

builder.mutationFields((t) => ({
  addRatePlanVersion: t.field({
    type: RatePlanVersion,
    nullable: true,
    description: 'Adds a version to a rate plan (REST: POST /rate-plan/{id}/version).',
    args: {
      ratePlanId: t.arg.id({ required: true, description: RATE_PLAN_ID_DESCRIPTION }),
      input: t.arg({ type: RatePlanVersionInput, required: true }),
    },
    resolve: (_root, args, context) => mutate(context, null, (em) =>
      createRatePlanVersion(em, ratePlanRef(args.ratePlanId), args.input).catch((error) => { throw inInput(error); })),
  }),
}));
