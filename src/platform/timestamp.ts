// The one reader of client timestamps and dates (decisions.md "Limits"): RFC 3339 with an
// offset, years 1900..9999, real calendar dates. JavaScript's Date takes 2026-02-30 as 2 March
// and years PostgreSQL cannot store, so client text never goes to `new Date(text)` directly.

const DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,9}))?(?:[Zz]|([+-])(\d{2}):(\d{2}))$/;
const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

export const MIN_YEAR = 1900;
export const MAX_YEAR = 9999;
const FIRST_INSTANT = Date.UTC(MIN_YEAR, 0, 1);
const LAST_INSTANT = Date.UTC(MAX_YEAR + 1, 0, 1) - 1;

/** What a refusal says a value must be ("… must be <TIMESTAMP_FORMAT>"). */
export const TIMESTAMP_FORMAT = 'an RFC 3339 timestamp with an offset such as 2026-01-02T10:00:00Z or 2026-01-02T11:00:00+01:00 '
  + `(a real calendar date, years ${MIN_YEAR}..${MAX_YEAR})`;
export const DATE_FORMAT = `a date YYYY-MM-DD (a real calendar date, years ${MIN_YEAR}..${MAX_YEAR})`;

export interface CalendarDate {
  year: number;
  /** 1..12 */
  month: number;
  day: number;
}

function daysInMonth(year: number, month: number): number {
  if (month === 2) return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0 ? 29 : 28;
  return [4, 6, 9, 11].includes(month) ? 30 : 31;
}

function calendarDate(year: string, month: string, day: string): CalendarDate | null {
  const date = { year: Number(year), month: Number(month), day: Number(day) };
  if (date.year < MIN_YEAR || date.year > MAX_YEAR || date.month < 1 || date.month > 12) return null;
  return date.day >= 1 && date.day <= daysInMonth(date.year, date.month) ? date : null;
}

/** A `YYYY-MM-DD` date (path dates, rule date windows), or null when it is not a real one. */
export function parseDate(text: unknown): CalendarDate | null {
  if (typeof text !== 'string') return null;
  const match = DATE.exec(text);
  return match ? calendarDate(match[1], match[2], match[3]) : null;
}

/**
 * An RFC 3339 date-time, or null. Seconds and the offset (`Z` or `±hh:mm`) are required; a
 * fraction of up to 9 digits is cut to milliseconds (never rounded into the next second).
 * Second 60 (a leap second) is refused: neither JavaScript nor PostgreSQL can hold it. The
 * written date and the instant in UTC both lie in years 1900..9999.
 */
export function parseTimestamp(text: unknown): Date | null {
  if (typeof text !== 'string') return null;
  const match = DATE_TIME.exec(text);
  if (!match) return null;
  const [, year, month, day, hour, minute, second, fraction, sign, offsetHour, offsetMinute] = match;
  const date = calendarDate(year, month, day);
  if (!date || Number(hour) > 23 || Number(minute) > 59 || Number(second) > 59) return null;
  let offsetMinutes = 0;
  if (sign) {
    if (Number(offsetHour) > 23 || Number(offsetMinute) > 59) return null;
    offsetMinutes = (sign === '-' ? -1 : 1) * (Number(offsetHour) * 60 + Number(offsetMinute));
  }
  const millis = fraction ? Number(fraction.slice(0, 3).padEnd(3, '0')) : 0;
  const instant = Date.UTC(date.year, date.month - 1, date.day, Number(hour), Number(minute) - offsetMinutes, Number(second), millis);
  return instant >= FIRST_INSTANT && instant <= LAST_INSTANT ? new Date(instant) : null;
}

/** The instant of a timestamp a schema has already checked with parseTimestamp. */
export function checkedTimestamp(text: string): Date {
  const instant = parseTimestamp(text);
  if (!instant) throw new TypeError(`not a checked timestamp: ${text.slice(0, 40)}`);
  return instant;
}
