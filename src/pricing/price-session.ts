// The pricing core: a pure function from a rate plan version, a session and a VAT rate to
// subtotals. Each line is rounded once (half away from zero); totals are sums of rounded lines.
// A session total (excl. VAT) below min_price gets a `min_price_adjustment` line at the session's
// VAT; one above max_price `max_price_adjustment` lines, one per VAT rate of the lines (boundLines).
import {
  addDecimal, allocateCurrency, compareDecimal, minutesFromMilliseconds, mulDivToCurrency, multiplyDecimal, normalize, percentOfDecimal, roundToCurrency,
  roundUpToStep, subtractCurrency, subtractDecimal, sumCurrency, toFixedDecimal,
} from '../money/decimal.ts';
import { DomainError, InvalidInputError } from '../platform/errors.ts';
import { isTimeZone } from './local-time.ts';
import { chooseRule, type RuleChoice } from './match-rule.ts';
import { runRuleScript } from './script/run-rule-script.ts';
import type { ComponentRate, RateComponent, RatePlanVersionDefinition, Rates } from './rate-plan-definition.ts';
import type { VatKind } from './vat-rate.entity.ts';

export type SubtotalKind = RateComponent | 'other' | 'min_price_adjustment' | 'max_price_adjustment';

export interface PricingSession {
  start: Date;
  end: Date;
  energyKwh: string;
  parkingMinutes?: string;
  timeZone: string;
  country: string;
  cpoPartyId?: string;
  tariffCode?: string;
  currentType?: 'AC' | 'DC';
  powerKw?: string;
  /** What the CPO charges for the session excl. VAT (roaming), for rule scripts. */
  cpoCostExclVat?: string;
  /** Named decimal inputs for rule scripts (a reimbursement plan's custom variables). */
  variables?: Record<string, string>;
}

export interface PricingVat { percent: string; kind: VatKind; country: string }

export interface PriceSessionInput {
  version: RatePlanVersionDefinition & { id: string; validFrom: Date };
  session: PricingSession;
  /** The session's VAT: the rule's kind, else standard. */
  vat: PricingVat;
  /** The VAT of another kind, for components with a vat_kind of their own (a DomainError when there is none). */
  vatFor?: (kind: VatKind) => PricingVat;
}

export interface Subtotal {
  kind: SubtotalKind;
  /** Custom subtotals of rule scripts: their component name and label. */
  component?: string;
  label?: string;
  volume: string;
  billed_volume: string;
  step_size: string | null;
  rate: string;
  rate_unit: string;
  amount_excl_vat_unrounded: string;
  amount_excl_vat: string;
  vat_percent: string;
  vat_kind: VatKind;
  vat_country: string;
  vat_amount_unrounded: string;
  vat_amount: string;
  amount_incl_vat: string;
}

export interface PricingResult {
  ratePlanVersionId: string;
  rule: { name: string | null; index: number | null };
  subtotals: Subtotal[];
  total_excl_vat: string;
  total_vat: string;
  total_incl_vat: string;
  /** Set by the rule's script. */
  annotations: Record<string, string>;
  explanation: string[];
}

const UNITS: Record<RateComponent, string> = { energy: 'kWh', time: 'min', parking_time: 'min', flat: 'session' };
const COMPONENTS: RateComponent[] = ['energy', 'time', 'parking_time', 'flat'];

/** The rule's rates replace the base rates per component (and per bound). */
export function effectiveRates(base: Rates, override: Rates | undefined): Rates {
  return { ...base, ...(override ?? {}) };
}

function line(kind: SubtotalKind, volume: string, billed: string, step: string | null, rate: string, unit: string, vat: PricingVat): Subtotal {
  const unrounded = multiplyDecimal(billed, rate);
  const vatUnrounded = percentOfDecimal(unrounded, vat.percent);
  const excl = roundToCurrency(unrounded);
  // Rounded once from the exact amount: the VAT kept at 6 decimals and then the sum rounded again
  // made 5.185950 at 21 % 6.28 rather than 6.27 (found by probing, 2026-11-29).
  const incl = mulDivToCurrency(unrounded, addDecimal('100', vat.percent), '100');
  return {
    kind, volume: normalize(volume), billed_volume: normalize(billed), step_size: step === null ? null : normalize(step),
    rate: normalize(rate), rate_unit: unit,
    amount_excl_vat_unrounded: toFixedDecimal(unrounded, 6), amount_excl_vat: excl,
    vat_percent: normalize(vat.percent), vat_kind: vat.kind, vat_country: vat.country,
    vat_amount_unrounded: toFixedDecimal(vatUnrounded, 6), vat_amount: subtractCurrency(incl, excl), amount_incl_vat: incl,
  };
}

