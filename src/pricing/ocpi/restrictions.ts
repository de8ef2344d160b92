// Whether an element's restrictions hold for a charging period, at the period's start in the
// location's wall-clock time (Intl with the session's IANA zone, so DST shifts are honoured).
import { compareDecimal, decimalFromNumber } from '../../money/decimal.ts';
import { clockMinutes, localTime } from '../local-time.ts';
import type { DayOfWeek, TariffRestrictions } from './tariff.ts';

export interface PeriodContext {
  start: Date;
  timeZone: string;
  /** kWh charged before this period. */
  energyBeforeKwh: string;
  /** Seconds since the session start. */
  secondsSinceStart: string;
  /** Values of the period's CURRENT/MIN_/MAX_CURRENT and POWER/MIN_/MAX_POWER dimensions, when given. */
  dimensions: Map<string, string>;
  isReservation: boolean;
  reservationExpired: boolean;
}

const DAYS: DayOfWeek[] = ['MONDAY', 'TUESDAY', 'WEDNESDAY', 'THURSDAY', 'FRIDAY', 'SATURDAY', 'SUNDAY'];

function atLeast(value: string | undefined, min: number | undefined): boolean {
  if (min == null) return true;
  return value !== undefined && compareDecimal(value, decimalFromNumber(min)) >= 0;
}

function below(value: string | undefined, max: number | undefined): boolean {
  if (max == null) return true;
  return value !== undefined && compareDecimal(value, decimalFromNumber(max)) < 0;
}

function firstOf(dimensions: Map<string, string>, ...types: string[]): string | undefined {
  for (const type of types) if (dimensions.has(type)) return dimensions.get(type);
  return undefined;
}

export function withinClock(minute: number, startTime?: string, endTime?: string): boolean {
  const start = startTime ? clockMinutes(startTime) : undefined;
  const end = endTime ? clockMinutes(endTime) : undefined;
  if (start !== undefined && end !== undefined) {
    if (start === end) return true;
    return start < end ? minute >= start && minute < end : minute >= start || minute < end;
  }
  if (start !== undefined) return minute >= start;
  if (end !== undefined) return minute < end;
  return true;
}

export function restrictionsMatch(r: TariffRestrictions | null | undefined, p: PeriodContext): boolean {
  const reservation = r?.reservation;
  if (!reservation) return !p.isReservation && generalMatch(r ?? {}, p);
  if (!p.isReservation) return false;
  if (reservation === 'RESERVATION_EXPIRES' && !p.reservationExpired) return false;
  return generalMatch(r, p);
}

function generalMatch(r: TariffRestrictions, p: PeriodContext): boolean {
  const local = localTime(p.start, p.timeZone);
  if (!withinClock(local.minuteOfDay, r.start_time, r.end_time)) return false;
  if (r.start_date && local.date < r.start_date) return false;
  if (r.end_date && local.date >= r.end_date) return false;
  if (r.day_of_week?.length && !r.day_of_week.includes(DAYS[local.weekday - 1])) return false;
  if (!atLeast(p.energyBeforeKwh, r.min_kwh) || !below(p.energyBeforeKwh, r.max_kwh)) return false;
  if (!atLeast(p.secondsSinceStart, r.min_duration) || !below(p.secondsSinceStart, r.max_duration)) return false;
  const d = p.dimensions;
  if (!atLeast(firstOf(d, 'MIN_CURRENT', 'CURRENT', 'MAX_CURRENT'), r.min_current)) return false;
  if (!below(firstOf(d, 'MAX_CURRENT', 'CURRENT', 'MIN_CURRENT'), r.max_current)) return false;
  if (!atLeast(firstOf(d, 'MIN_POWER', 'POWER', 'MAX_POWER'), r.min_power)) return false;
  if (!below(firstOf(d, 'MAX_POWER', 'POWER', 'MIN_POWER'), r.max_power)) return false;
  return true;
}

