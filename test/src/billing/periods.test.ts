// The first instant of a local date (src/billing/periods.ts localMidnight): custom items' dates and
// plans' start dates (invoicing periods' bounds are PostgreSQL's: test/rest/billing/billing-month.test.ts). Found by checking every zone and day: where the clocks
// skip midnight (Africa/Cairo, Asia/Beirut: 00:00 becomes 01:00) it answered 23:00 of the day before.
import test from 'ava';
import fc from 'fast-check';
import { localMidnight } from '../../../src/billing/periods.ts';
import { localTime } from '../../../src/pricing/local-time.ts';

const MINUTE = 60_000;

/** Whether `at` is the first minute of `date` in `zone`: on that date, the minute before not. */
function startsDate(at: Date, date: string, zone: string): boolean {
  return localTime(at, zone).date === date && localTime(new Date(at.getTime() - MINUTE), zone).date < date;
}

test('dates whose midnight the clocks skip start when the clocks jump; others at midnight', (t) => {
  const cases: [string, string, string][] = [
    ['2026-04-24', 'Africa/Cairo', '2026-04-23T22:00:00.000Z'], // 00:00 +02 becomes 01:00 +03
    ['2026-03-29', 'Asia/Beirut', '2026-03-28T22:00:00.000Z'],
    ['2026-09-06', 'America/Santiago', '2026-09-06T04:00:00.000Z'], // 00:00 -04 becomes 01:00 -03
    ['2026-03-29', 'Europe/Amsterdam', '2026-03-28T23:00:00.000Z'], // the switch is at 02:00
    ['2026-10-25', 'Europe/Amsterdam', '2026-10-24T22:00:00.000Z'],
    ['2026-11-01', 'America/New_York', '2026-11-01T04:00:00.000Z'],
    ['2026-01-01', 'Asia/Kolkata', '2025-12-31T18:30:00.000Z'],
  ];
  for (const [date, zone, expected] of cases) {
    const at = localMidnight(date, zone);
    t.is(at.toISOString(), expected, `${date} ${zone}`);
    t.true(startsDate(at, date, zone));
  }
});

test('every zone, any day: the answer is the first minute of that date there', (t) => {
  const zones = Intl.supportedValuesOf('timeZone');
  fc.assert(fc.property(fc.constantFrom(...zones), fc.integer({ min: 0, max: 366 * 12 }), (zone, offset) => {
    const date = new Date(Date.UTC(2020, 0, 1) + offset * 86_400_000).toISOString().slice(0, 10);
    return startsDate(localMidnight(date, zone), date, zone);
  }), { numRuns: 5000, seed: 20261128 });
  // The days of the year around each zone's changes, where it matters.
  for (const zone of ['Africa/Cairo', 'Asia/Beirut', 'America/Santiago', 'America/Asuncion', 'America/Havana', 'Asia/Tehran']) {
    for (let day = Date.UTC(2026, 0, 1); day < Date.UTC(2027, 0, 1); day += 86_400_000) {
      const date = new Date(day).toISOString().slice(0, 10);
      if (!startsDate(localMidnight(date, zone), date, zone)) t.fail(`${date} ${zone}: ${localMidnight(date, zone).toISOString()}`);
    }
  }
  t.pass();
});
