// isoString writes what Date.prototype.toISOString writes, for every valid instant (extended
// years, before 1970, day boundaries, the day cache overflowing) and throws as it does for an invalid one.
import test from 'ava';
import fc from 'fast-check';
import { isoString } from '../../../src/platform/iso-time.ts';

const MAX = 8.64e15;

test('equal to toISOString at the edges', (t) => {
  for (const ms of [-MAX, MAX, 0, -1, 1, 86_399_999, 86_400_000, -86_400_000, -86_400_001, 253402300799999, 253402300800000,
    -62167219200000, -62167219200001, Date.UTC(2026, 9, 1, 8, 0, 0, 123), Date.UTC(1969, 11, 31, 23, 59, 59, 999)]) {
    t.is(isoString(new Date(ms)), new Date(ms).toISOString(), String(ms));
  }
});

test('equal to toISOString for any instant', (t) => {
  fc.assert(fc.property(fc.integer({ min: -MAX, max: MAX }), (ms) => isoString(new Date(ms)) === new Date(ms).toISOString()), { numRuns: 20_000 });
  // Many days in a row: the day cache is cleared and filled again.
  for (let day = 0; day < 10_000; day++) {
    const ms = Date.UTC(2000, 0, 1) + day * 86_400_000 + (day * 7919) % 86_400_000;
    t.is(isoString(new Date(ms)), new Date(ms).toISOString());
  }
});

test('an invalid Date throws as toISOString does', (t) => {
  t.throws(() => isoString(new Date(Number.NaN)), { instanceOf: RangeError });
});
