import test from 'ava';
import fc from 'fast-check';
import { parseDate, parseTimestamp } from '../../../src/platform/timestamp.ts';

const instant = (text: string) => parseTimestamp(text)?.toISOString() ?? null;

test('boundaries of the year range and real calendar dates', (t) => {
  t.is(instant('1900-01-01T00:00:00Z'), '1900-01-01T00:00:00.000Z');
  t.is(instant('9999-12-31T23:59:59.999Z'), '9999-12-31T23:59:59.999Z');
  t.is(instant('2024-02-29T12:00:00Z'), '2024-02-29T12:00:00.000Z');
  t.is(instant('2000-02-29T00:00:00Z'), '2000-02-29T00:00:00.000Z', '2000 is a leap year (divisible by 400)');
  for (const text of [
    '2026-02-29T10:00:00Z', '2026-02-30T10:00:00Z', '2026-04-31T00:00:00Z', '1900-02-29T00:00:00Z', '2026-13-01T00:00:00Z',
    '2026-00-10T00:00:00Z', '2026-01-00T00:00:00Z', '2026-01-32T00:00:00Z',
    '0000-01-01T00:00:00Z', '+275760-09-13T00:00:00Z', '-000001-01-01T00:00:00Z', '1899-12-31T23:59:59.999Z', '10000-01-01T00:00:00Z',
  ]) t.is(parseTimestamp(text), null, text);
});

test('the instant in UTC stays in the year range too', (t) => {
  t.is(parseTimestamp('1900-01-01T00:00:00+01:00'), null, 'is 1899-12-31T23:00Z');
  t.is(parseTimestamp('9999-12-31T23:30:00-01:00'), null, 'is 10000-01-01T00:30Z');
  t.is(instant('1900-01-01T00:00:00-01:00'), '1900-01-01T01:00:00.000Z');
});

test('the offset is required: Z or ±hh:mm, up to ±23:59', (t) => {
  t.is(instant('2026-03-02T10:00:00+14:00'), '2026-03-01T20:00:00.000Z');
  t.is(instant('2026-03-02T10:00:00-12:00'), '2026-03-02T22:00:00.000Z');
  t.is(instant('2026-03-02T10:00:00+05:45'), '2026-03-02T04:15:00.000Z');
  t.is(instant('2026-03-02T10:00:00-00:00'), '2026-03-02T10:00:00.000Z');
  t.is(instant('2026-03-02t10:00:00z'), '2026-03-02T10:00:00.000Z', 'RFC 3339 allows lower-case t and z');
  t.is(instant('2026-03-02T00:30:00+01:00'), '2026-03-01T23:30:00.000Z', 'an offset may move the UTC date');
  for (const text of [
    '2026-03-02T10:00:00', '2026-03-02T10:00:00+0100', '2026-03-02T10:00:00+01', '2026-03-02T10:00:00+24:00', '2026-03-02T10:00:00+01:60',
    '2026-03-02T10:00:00 Z', '2026-03-02T10:00:00UTC',
  ]) t.is(parseTimestamp(text), null, text);
});

test('time of day in range, seconds required, leap second refused, fraction cut to milliseconds', (t) => {
  t.is(instant('2026-03-02T23:59:59Z'), '2026-03-02T23:59:59.000Z');
  t.is(instant('2026-03-02T10:00:00.5Z'), '2026-03-02T10:00:00.500Z');
  t.is(instant('2026-03-02T10:00:00.123456789Z'), '2026-03-02T10:00:00.123Z');
  t.is(instant('2026-12-31T23:59:59.9999Z'), '2026-12-31T23:59:59.999Z', 'never rounded into the next second');
  for (const text of [
    '2026-03-02T24:00:00Z', '2026-03-02T23:60:00Z', '2026-12-31T23:59:60Z', '2026-03-02T10:00Z', '2026-03-02T10Z',
    '2026-03-02T10:00:00.Z', '2026-03-02T10:00:00.1234567890Z', '2026-03-02 10:00:00Z', '2026-3-2T10:00:00Z', '２０２６-03-02T10:00:00Z',
    '', ' 2026-03-02T10:00:00Z', '2026-03-02T10:00:00Z\n', '2026-03-02',
  ]) t.is(parseTimestamp(text), null, JSON.stringify(text));
});

test('only strings are read', (t) => {
  for (const value of [undefined, null, 1_767_261_600_000, new Date(), {}, ['2026-03-02T10:00:00Z']]) t.is(parseTimestamp(value), null);
});

test('a timestamp is refused exactly when its day is not real or its instant is out of range; else it is the instant JavaScript reads', (t) => {
  const text = fc.tuple(
    fc.integer({ min: 1900, max: 9999 }), fc.integer({ min: 1, max: 12 }), fc.integer({ min: 1, max: 31 }),
    fc.integer({ min: 0, max: 23 }), fc.integer({ min: 0, max: 59 }), fc.integer({ min: 0, max: 59 }),
    fc.option(fc.stringMatching(/^\d{1,9}$/)), fc.option(fc.tuple(fc.constantFrom('+', '-'), fc.integer({ min: 0, max: 23 }), fc.integer({ min: 0, max: 59 }))),
  ).map(([y, mo, d, h, mi, s, fraction, offset]) => {
    const two = (n: number) => String(n).padStart(2, '0');
    const zone = offset ? `${offset[0]}${two(offset[1])}:${two(offset[2])}` : 'Z';
    return `${y}-${two(mo)}-${two(d)}T${two(h)}:${two(mi)}:${two(s)}${fraction ? `.${fraction}` : ''}${zone}`;
  });
  fc.assert(fc.property(text, (value) => {
    const parsed = parseTimestamp(value);
    const day = Number(value.slice(8, 10));
    const realDay = day === new Date(Date.UTC(Number(value.slice(0, 4)), Number(value.slice(5, 7)) - 1, day)).getUTCDate();
    const reference = new Date(value).getTime(); // JavaScript moves 02-30 to March: only compared on real days
    const inRange = reference >= Date.UTC(1900, 0, 1) && reference < Date.UTC(10000, 0, 1);
    if (!parsed) return !realDay || !inRange;
    return realDay && parsed.getTime() === reference && /^\d{4}-/.test(parsed.toISOString());
  }), { numRuns: 2000 });
  t.pass();
});

test('dates YYYY-MM-DD', (t) => {
  t.deepEqual(parseDate('2024-02-29'), { year: 2024, month: 2, day: 29 });
  t.deepEqual(parseDate('1900-01-01'), { year: 1900, month: 1, day: 1 });
  t.deepEqual(parseDate('9999-12-31'), { year: 9999, month: 12, day: 31 });
  for (const text of ['2026-02-29', '2026-02-30', '2026-04-31', '0000-01-01', '1899-12-31', '10000-01-01', '2026-1-01', '2026-01-01T00:00:00Z', '20260101', '']) {
    t.is(parseDate(text), null, text);
  }
  t.is(parseDate(20260101), null);
});