/**
 * The lines that bring a session to its bound. A minimum's top-up is one line at the session's VAT. A
 * maximum's reduction is shared out over the VAT rates of the lines, in proportion to each rate's
 * net (in cents, largest remainder): one line at the session's VAT took its reduction off a rate
 * the session may not have, so a session capped over a reduced-rate line owed negative VAT (found by
 * probing, 2026-11-29: 100.00 at 9 % capped at 50.00 was 48.50 incl. VAT).
 */
function boundLines(kind: SubtotalKind, difference: string, subtotals: Subtotal[], vat: PricingVat): Subtotal[] {
  if (kind !== 'max_price_adjustment') return [line(kind, '1', '1', null, difference, 'session', vat)];
  const rates = new Map<string, { vat: PricingVat; net: string }>();
  for (const s of subtotals) {
    const key = `${s.vat_kind}|${s.vat_percent}|${s.vat_country}`;
    const known = rates.get(key);
    rates.set(key, { vat: known?.vat ?? { kind: s.vat_kind, percent: s.vat_percent, country: s.vat_country }, net: sumCurrency([known?.net ?? '0.00', s.amount_excl_vat]) });
  }
  const paying = [...rates.values()].filter((r) => compareDecimal(r.net, '0') > 0);
  if (paying.length <= 1) return [line(kind, '1', '1', null, difference, 'session', paying[0]?.vat ?? vat)];
  const shares = allocateCurrency(difference, paying.map((r) => r.net));
  return paying.flatMap((r, i) => (compareDecimal(shares[i], '0') === 0 ? [] : [line(kind, '1', '1', null, shares[i], 'session', r.vat)]));
}

function volumes(session: PricingSession): Record<RateComponent, string> & { duration: string } {
  const duration = minutesFromMilliseconds(session.end.getTime() - session.start.getTime());
  const parking = session.parkingMinutes ?? '0';
  const charging = compareDecimal(parking, duration) >= 0 ? '0' : subtractDecimal(duration, parking);
  return { energy: session.energyKwh, time: charging, parking_time: parking, flat: '1', duration };
}

function checkSession(session: PricingSession): void {
  if (!isTimeZone(session.timeZone)) throw new InvalidInputError('time_zone must be an IANA time zone', { path: ['time_zone'] });
  if (session.end.getTime() < session.start.getTime()) throw new InvalidInputError('the session ends before it starts', { path: ['end_date_time'] });
}

/** The rule that decides a session (callers need its vat_kind before they look up the VAT rate). */
export function ruleFor(version: RatePlanVersionDefinition, session: PricingSession): RuleChoice {
  checkSession(session);
  return chooseRule(version, { ...session, durationMinutes: volumes(session).duration });
}

