// Values a hostile or careless client sends: wrong types, huge and deep values, control
// characters, names of Object members, impossible dates. Generators for fast-check.
import fc from 'fast-check';

/** A JSON value whose objects are written from entry lists, so `__proto__` can be an own key. */
export type RawJson = null | boolean | number | string | RawJson[] | { entries: [string, RawJson][] };

export const PROTOTYPE_KEYS = ['__proto__', 'constructor', 'toString', 'hasOwnProperty', 'valueOf', 'prototype'];

export const IMPOSSIBLE_DATES = [
  '0000-01-01T00:00:00Z', '+275760-09-13T00:00:00Z', '2026-02-30T10:00:00Z', '2026-04-31T00:00:00Z', '2026-13-01T00:00:00Z',
  '2026-01-01T24:00:01Z', '2026-01-01T10:00:00', '2026-01-01', '1899-12-31T23:59:59Z', '10000-01-01T00:00:00Z', '2026-01-01T10:00:00+25:00',
];

const HOSTILE_STRINGS = [
  '', ' ', '\u0000', 'a\u0000b', '\u0001', 'line\nbreak', '\u001f', '\u007f', '\ud800', '\udfff',
  ...PROTOTYPE_KEYS, 'ext_ref.', 'ext_ref.__proto__', '%00', '../../etc/passwd', "' or 1=1 --", '1e400', '-1', 'NaN', 'null', 'true',
  '\u202eevil', '🚗⚡', 'e\u0301', ...IMPOSSIBLE_DATES,
];

const LONG_STRINGS = ['x'.repeat(256), 'x'.repeat(4097), 'ä'.repeat(70_000)];

export const hostileString: fc.Arbitrary<string> = fc.oneof(
  { weight: 6, arbitrary: fc.constantFrom(...HOSTILE_STRINGS) },
  { weight: 1, arbitrary: fc.constantFrom(...LONG_STRINGS) },
  { weight: 2, arbitrary: fc.string({ unit: 'binary', maxLength: 40 }) },
  { weight: 1, arbitrary: fc.string({ maxLength: 12 }) },
);

const hostileNumber = fc.constantFrom(0, -1, -0.5, 1.5, 1e308, -1e308, 2 ** 53 + 2, 5e-324, 123456789.123456);

const deep = (depth: number, leaf: RawJson): RawJson => {
  let value = leaf;
  for (let i = 0; i < depth; i += 1) value = i % 2 ? [value] : { entries: [['a', value]] };
  return value;
};

export const hostileValue: fc.Arbitrary<RawJson> = fc.oneof(
  { weight: 8, arbitrary: hostileString },
  { weight: 3, arbitrary: hostileNumber },
  { weight: 1, arbitrary: fc.constantFrom<RawJson>(true, false, null, [], { entries: [] }) },
  { weight: 1, arbitrary: fc.constantFrom(10, 40, 200).map((depth) => deep(depth, 'x')) },
  { weight: 1, arbitrary: fc.constantFrom(1000, 60_000).map((n) => Array.from({ length: n }, (_, i) => (i % 2 ? 'x' : i))) },
  { weight: 1, arbitrary: fc.constantFrom(...PROTOTYPE_KEYS).map((key): RawJson => ({ entries: [[key, { entries: [['polluted', true]] }]] })) },
  { weight: 1, arbitrary: fc.array(fc.tuple(fc.constantFrom(...PROTOTYPE_KEYS, 'a', '\u0000', ''), hostileString), { maxLength: 4 }).map((entries): RawJson => ({ entries })) },
);

/** JSON text of a RawJson value (own `__proto__` keys survive, unlike JSON.stringify of an object literal). */
export function writeJson(value: RawJson): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'null';
  if (Array.isArray(value)) return `[${value.map(writeJson).join(',')}]`;
  return `{${value.entries.map(([key, member]) => `${JSON.stringify(key)}:${writeJson(member)}`).join(',')}}`;
}
