// Local dates and invoicing period kinds. The bounds of periods are PostgreSQL's (period-bounds.ts).
import { MAX_YEAR } from '../platform/timestamp.ts';
import { localTime } from '../pricing/local-time.ts';
import type { InvoicingPeriod } from './billing-settings.entity.ts';

export interface Period { from: Date; until: Date }

const MONTHS: Record<InvoicingPeriod, number> = { month: 1, quarter: 3, year: 12 };

export const monthsOf = (period: InvoicingPeriod): number => MONTHS[period];

const MINUTE = 60_000;

/**
 * The first instant of `date` (YYYY-MM-DD) in `timeZone`: its local midnight, or where the clocks
 * skip midnight (Africa/Cairo, Asia/Beirut: 00:00 becomes 01:00) the moment they do. The offset at
 * the wall time, then the first minute of the date near it (offsets change on whole minutes). For
 * dates clients send (custom items, plan versions); a period's bounds are PostgreSQL's (period-bounds.ts).
 */
export function localMidnight(date: string, timeZone: string): Date {
  const [y, m, d] = date.split('-').map(Number);
  const wall = Date.UTC(y, m - 1, d);
  let guess = wall;
  for (let i = 0; i < 3; i++) {
    const local = localTime(new Date(guess), timeZone);
    const [ly, lm, ld] = local.date.split('-').map(Number);
    const shown = Date.UTC(ly, lm - 1, ld) + local.minuteOfDay * 60_000;
    const next = guess - (shown - wall);
    if (next === guess) break;
    guess = next;
  }
  const reached = (at: number) => localTime(new Date(at), timeZone).date >= date;
  if (reached(guess) && !reached(guess - MINUTE)) return new Date(guess);
  // The first minute whose local date is `date`, within a day around the guess.
  let low = guess - 24 * 60 * MINUTE; // not reached
  let high = guess + 24 * 60 * MINUTE; // reached
  while (high - low > MINUTE) {
    const middle = low + Math.floor((high - low) / MINUTE / 2) * MINUTE;
    if (reached(middle)) high = middle; else low = middle;
  }
  return new Date(high);
}

function startMonth(month: number, period: InvoicingPeriod): number {
  return month - ((month - 1) % MONTHS[period]);
}

/** The first instant past year 9999 (UTC): a period ending later has an until that is no RFC 3339 timestamp. */
const PAST_LAST_YEAR = Date.UTC(MAX_YEAR + 1, 0, 1);

/**
 * Whether the period of `at` ends within year 9999 (UTC), its until written with a 4-digit year. Only
 * the last period of local 9999 may end later: at local midnight of 10000-01-01, which is past UTC 9999
 * in a zone at or behind UTC. Decided without the period's bounds: no local date of year 10000 is read.
 */
export function periodEndsByLastYear(at: Date, timeZone: string, kind: InvoicingPeriod): boolean {
  const [y, m] = localTime(at, timeZone).date.split('-').map(Number);
  if (y !== MAX_YEAR) return y < MAX_YEAR;
  if (startMonth(m, kind) - 1 + MONTHS[kind] < 12) return true;
  return !localTime(new Date(PAST_LAST_YEAR - 1), timeZone).date.startsWith(`${MAX_YEAR}-`);
}

/** Whole calendar days between two local dates (YYYY-MM-DD), `until` exclusive. */
export function daysBetween(from: string, until: string): number {
  return Math.round((Date.parse(`${until}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000);
}
