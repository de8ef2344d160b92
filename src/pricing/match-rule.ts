// The first rule whose every condition holds decides (rules are ordered specific → generic).
// Ranges are [min, max); time conditions use the session start in the location's local time.
import { compareDecimal } from '../money/decimal.ts';
import { clockMinutes, localTime, type LocalTime } from './local-time.ts';
import type { RatePlanVersionDefinition, RateRule, RuleMatch } from './rate-plan-definition.ts';
import { normalizePartyId } from '../platform/party-id.ts';

export interface SessionFacts {
  start: Date;
  timeZone: string;
  country: string;
  energyKwh: string;
  durationMinutes: string;
  cpoPartyId?: string;
  tariffCode?: string;
  currentType?: 'AC' | 'DC';
  powerKw?: string;
}

function inRange(value: string | undefined, min: string | undefined, max: string | undefined): boolean {
  if (min === undefined && max === undefined) return true;
  if (value === undefined) return false;
  return (min === undefined || compareDecimal(value, min) >= 0) && (max === undefined || compareDecimal(value, max) < 0);
}

const listed = (list: string[] | undefined, value: string | undefined) =>
  list === undefined || (value !== undefined && list.some((item) => item.toLowerCase() === value.toLowerCase()));

function inWindow(local: LocalTime, window: { from: string; until: string }): boolean {
  const from = clockMinutes(window.from);
  const until = clockMinutes(window.until);
  const now = local.minuteOfDay;
  return from < until ? now >= from && now < until : now >= from || now < until;
}

/** Party ids compare as one id in any spelling (`NL*ABC` = `NLABC` = `nl-abc`), as roaming compares them. */
const partyId = (value: string) => normalizePartyId(value) ?? value.toUpperCase();
const listedParty = (list: string[] | undefined, value: string | undefined) =>
  list === undefined || (value !== undefined && list.some((item) => partyId(item) === partyId(value)));

export function ruleMatches(match: RuleMatch, facts: SessionFacts, local: LocalTime): boolean {
  return listedParty(match.cpo_party_ids, facts.cpoPartyId)
    && listed(match.tariff_codes, facts.tariffCode)
    && listed(match.countries, facts.country)
    && (match.current_type === undefined || match.current_type === facts.currentType)
    && inRange(facts.powerKw, match.min_power_kw, match.max_power_kw)
    && inRange(facts.durationMinutes, match.min_duration_minutes, match.max_duration_minutes)
    && inRange(facts.energyKwh, match.min_energy_kwh, match.max_energy_kwh)
    && (match.time_of_day === undefined || inWindow(local, match.time_of_day))
    && (match.days_of_week === undefined || match.days_of_week.includes(local.weekday))
    && (match.date_from === undefined || local.date >= match.date_from)
    && (match.date_until === undefined || local.date < match.date_until);
}

export interface RuleChoice { rule: RateRule | null; index: number | null; local: LocalTime }

export function chooseRule(definition: RatePlanVersionDefinition, facts: SessionFacts): RuleChoice {
  const local = localTime(facts.start, facts.timeZone);
  const index = definition.rules.findIndex((rule) => ruleMatches(rule.match, facts, local));
  return index < 0 ? { rule: null, index: null, local } : { rule: definition.rules[index], index, local };
}
