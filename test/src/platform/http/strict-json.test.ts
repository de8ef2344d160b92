// The strict JSON parser's numbers (src/platform/http/strict-json.ts): a literal is accepted exactly
// when the double it reads as holds it, i.e. the literal and the double's shortest form are the same
// decimal (decimal.js compares them here); integers beyond 2^53 and out-of-range literals are refused.
// The parser answers short literals without comparing digits: this checks that on every shape of
// literal, short and long, with and without a fraction or an exponent.
import test from 'ava';
import { Decimal } from 'decimal.js';
import fc from 'fast-check';
import { parseStrictJson } from '../../../../src/platform/http/strict-json.ts';

const digits = (min: number, max: number) => fc.string({ unit: fc.constantFrom(...'0123456789'), minLength: min, maxLength: max });

/** Literals of JSON's number grammar: up to 20 integer digits, 20 decimals, a 3-digit exponent. */
const literal = fc.tuple(
  fc.boolean(),
  fc.oneof(fc.constant('0'), fc.tuple(fc.constantFrom(...'123456789'), digits(0, 19)).map(([first, rest]) => first + rest)),
  fc.option(digits(1, 20), { nil: undefined }),
  fc.option(fc.tuple(fc.constantFrom('e', 'E'), fc.constantFrom('', '+', '-'), digits(1, 3)).map((parts) => parts.join('')), { nil: undefined }),
).map(([negative, int, fraction, exponent]) => `${negative ? '-' : ''}${int}${fraction === undefined ? '' : `.${fraction}`}${exponent ?? ''}`);

/** What the parser must answer for a literal: its value, or the reason it refuses it. */
function expected(text: string): { value: number } | { refused: string } {
  const value = Number(text);
  if (!Number.isFinite(value)) return { refused: 'number out of range' };
  if (/^-?\d+$/.test(text) && !Number.isSafeInteger(value)) return { refused: 'integer beyond double precision' };
  if (!new Decimal(text).equals(new Decimal(value.toExponential()))) return { refused: 'number beyond double precision' };
  return { value };
}

function parsed(text: string): { value: number } | { refused: string } {
  try {
    return { value: (parseStrictJson(`[${text}]`) as number[])[0] };
  } catch (error) {
    return { refused: (error as Error).message };
  }
}

const EDGES = ['0', '-0', '0.1', '0.3', '1.5', '123456789012345', '-12345678901234', '0.000000000001', '1234567890.12345', '9007199254740993',
  '0.1000000000000000055511151231257827', '1.0000000000000001', '100000000000000000000', '1e400', '-1e-400', '2.5e-324', '5e-324', '1E22', '1e23'];

test('a number is accepted exactly when the double holds it, short literals included', (t) => {
  const check = (text: string) => {
    const want = expected(text);
    const got = parsed(text);
    if ('value' in want) return 'value' in got && Object.is(got.value, want.value);
    return 'refused' in got && got.refused.startsWith(want.refused);
  };
  for (const edge of EDGES) t.true(check(edge), edge);
  fc.assert(fc.property(literal, check), { seed: 7, numRuns: 20_000 });
  // Doubles as JavaScript writes them (their shortest form): accepted with their value, but for
  // integers beyond 2^53 written without an exponent.
  fc.assert(fc.property(fc.double({ noNaN: true, noDefaultInfinity: true }), (value) => {
    const got = parsed(String(value));
    if (/^-?\d+$/.test(String(value)) && !Number.isSafeInteger(value)) return 'refused' in got;
    return 'value' in got && got.value === value;
  }), { seed: 7, numRuns: 5_000 });
});
