// The priced content of a rate plan version, validated on write. Amounts stay decimal strings.
import { compareDecimal, isNegative, parseDecimal } from '../money/decimal.ts';
import { isCountryCode } from '../platform/countries.ts';
import { DomainError, InvalidInputError, type ErrorDetail } from '../platform/errors.ts';
import { fieldLabel, type FieldPath } from '../platform/field-path.ts';
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
  fail(path: FieldPath, message: string): void { this.failures.push({ path, message }); }

  decimal(value: unknown, path: FieldPath): string | undefined {
    try {
      const parsed = parseDecimal(value as string, path);
      if (isNegative(parsed)) { this.fail(path, 'must not be negative'); return undefined; }
      return parsed;
    } catch (error) {
      if (!(error instanceof DomainError)) throw error;
      this.fail(path, error.message);
      return undefined;
    }
  }

  unknownKeys(value: Record<string, unknown>, allowed: readonly string[], path: FieldPath): void {
    for (const key of Object.keys(value)) if (!allowed.includes(key)) this.fail([...path, key], `unknown member ${key}`);
  }

  stringList(value: unknown, path: FieldPath, upper = false): string[] | undefined {
    if (!Array.isArray(value) || value.length === 0 || value.some((v) => typeof v !== 'string' || v === '' || v.length > 255)) {
      this.fail(path, 'must be a non-empty list of strings');
      return undefined;
    }
    return value.map((v: string) => (upper ? v.toUpperCase() : v));
  }

  rates(value: unknown, path: FieldPath): Rates {
    const rates: Rates = {};
    if (!isObject(value)) { this.fail(path, 'must be an object'); return rates; }
    this.unknownKeys(value, [...RATE_COMPONENTS, 'min_price', 'max_price'], path);
    for (const component of RATE_COMPONENTS) {
      const raw = value[component];
      if (raw === undefined) continue;
      const at = [...path, component];
      if (!isObject(raw)) { this.fail(at, 'must be an object with price and step_size'); continue; }
      this.unknownKeys(raw, component === 'flat' ? ['price', 'vat_kind'] : ['price', 'step_size', 'vat_kind'], at);
      const price = this.decimal(raw.price, [...at, 'price']);
      const rate: ComponentRate = { price: price ?? '0' };
      if (raw.step_size !== undefined && component !== 'flat') {
        const step = this.decimal(raw.step_size, [...at, 'step_size']);
        if (step !== undefined) rate.step_size = step;
      }
      if (raw.vat_kind !== undefined) {
        if ((VAT_KINDS as readonly unknown[]).includes(raw.vat_kind)) rate.vat_kind = raw.vat_kind as VatKind;
        else this.fail([...at, 'vat_kind'], `must be one of: ${VAT_KINDS.join(', ')}`);
      }
      rates[component] = rate;
    }
    for (const bound of ['min_price', 'max_price'] as const) {
      if (value[bound] !== undefined) rates[bound] = this.decimal(value[bound], [...path, bound]);
    }
    if (rates.min_price && rates.max_price && compareDecimal(rates.min_price, rates.max_price) > 0) {
      this.fail([...path, 'max_price'], 'max_price must not be below min_price');
    }
    return rates;
  }

  match(value: unknown, path: FieldPath): RuleMatch {
    const match: RuleMatch = {};
    if (!isObject(value)) { this.fail(path, 'must be an object'); return match; }
    const allowed = ['cpo_party_ids', 'tariff_codes', 'countries', 'current_type', 'time_of_day', 'days_of_week', 'date_from', 'date_until',
      ...RANGES.flatMap((r) => [`min_${r}`, `max_${r}`])];
    this.unknownKeys(value, allowed, path);
    if (value.cpo_party_ids !== undefined) match.cpo_party_ids = this.stringList(value.cpo_party_ids, [...path, 'cpo_party_ids']);
    if (value.tariff_codes !== undefined) match.tariff_codes = this.stringList(value.tariff_codes, [...path, 'tariff_codes']);
    if (value.countries !== undefined) {
      match.countries = this.stringList(value.countries, [...path, 'countries'], true);
      if (match.countries?.some((c) => !/^[A-Z]{2}$/.test(c) || !isCountryCode(c))) this.fail([...path, 'countries'], 'must hold officially assigned ISO 3166-1 alpha-2 codes in upper case');
    }
    if (value.current_type !== undefined) {
      if (value.current_type === 'AC' || value.current_type === 'DC') match.current_type = value.current_type;
      else this.fail([...path, 'current_type'], 'must be AC or DC');
    }
    for (const range of RANGES) {
      for (const key of [`min_${range}`, `max_${range}`] as const) {
        if (value[key] !== undefined) (match as Record<string, unknown>)[key] = this.decimal(value[key], [...path, key]);
      }
    }
    if (value.time_of_day !== undefined) {
      const tod = value.time_of_day;
      if (!isObject(tod) || typeof tod.from !== 'string' || typeof tod.until !== 'string' || !HHMM.test(tod.from) || !HHMM.test(tod.until) || tod.from === tod.until) {
        this.fail([...path, 'time_of_day'], 'must be {from: "HH:MM", until: "HH:MM"} with from different from until');
      } else match.time_of_day = { from: tod.from, until: tod.until };
    }
    if (value.days_of_week !== undefined) {
      const days = value.days_of_week;
      if (!Array.isArray(days) || days.length === 0 || days.some((d) => !Number.isInteger(d) || d < 1 || d > 7)) {
        this.fail([...path, 'days_of_week'], 'must be a non-empty list of ISO weekdays 1 (Monday) to 7 (Sunday)');
      } else match.days_of_week = [...days];
    }
    for (const key of ['date_from', 'date_until'] as const) {
      const v = value[key];
      if (v === undefined) continue;
      if (typeof v !== 'string' || !parseDate(v)) this.fail([...path, key], `must be ${DATE_FORMAT}`);
      else match[key] = v;
    }
    return match;
  }

  rule(value: unknown, path: FieldPath): RateRule {
    if (!isObject(value)) { this.fail(path, 'must be an object'); return { name: '', match: {}, rates: {} }; }
    this.unknownKeys(value, ['name', 'match', 'rates', 'vat_kind', 'script'], path);
    if (typeof value.name !== 'string' || value.name.trim() === '' || value.name.length > 255) this.fail([...path, 'name'], 'name is required (at most 255 characters)');
    const rule: RateRule = { name: String(value.name ?? ''), match: this.match(value.match ?? {}, [...path, 'match']), rates: this.rates(value.rates ?? {}, [...path, 'rates']) };
    if (value.script !== undefined) {
      if (typeof value.script !== 'string' || value.script.trim() === '' || value.script.length > MAX_SCRIPT_LENGTH) {
        this.fail([...path, 'script'], `script must be JavaScript source of at most ${MAX_SCRIPT_LENGTH} characters`);
      } else {
        const syntax = scriptSyntaxError(value.script);
        if (syntax) this.fail([...path, 'script'], `the script does not compile: ${syntax}`);
        else rule.script = value.script;
      }
    }
    if (value.vat_kind !== undefined) {
      if ((VAT_KINDS as readonly unknown[]).includes(value.vat_kind)) rule.vat_kind = value.vat_kind as VatKind;
      else this.fail([...path, 'vat_kind'], `must be one of: ${VAT_KINDS.join(', ')}`);
    }
    return rule;
  }
}

/** Validates and normalizes a definition; every failure is reported (path under `path`). */
export function parseDefinition(value: unknown, path: FieldPath = ['definition']): RatePlanVersionDefinition {
  const checker = new Checker();
  let definition: RatePlanVersionDefinition = { rates: {}, rules: [] };
  if (!isObject(value)) checker.fail(path, 'definition must be an object with rates and rules');
  else {
    checker.unknownKeys(value, ['rates', 'rules'], path);
    const rules = value.rules ?? [];
    if (!Array.isArray(rules) || rules.length > 500) checker.fail([...path, 'rules'], 'rules must be a list of at most 500 rules');
    definition = {
      rates: checker.rates(value.rates ?? {}, [...path, 'rates']),
      rules: Array.isArray(rules) ? rules.map((r, i) => checker.rule(r, [...path, 'rules', i])) : [],
    };
  }
  const { failures } = checker;
  if (failures.length) {
    const [first] = failures;
    throw new InvalidInputError(`${fieldLabel(first.path!)}: ${first.message}`, { path: first.path, details: failures.length > 1 ? failures : undefined });
  }
  return definition;
}
