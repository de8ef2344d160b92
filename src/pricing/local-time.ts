// Wall-clock time of an instant in an IANA time zone, through Intl (DST handled by the zone data),
// remembered per zone and hour.
export interface LocalTime {
  /** YYYY-MM-DD */
  date: string;
  /** Minutes since local midnight. */
  minuteOfDay: number;
  /** ISO weekday: 1 = Monday … 7 = Sunday. */
  weekday: number;
  /** HH:MM */
  clock: string;
}

const formatters = new Map<string, Intl.DateTimeFormat>();
const WEEKDAYS = ['Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat', 'Sun'];

function formatter(timeZone: string): Intl.DateTimeFormat {
  let f = formatters.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone, hourCycle: 'h23', year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', weekday: 'short',
    });
    formatters.set(timeZone, f);
  }
  return f;
}

export function isTimeZone(value: string): boolean {
  if (!value.includes('/') && value !== 'UTC') return false;
  try {
    formatter(value);
    return true;
  } catch {
    return false;
  }
}

function intlLocalTime(at: Date, timeZone: string): LocalTime {
  const parts = Object.fromEntries(formatter(timeZone).formatToParts(at).map((part) => [part.type, part.value]));
  const hour = Number(parts.hour);
  const minute = Number(parts.minute);
  return {
    date: `${parts.year}-${parts.month}-${parts.day}`,
    minuteOfDay: hour * 60 + minute,
    weekday: WEEKDAYS.indexOf(parts.weekday) + 1,
    clock: `${parts.hour}:${parts.minute}`,
  };
}

// The offset (wall clock minus UTC, in ms, seconds included) at the start of each UTC hour asked
// for, per zone. Within an hour that starts and ends at one offset the wall clock is the instant
// plus that offset (no zone changes its offset twice within an hour); any other hour, and
// instants outside the years 1000 to 9999, go to Intl each time. Bounded: when full, it starts over.
const HOUR_MS = 3_600_000;
const MAX_HOURS = 200_000;
const FAST_FROM = Date.UTC(1000, 0, 2);
const FAST_UNTIL = Date.UTC(9999, 11, 30);
const hourOffsets = new Map<string, Map<number, number>>();
let remembered = 0;
const secondFormatters = new Map<string, Intl.DateTimeFormat>();

function offsetAt(timeZone: string, instant: number): number {
  let f = secondFormatters.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone, hourCycle: 'h23', year: 'numeric', month: 'numeric', day: 'numeric', hour: 'numeric', minute: 'numeric', second: 'numeric',
    });
    secondFormatters.set(timeZone, f);
  }
  const p: Record<string, number> = {};
  for (const part of f.formatToParts(instant)) if (part.type !== 'literal') p[part.type] = Number(part.value);
  return Date.UTC(p.year, p.month - 1, p.day, p.hour, p.minute, p.second) - instant;
}

function hourOffset(offsets: Map<number, number>, timeZone: string, hour: number): number {
  let offset = offsets.get(hour);
  if (offset === undefined) {
    offset = offsetAt(timeZone, hour * HOUR_MS);
    if (++remembered > MAX_HOURS) {
      for (const zone of hourOffsets.values()) zone.clear();
      remembered = 1;
    }
    offsets.set(hour, offset);
  }
  return offset;
}

const pad2 = (n: number) => (n < 10 ? `0${n}` : `${n}`);

/** Throws where `localTime` would (an unknown zone, an invalid date), without working the time out. */
export function assertLocalTimeKnown(at: Date, timeZone: string): void {
  formatter(timeZone);
  if (Number.isNaN(at.getTime())) intlLocalTime(at, timeZone);
}

export function localTime(at: Date, timeZone: string): LocalTime {
  const ms = at.getTime();
  formatter(timeZone); // an unknown zone throws here, as Intl does
  if (!(ms >= FAST_FROM && ms <= FAST_UNTIL)) return intlLocalTime(at, timeZone);
  let offsets = hourOffsets.get(timeZone);
  if (!offsets) hourOffsets.set(timeZone, (offsets = new Map()));
  const hour = Math.floor(ms / HOUR_MS);
  const offset = hourOffset(offsets, timeZone, hour);
  if (hourOffset(offsets, timeZone, hour + 1) !== offset) return intlLocalTime(at, timeZone);
  const wall = new Date(ms + offset);
  const h = wall.getUTCHours();
  const m = wall.getUTCMinutes();
  return {
    date: `${wall.getUTCFullYear()}-${pad2(wall.getUTCMonth() + 1)}-${pad2(wall.getUTCDate())}`,
    minuteOfDay: h * 60 + m,
    weekday: ((wall.getUTCDay() + 6) % 7) + 1,
    clock: `${pad2(h)}:${pad2(m)}`,
  };
}

/** "HH:MM" as minutes since midnight (the first two pieces between colons; NaN without a colon). */
export function clockMinutes(clock: string): number {
  const colon = clock.indexOf(':');
  if (colon < 0) return NaN;
  const next = clock.indexOf(':', colon + 1);
  return Number(clock.slice(0, colon)) * 60 + Number(next < 0 ? clock.slice(colon + 1) : clock.slice(colon + 1, next));
}

const MINUTE_MS = 60_000;
const DAY_MINUTES = 1440;

/** Wall clock minus UTC at an instant on a whole minute (offsets of whole minutes, as every zone's since 1972). */
function minuteOffset(at: number, timeZone: string): number {
  const local = localTime(new Date(at), timeZone);
  const [year, month, day] = local.date.split('-').map(Number);
  return Date.UTC(year, month - 1, day) + local.minuteOfDay * MINUTE_MS - at;
}

/**
 * The first instant after `afterMs` at which the wall clock in `timeZone` reads one of `minutes`
 * (minutes of the day, non-empty), or the zone's offset changes (a DST switch can skip a clock
 * time, or repeat it): where a restriction by clock time, date or weekday can change.
 */
export function nextWallClockChange(afterMs: number, minutes: readonly number[], timeZone: string): number {
  const from = Math.floor(afterMs / MINUTE_MS) * MINUTE_MS;
  const now = localTime(new Date(from), timeZone).minuteOfDay;
  let wait = DAY_MINUTES;
  for (const minute of minutes) wait = Math.min(wait, ((minute - now - 1 + DAY_MINUTES) % DAY_MINUTES) + 1);
  const target = from + wait * MINUTE_MS;
  const offset = minuteOffset(from, timeZone);
  if (minuteOffset(target, timeZone) === offset) return target;
  let low = from;
  let high = target;
  while (high - low > MINUTE_MS) {
    const middle = low + Math.floor((high - low) / MINUTE_MS / 2) * MINUTE_MS;
    if (minuteOffset(middle, timeZone) === offset) low = middle;
    else high = middle;
  }
  return high;
}
