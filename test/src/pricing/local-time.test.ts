// localTime remembers offsets per zone and hour; it must show what Intl shows, at DST changes and
// in zones with odd offsets and odd transitions too.
import test from 'ava';
import { clockMinutes, localTime } from '../../../src/pricing/local-time.ts';
import { seededRandom } from '../../helpers/seeded-random.ts';

/** The same instants every run. */
const random = seededRandom(2026);

const WEEKDAYS = ['Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat', 'Sun'];

const formatters = new Map<string, Intl.DateTimeFormat>();

function intl(at: Date, timeZone: string) {
  if (!formatters.has(timeZone)) {
    formatters.set(timeZone, new Intl.DateTimeFormat('en-US', {
      timeZone, hourCycle: 'h23', year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', weekday: 'short',
    }));
  }
  const parts = Object.fromEntries(formatters.get(timeZone)!.formatToParts(at).map((p) => [p.type, p.value]));
  return {
    date: `${parts.year}-${parts.month}-${parts.day}`,
    minuteOfDay: Number(parts.hour) * 60 + Number(parts.minute),
    weekday: WEEKDAYS.indexOf(parts.weekday) + 1,
    clock: `${parts.hour}:${parts.minute}`,
  };
}

const ODD = ['Europe/Amsterdam', 'Europe/London', 'America/St_Johns', 'Asia/Kathmandu', 'Australia/Lord_Howe', 'Pacific/Chatham',
  'Pacific/Apia', 'America/Santiago', 'Africa/Casablanca', 'Asia/Tehran', 'Europe/Dublin', 'Antarctica/Troll', 'UTC', 'Etc/GMT+5'];

test('through whole years of odd zones, and at random instants since 1890 in every zone, as Intl shows it', (t) => {
  let compared = 0;
  for (const zone of ODD) {
    for (const year of [1937, 2011, 2024]) {
      const from = Date.UTC(year, 0, 1);
      {
        for (let at = from; at < from + 366 * 86_400_000; at += 97 * 60_000 + 13_000) {
          const date = new Date(at);
          const a = localTime(date, zone);
          const b = intl(date, zone);
          if (a.date !== b.date || a.minuteOfDay !== b.minuteOfDay || a.weekday !== b.weekday || a.clock !== b.clock) {
            t.fail(`${zone} ${date.toISOString()}: ${JSON.stringify(a)} ≠ ${JSON.stringify(b)}`);
            return;
          }
          compared++;
        }
      }
    }
  }
  for (const zone of Intl.supportedValuesOf('timeZone')) {
    for (let i = 0; i < 40; i++) {
      const date = new Date(Date.UTC(1890, 0, 1) + Math.floor(random() * 160 * 365.25 * 86_400_000));
      t.deepEqual(localTime(date, zone), intl(date, zone), `${zone} ${date.toISOString()}`);
      compared++;
    }
  }
  t.true(compared > 50_000);
});

test('an unknown zone and an invalid date fail as Intl does', (t) => {
  t.throws(() => localTime(new Date(), 'Mars/Olympus'), { instanceOf: RangeError });
  t.throws(() => localTime(new Date(Number.NaN), 'Europe/Amsterdam'), { instanceOf: RangeError });
});

test('clockMinutes reads the first two pieces between colons', (t) => {
  t.is(clockMinutes('08:30'), 510);
  t.is(clockMinutes('23:59:59'), 1439);
  t.is(clockMinutes('7:05'), 425);
  t.true(Number.isNaN(clockMinutes('0830')));
  t.true(Number.isNaN(clockMinutes('08:xx')));
});