export function priceSession(input: PriceSessionInput): PricingResult {
  const { version, session, vat } = input;
  const vatOf = (kind: VatKind | undefined): PricingVat => {
    if (kind === undefined || kind === vat.kind) return vat;
    if (!input.vatFor) throw new DomainError('vat_rate_missing', `no ${kind} VAT rate of ${vat.country} is known`);
    return input.vatFor(kind);
  };
  checkSession(session);
  const vol = volumes(session);
  const choice = chooseRule(version, { ...session, durationMinutes: vol.duration });
  const rates = effectiveRates(version.rates, choice.rule?.rates);
  const explanation = [
    `rate plan version ${version.id} (valid from ${version.validFrom.toISOString()})`,
    `session start ${choice.local.date} ${choice.local.clock} local (${session.timeZone}, ISO weekday ${choice.local.weekday}), `
      + `duration ${normalize(vol.duration)} min, energy ${normalize(session.energyKwh)} kWh`,
    choice.rule ? `rule #${choice.index} "${choice.rule.name}" matched first` : 'no rule matched: the base rates apply',
    `VAT ${vat.kind} ${vat.country} ${normalize(vat.percent)} %`,
  ];

  const subtotals: Subtotal[] = [];
  for (const kind of COMPONENTS) {
    const rate: ComponentRate | undefined = rates[kind];
    if (!rate) continue;
    const step = rate.step_size ?? null;
    const billed = roundUpToStep(vol[kind], step ?? undefined);
    const sub = line(kind, vol[kind], billed, step, rate.price, UNITS[kind], vatOf(rate.vat_kind));
    subtotals.push(sub);
    explanation.push(`${kind}: ${sub.volume} ${UNITS[kind]}${step ? ` billed in steps of ${sub.step_size} as ${sub.billed_volume}` : ''} × ${sub.rate} `
      + `= ${sub.amount_excl_vat_unrounded}, rounded ${sub.amount_excl_vat}; VAT ${sub.vat_amount_unrounded} unrounded; incl. VAT ${sub.amount_incl_vat}`
      + `${rate.vat_kind && rate.vat_kind !== vat.kind ? ` (own VAT: ${sub.vat_kind} ${sub.vat_percent} %)` : ''}`);
  }

  let annotations: Record<string, string> = {};
  if (choice.rule?.script) {
    const output = runRuleScript(choice.rule.name, choice.rule.script, scriptInput(session, vol, choice, subtotals));
    annotations = output.annotations;
    for (const custom of output.subtotals) {
      const sub = { ...line('other', '1', '1', null, custom.amount_excl_vat, 'session', vat), component: custom.component, label: custom.label };
      subtotals.push(sub);
      explanation.push(`other subtotal ${custom.component} "${custom.label}" from the script of rule "${choice.rule.name}": ${sub.amount_excl_vat_unrounded}, `
        + `rounded ${sub.amount_excl_vat}; incl. VAT ${sub.amount_incl_vat}`);
    }
    for (const [name, value] of Object.entries(annotations)) explanation.push(`annotation ${name}: ${value}`);
  }

  const subtotal = sumCurrency(subtotals.map((s) => s.amount_excl_vat));
  const min = rates.min_price === undefined ? undefined : roundToCurrency(rates.min_price);
  const max = rates.max_price === undefined ? undefined : roundToCurrency(rates.max_price);
  let bound: { kind: SubtotalKind; value: string } | undefined;
  if (min !== undefined && compareDecimal(subtotal, min) < 0) bound = { kind: 'min_price_adjustment', value: min };
  else if (max !== undefined && compareDecimal(subtotal, max) > 0) bound = { kind: 'max_price_adjustment', value: max };
  if (bound) {
    const difference = subtractCurrency(bound.value, subtotal);
    subtotals.push(...boundLines(bound.kind, difference, subtotals, vat));
    explanation.push(`${bound.kind}: the lines sum to ${subtotal} excl. VAT, the ${bound.kind === 'min_price_adjustment' ? 'minimum' : 'maximum'} `
      + `price is ${bound.value}: ${difference}`);
  }

  const totalExcl = sumCurrency(subtotals.map((s) => s.amount_excl_vat));
  const totalIncl = sumCurrency(subtotals.map((s) => s.amount_incl_vat));
  explanation.push(`total ${totalExcl} excl. VAT, ${totalIncl} incl. VAT (sums of the rounded lines)`);
  return {
    ratePlanVersionId: version.id,
    rule: { name: choice.rule?.name ?? null, index: choice.index },
    subtotals,
    total_excl_vat: totalExcl,
    total_vat: subtractCurrency(totalIncl, totalExcl),
    total_incl_vat: totalIncl,
    annotations,
    explanation,
  };
}

/** What a rule script sees: the session facts as strings and the lines priced so far. */
function scriptInput(session: PricingSession, vol: ReturnType<typeof volumes>, choice: RuleChoice, subtotals: Subtotal[]) {
  return {
    start: session.start.toISOString(), end: session.end.toISOString(), time_zone: session.timeZone,
    local_date: choice.local.date, local_time: choice.local.clock, weekday: choice.local.weekday,
    country: session.country, energy_kwh: normalize(session.energyKwh), duration_minutes: normalize(vol.duration),
    parking_minutes: normalize(vol.parking_time), cpo_party_id: session.cpoPartyId ?? null, tariff_code: session.tariffCode ?? null,
    current_type: session.currentType ?? null, power_kw: session.powerKw ?? null, cpo_cost_excl_vat: session.cpoCostExclVat ?? null, variables: session.variables ?? {},
    subtotals: subtotals.map((s) => ({ kind: s.kind, volume: s.volume, rate: s.rate, amount_excl_vat_unrounded: s.amount_excl_vat_unrounded, amount_excl_vat: s.amount_excl_vat })),
  };
}
