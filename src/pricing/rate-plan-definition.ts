// The priced content of a rate plan version, validated on write. Amounts stay decimal strings.
import { compareDecimal, isNegative, parseDecimal } from '../money/decimal.ts';
import { DomainError, InvalidInputError, type ErrorDetail } from '../platform/errors.ts';
import { DATE_FORMAT, parseDate } from '../platform/timestamp.ts';
import { MAX_SCRIPT_LENGTH, scriptSyntaxError } from './script/run-rule-script.ts';
import { VAT_KINDS, type VatKind } from './vat-rate.entity.ts';

export const RATE_COMPONENTS = ['energy', 'time', 'parking_time', 'flat'] as const;
export type RateComponent = (typeof RATE_COMPONENTS)[number];

/** `vat_kind`: this component's VAT kind, when it differs from the rule's (or standard). */
export interface ComponentRate { price: string; step_size?: string; vat_kind?: VatKind }

export interface Rates {
  energy?: ComponentRate;
  time?: ComponentRate;
  parking_time?: ComponentRate;
  flat?: ComponentRate;
  min_price?: string;
  max_price?: string;
}

export interface RuleMatch {
  cpo_party_ids?: string[];
  tariff_codes?: string[];
  countries?: string[];
  current_type?: 'AC' | 'DC';
  min_power_kw?: string;
  max_power_kw?: string;
  min_duration_minutes?: string;
  max_duration_minutes?: string;
  min_energy_kwh?: string;
  max_energy_kwh?: string;
  time_of_day?: { from: string; until: string };
  days_of_week?: number[];
  date_from?: string;
  date_until?: string;
}

/** `script`: JavaScript run in a sandbox after the rates (src/pricing/script/run-rule-script.ts). */
export interface RateRule { name: string; match: RuleMatch; rates: Rates; vat_kind?: VatKind; script?: string }

export interface RatePlanVersionDefinition { rates: Rates; rules: RateRule[] }

const RANGES = ['power_kw', 'duration_minutes', 'energy_kwh'] as const;
const HHMM = /^([01]\d|2[0-3]):[0-5]\d$/;

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

class Checker {
  failures: ErrorDetail[] = [];
  fail(param: string, message: string): void { this.failures.push({ param, message }); }

  decimal(value: unknown, param: string): string | undefined {
    try {
      const parsed = parseDecimal(value as string, param);
      if (isNegative(parsed)) { this.fail(param, 'must not be negative'); return undefined; }
      return parsed;
    } catch (error) {
      if (!(error instanceof DomainError)) throw error;
      this.fail(param, error.message);
      return undefined;
    }
  }

  unknownKeys(value: Record<string, unknown>, allowed: readonly string[], param: string): void {
    for (const key of Object.keys(value)) if (!allowed.includes(key)) this.fail(`${param}.${key}`, `unknown member ${key}`);
  }

  stringList(value: unknown, param: string, upper = false): string[] | undefined {
    if (!Array.isArray(value) || value.length === 0 || value.some((v) => typeof v !== 'string' || v === '' || v.length > 255)) {
      this.fail(param, 'must be a non-empty list of strings');
      return undefined;
    }
    return value.map((v: string) => (upper ? v.toUpperCase() : v));
  }

  rates(value: unknown, param: string): Rates {
    const rates: Rates = {};
    if (!isObject(value)) { this.fail(param, 'must be an object'); return rates; }
    this.unknownKeys(value, [...RATE_COMPONENTS, 'min_price', 'max_price'], param);
    for (const component of RATE_COMPONENTS) {
      const raw = value[component];
      if (raw === undefined) continue;
      const at = `${param}.${component}`;
      if (!isObject(raw)) { this.fail(at, 'must be an object with price and step_size'); continue; }
      this.unknownKeys(raw, component === 'flat' ? ['price', 'vat_kind'] : ['price', 'step_size', 'vat_kind'], at);
      const price = this.decimal(raw.price, `${at}.price`);
      const rate: ComponentRate = { price: price ?? '0' };
      if (raw.step_size !== undefined && component !== 'flat') {
        const step = this.decimal(raw.step_size, `${at}.step_size`);
        if (step !== undefined) rate.step_size = step;
      }
      if (raw.vat_kind !== undefined) {
        if ((VAT_KINDS as readonly unknown[]).includes(raw.vat_kind)) rate.vat_kind = raw.vat_kind as VatKind;
        else this.fail(`${at}.vat_kind`, `must be one of: ${VAT_KINDS.join(', ')}`);
      }
      rates[component] = rate;
    }
    for (const bound of ['min_price', 'max_price'] as const) {
      if (value[bound] !== undefined) rates[bound] = this.decimal(value[bound], `${param}.${bound}`);
    }
    if (rates.min_price && rates.max_price && compareDecimal(rates.min_price, rates.max_price) > 0) {
      this.fail(`${param}.max_price`, 'max_price must not be below min_price');
    }
    return rates;
  }

