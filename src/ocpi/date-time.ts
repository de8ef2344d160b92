// OCPI DateTime (OCPI 2.2.1 part "Types"): RFC 3339 in UTC, the `Z` optional. Read by the one timestamp
// reader (src/platform/timestamp.ts): a date or time the calendar or the clock does not have
// (2026-02-30, hour 24, month 13, year 0000) is refused, never rolled over by JavaScript's Date.
import { checkedTimestamp, MAX_YEAR, MIN_YEAR, parseTimestamp } from '../platform/timestamp.ts';

/** OCPI DateTime is UTC; a value without an offset gets its Z. */
export function utc(value: string): string {
  return /([Zz]|[+-]\d{2}:\d{2})$/.test(value) ? value : `${value}Z`;
}

/** What a refusal says an OCPI DateTime must be ("… must be <OCPI_DATE_TIME_FORMAT>"). */
export const OCPI_DATE_TIME_FORMAT = 'a DateTime such as 2026-01-02T10:00:00Z (RFC 3339, UTC when no offset is given; '
  + `a real calendar date and time of day, years ${MIN_YEAR}..${MAX_YEAR})`;

/** The instant of an OCPI DateTime, or null when it is not one. */
export function ocpiDateTime(text: unknown): Date | null {
  return typeof text === 'string' ? parseTimestamp(utc(text)) : null;
}

/** The instant of a DateTime the OCPI schema has already checked (validate.ts). */
export function checkedOcpiDateTime(text: string): Date {
  return checkedTimestamp(utc(text));
}
