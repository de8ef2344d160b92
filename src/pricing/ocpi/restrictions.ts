// Whether an element's restrictions hold for a charging period, at the period's start in the
// location's wall-clock time (Intl with the session's IANA zone, so DST shifts are honoured).
// Quantities are exact micro-units (src/money/micros.ts); a tariff's restrictions are read once
// per evaluation (`compileRestrictions`), the period's local time once per period.
import { microsFromNumber, type Micros } from '../../money/micros.ts';
import { assertLocalTimeKnown, clockMinutes, localTime, type LocalTime } from '../local-time.ts';
import type { DayOfWeek, ReservationRestriction, TariffRestrictions } from './tariff.ts';

export interface PeriodContext {
  start: Date;
  timeZone: string;
  /** kWh charged before this period. */
  energyBeforeKwh: Micros;
  /** The session's start (ms), for the seconds since then. */
  sessionStartMs: number;
  /** Seconds since the session start, once asked for. */
  secondsSinceStart?: Micros;
  /** Values of the period's CURRENT/MIN_/MAX_CURRENT and POWER/MIN_/MAX_POWER dimensions, when given. */
  dimensions: Map<string, Micros>;
  isReservation: boolean;
  reservationExpired: boolean;
  /** The local time at `start`, once asked for. */
  local?: LocalTime;
  /** Whether `start` and `timeZone` were found to have a local time. */
  localKnown?: boolean;
}

/** An element's restrictions with their numbers and clock times read. */
export interface CompiledRestrictions {
  reservation?: ReservationRestriction;
  /** Whether a clock time, date or day restricts the element. */
  local: boolean;
  startMinute?: number;
  endMinute?: number;
  startDate?: string;
  endDate?: string;
  days?: DayOfWeek[];
  minKwh?: Micros;
  maxKwh?: Micros;
  minDuration?: Micros;
  maxDuration?: Micros;
  minCurrent?: Micros;
  maxCurrent?: Micros;
  minPower?: Micros;
  maxPower?: Micros;
}

const DAYS: DayOfWeek[] = ['MONDAY', 'TUESDAY', 'WEDNESDAY', 'THURSDAY', 'FRIDAY', 'SATURDAY', 'SUNDAY'];

const micros = (n: number | null | undefined) => (n == null ? undefined : microsFromNumber(n));

export function compileRestrictions(r: TariffRestrictions | null | undefined): CompiledRestrictions {
  if (!r) return { local: false };
  const compiled: CompiledRestrictions = {
    reservation: r.reservation || undefined,
    local: false,
    startMinute: r.start_time ? clockMinutes(r.start_time) : undefined,
    endMinute: r.end_time ? clockMinutes(r.end_time) : undefined,
    startDate: r.start_date || undefined,
    endDate: r.end_date || undefined,
    days: r.day_of_week?.length ? r.day_of_week : undefined,
    minKwh: micros(r.min_kwh),
    maxKwh: micros(r.max_kwh),
    minDuration: micros(r.min_duration),
    maxDuration: micros(r.max_duration),
    minCurrent: micros(r.min_current),
    maxCurrent: micros(r.max_current),
    minPower: micros(r.min_power),
    maxPower: micros(r.max_power),
  };
  compiled.local = compiled.startMinute !== undefined || compiled.endMinute !== undefined || compiled.startDate !== undefined
    || compiled.endDate !== undefined || compiled.days !== undefined;
  return compiled;
}

function atLeast(value: Micros | undefined, min: Micros | undefined): boolean {
  if (min === undefined) return true;
  return value !== undefined && value >= min;
}

function below(value: Micros | undefined, max: Micros | undefined): boolean {
  if (max === undefined) return true;
  return value !== undefined && value < max;
}

function firstOf(dimensions: Map<string, Micros>, a: string, b: string, c: string): Micros | undefined {
  return dimensions.get(a) ?? dimensions.get(b) ?? dimensions.get(c);
}

function clockWithin(minute: number, start: number | undefined, end: number | undefined): boolean {
  if (start !== undefined && end !== undefined) {
    if (start === end) return true;
    return start < end ? minute >= start && minute < end : minute >= start || minute < end;
  }
  if (start !== undefined) return minute >= start;
  if (end !== undefined) return minute < end;
  return true;
}

export function withinClock(minute: number, startTime?: string, endTime?: string): boolean {
  return clockWithin(minute, startTime ? clockMinutes(startTime) : undefined, endTime ? clockMinutes(endTime) : undefined);
}

export function restrictionsMatch(r: CompiledRestrictions, p: PeriodContext): boolean {
  const reservation = r.reservation;
  if (!reservation) return !p.isReservation && generalMatch(r, p);
  if (!p.isReservation) return false;
  if (reservation === 'RESERVATION_EXPIRES' && !p.reservationExpired) return false;
  return generalMatch(r, p);
}

function generalMatch(r: CompiledRestrictions, p: PeriodContext): boolean {
  if (r.local) {
    const local = (p.local ??= localTime(p.start, p.timeZone));
    if (!clockWithin(local.minuteOfDay, r.startMinute, r.endMinute)) return false;
    if (r.startDate && local.date < r.startDate) return false;
    if (r.endDate && local.date >= r.endDate) return false;
    if (r.days && !r.days.includes(DAYS[local.weekday - 1])) return false;
  } else if (!p.localKnown) {
    // Checked for every element, restricted by time or not: an unknown zone fails alike.
    assertLocalTimeKnown(p.start, p.timeZone);
    p.localKnown = true;
  }
  if (!atLeast(p.energyBeforeKwh, r.minKwh) || !below(p.energyBeforeKwh, r.maxKwh)) return false;
  if (r.minDuration !== undefined || r.maxDuration !== undefined) {
    const seconds = (p.secondsSinceStart ??= microsFromNumber((p.start.getTime() - p.sessionStartMs) / 1000));
    if (!atLeast(seconds, r.minDuration) || !below(seconds, r.maxDuration)) return false;
  }
  const d = p.dimensions;
  if (r.minCurrent !== undefined && !atLeast(firstOf(d, 'MIN_CURRENT', 'CURRENT', 'MAX_CURRENT'), r.minCurrent)) return false;
  if (r.maxCurrent !== undefined && !below(firstOf(d, 'MAX_CURRENT', 'CURRENT', 'MIN_CURRENT'), r.maxCurrent)) return false;
  if (r.minPower !== undefined && !atLeast(firstOf(d, 'MIN_POWER', 'POWER', 'MAX_POWER'), r.minPower)) return false;
  if (r.maxPower !== undefined && !below(firstOf(d, 'MAX_POWER', 'POWER', 'MIN_POWER'), r.maxPower)) return false;
  return true;
}