  match(value: unknown, param: string): RuleMatch {
    const match: RuleMatch = {};
    if (!isObject(value)) { this.fail(param, 'must be an object'); return match; }
    const allowed = ['cpo_party_ids', 'tariff_codes', 'countries', 'current_type', 'time_of_day', 'days_of_week', 'date_from', 'date_until',
      ...RANGES.flatMap((r) => [`min_${r}`, `max_${r}`])];
    this.unknownKeys(value, allowed, param);
    if (value.cpo_party_ids !== undefined) match.cpo_party_ids = this.stringList(value.cpo_party_ids, `${param}.cpo_party_ids`);
    if (value.tariff_codes !== undefined) match.tariff_codes = this.stringList(value.tariff_codes, `${param}.tariff_codes`);
    if (value.countries !== undefined) {
      match.countries = this.stringList(value.countries, `${param}.countries`, true);
      if (match.countries?.some((c) => !/^[A-Z]{2}$/.test(c))) this.fail(`${param}.countries`, 'must hold two-letter country codes');
    }
    if (value.current_type !== undefined) {
      if (value.current_type === 'AC' || value.current_type === 'DC') match.current_type = value.current_type;
      else this.fail(`${param}.current_type`, 'must be AC or DC');
    }
    for (const range of RANGES) {
      for (const key of [`min_${range}`, `max_${range}`] as const) {
        if (value[key] !== undefined) (match as Record<string, unknown>)[key] = this.decimal(value[key], `${param}.${key}`);
      }
    }
    if (value.time_of_day !== undefined) {
      const tod = value.time_of_day;
      if (!isObject(tod) || typeof tod.from !== 'string' || typeof tod.until !== 'string' || !HHMM.test(tod.from) || !HHMM.test(tod.until) || tod.from === tod.until) {
        this.fail(`${param}.time_of_day`, 'must be {from: "HH:MM", until: "HH:MM"} with from different from until');
      } else match.time_of_day = { from: tod.from, until: tod.until };
    }
    if (value.days_of_week !== undefined) {
      const days = value.days_of_week;
      if (!Array.isArray(days) || days.length === 0 || days.some((d) => !Number.isInteger(d) || d < 1 || d > 7)) {
        this.fail(`${param}.days_of_week`, 'must be a non-empty list of ISO weekdays 1 (Monday) to 7 (Sunday)');
      } else match.days_of_week = [...days];
    }
    for (const key of ['date_from', 'date_until'] as const) {
      const v = value[key];
      if (v === undefined) continue;
      if (typeof v !== 'string' || !parseDate(v)) this.fail(`${param}.${key}`, `must be ${DATE_FORMAT}`);
      else match[key] = v;
    }
    return match;
  }

  rule(value: unknown, param: string): RateRule {
    if (!isObject(value)) { this.fail(param, 'must be an object'); return { name: '', match: {}, rates: {} }; }
    this.unknownKeys(value, ['name', 'match', 'rates', 'vat_kind', 'script'], param);
    if (typeof value.name !== 'string' || value.name.trim() === '' || value.name.length > 255) this.fail(`${param}.name`, 'name is required (at most 255 characters)');
    const rule: RateRule = { name: String(value.name ?? ''), match: this.match(value.match ?? {}, `${param}.match`), rates: this.rates(value.rates ?? {}, `${param}.rates`) };
    if (value.script !== undefined) {
      if (typeof value.script !== 'string' || value.script.trim() === '' || value.script.length > MAX_SCRIPT_LENGTH) {
        this.fail(`${param}.script`, `script must be JavaScript source of at most ${MAX_SCRIPT_LENGTH} characters`);
      } else {
        const syntax = scriptSyntaxError(value.script);
        if (syntax) this.fail(`${param}.script`, `the script does not compile: ${syntax}`);
        else rule.script = value.script;
      }
    }
    if (value.vat_kind !== undefined) {
      if ((VAT_KINDS as readonly unknown[]).includes(value.vat_kind)) rule.vat_kind = value.vat_kind as VatKind;
      else this.fail(`${param}.vat_kind`, `must be one of: ${VAT_KINDS.join(', ')}`);
    }
    return rule;
  }
}

/** Validates and normalizes a definition; every failure is reported (param under `param`). */
export function parseDefinition(value: unknown, param = '$.definition'): RatePlanVersionDefinition {
  const checker = new Checker();
  let definition: RatePlanVersionDefinition = { rates: {}, rules: [] };
  if (!isObject(value)) checker.fail(param, 'definition must be an object with rates and rules');
  else {
    checker.unknownKeys(value, ['rates', 'rules'], param);
    const rules = value.rules ?? [];
    if (!Array.isArray(rules) || rules.length > 500) checker.fail(`${param}.rules`, 'rules must be a list of at most 500 rules');
    definition = {
      rates: checker.rates(value.rates ?? {}, `${param}.rates`),
      rules: Array.isArray(rules) ? rules.map((r, i) => checker.rule(r, `${param}.rules[${i}]`)) : [],
    };
  }
  const { failures } = checker;
  if (failures.length) {
    throw new InvalidInputError(`${failures[0].param}: ${failures[0].message}`, { param: failures[0].param, details: failures.length > 1 ? failures : undefined });
  }
  return definition;
}
