// fastAccepts (src/platform/yup-fast-accept.ts) accepts only what yup accepts: on every REST body
// schema with generated bodies (members of the schema's own kinds, of wrong types, absent), and on
// schemas of the constructs it leaves to yup. Where a schema is mirrored whole it accepts exactly
// what yup accepts (a false "not known" would only cost time, but it would hide a mirror gone wrong).
import test from 'ava';
import fc from 'fast-check';
import * as yup from 'yup';
import { routes } from '../../../rest/routes.ts';
import { chargeSessionBody } from '../../../rest/sessions/session-body.ts';
import { fastAccepts } from '../../../src/platform/yup-fast-accept.ts';

const OPTIONS = { strict: true, abortEarly: true, stripUnknown: false };

/** yup's strict answer; a test that throws something else than a ValidationError is a refusal too. */
function yupAccepts(schema: yup.AnySchema, value: unknown): boolean {
  try {
    return schema.isValidSync(value, OPTIONS);
  } catch {
    return false;
  }
}

type Internals = {
  conditions: unknown[]; fields?: Record<string, unknown>; _nodes?: string[]; innerType?: unknown; _whitelist: Set<unknown>;
  tests: { OPTIONS: { params?: Record<string, unknown> } }[];
};
const internals = (schema: unknown) => schema as Internals;
const isRef = (value: unknown) => (value as { __isYupRef?: boolean } | null)?.__isYupRef === true;

/** Whether fastAccepts mirrors the whole schema (plain classes, no conditions, no references in members, lists or test parameters). */
function mirroredWhole(schema: unknown): boolean {
  const plain = [yup.MixedSchema, yup.StringSchema, yup.NumberSchema, yup.BooleanSchema, yup.ObjectSchema, yup.ArraySchema];
  if (!plain.some((kind) => (schema as object).constructor === kind)) return false;
  const s = internals(schema);
  if (s.conditions.length || [...s._whitelist].some(isRef) || s.tests.some((test) => Object.values(test.OPTIONS.params ?? {}).some(isRef))) return false;
  if (schema instanceof yup.ObjectSchema) return Object.values(s.fields!).every((field) => !isRef(field) && mirroredWhole(field));
  if (schema instanceof yup.ArraySchema && s.innerType) return mirroredWhole(s.innerType);
  return true;
}

const STRINGS = ['', 'x', 'NL', 'nl', 'XX', 'EUR', 'eur', 'Europe/Amsterdam', 'Mars/Base', '2026-10-01T10:00:00Z', '2026-10-01T10:00:00+01:00',
  '2026-13-01T10:00:00Z', '2026-10-01', '12.5', '0', '-1', '0.1234567', '1e3', 'NL*BEN', 'XX*BEN', 'NL-BEN-C12345678-X', 'NL*BEN*E1',
  '0190a5d2-6b1e-7c3a-8f00-1234567890ab', 'not-a-uuid', 'dc', 'DC', 'ac_3phase', 'cable', 'energy', 'TIME', 'a@b.nl', 'x'.repeat(300), 'e\u0301'];

/** A value of the schema's kind (its listed values among them), or now and then of another kind, or absent. */
function valueOf(schema: unknown, depth = 0): fc.Arbitrary<unknown> {
  const other = fc.oneof(fc.constant(null), fc.constant(undefined), fc.integer(), fc.boolean(), fc.constantFrom(...STRINGS), fc.constant({}), fc.constant([]));
  return fc.oneof({ weight: 5, arbitrary: ownValue(schema, depth) }, { weight: 1, arbitrary: other });
}

function ownValue(schema: unknown, depth: number): fc.Arbitrary<unknown> {
  const s = internals(schema);
  const listed = [...(s._whitelist ?? [])].filter((value) => !isRef(value));
  if (schema instanceof yup.ObjectSchema) {
    if (depth > 3) return fc.constant({});
    const members = Object.fromEntries(s._nodes!.map((key) => [key, valueOf(s.fields![key], depth + 1)]));
    return fc.record(members, { requiredKeys: [] });
  }
  if (schema instanceof yup.ArraySchema) return fc.array(s.innerType ? valueOf(s.innerType, depth + 1) : fc.jsonValue({ maxDepth: 1 }), { maxLength: 3 });
  if (schema instanceof yup.StringSchema) return fc.oneof(fc.constantFrom(...STRINGS, ...listed.filter((v) => typeof v === 'string')), fc.string({ maxLength: 12 }));
  if (schema instanceof yup.NumberSchema) return fc.oneof(fc.constantFrom(0, 1, -1, 1.5, 59, 31_622_400, 31_622_401, 1e21), fc.integer(), fc.double());
  if (schema instanceof yup.BooleanSchema) return fc.boolean();
  return listed.length ? fc.constantFrom(...listed) : fc.jsonValue({ maxDepth: 2 });
}

test('on every REST body schema, what fastAccepts accepts yup accepts, and a schema mirrored whole gets yup\'s answer', (t) => {
  const bodies = routes.filter((route) => route.body).map((route) => [`${route.method} ${route.path}`, route.body!] as const);
  let checked = 0;
  let accepted = 0;
  let schemasWithAccepted = 0;
  let mirrored = 0;
  for (const [name, schema] of bodies) {
    const whole = mirroredWhole(schema);
    if (whole) mirrored++;
    let acceptedHere = 0;
    fc.assert(fc.property(valueOf(schema), (value) => {
      const fast = fastAccepts(schema, value, OPTIONS);
      const slow = yupAccepts(schema, value);
      checked++;
      if (slow) acceptedHere++;
      return fast ? slow : !(whole && slow);
    }), { numRuns: 150, seed: 7, verbose: true, examples: [[{}]] });
    accepted += acceptedHere;
    if (acceptedHere > 0) schemasWithAccepted++;
    t.pass(name);
  }
  t.log(`${bodies.length} body schemas (${mirrored} mirrored whole), ${checked} bodies, ${accepted} of them accepted, by ${schemasWithAccepted} schemas`);
  // The generator reaches valid bodies too: the mirror's acceptance is tested, not only its refusals.
  t.true(schemasWithAccepted >= bodies.length / 2, `${schemasWithAccepted} of ${bodies.length} schemas saw a valid body`);
  t.true(mirrored >= bodies.length / 2, `${mirrored} of ${bodies.length} schemas are mirrored whole`);
});

test('a valid session body is accepted without yup, and each wrong member makes it ask yup', (t) => {
  const body = {
    session_id: 'S-1', cpo_id: 'NL*ABC', evco_id: 'NL-ABC-C12345678-X', start_date_time: '2026-03-02T10:00:00+01:00',
    end_date_time: '2026-03-02T11:00:00+01:00', total_energy_kwh: '10', time_zone: 'Europe/Amsterdam',
    address: { city: 'Utrecht', country: 'NL' }, evse_id: 'NL*ABC*E1', charge_periods: [{ start_date_time: '2026-03-02T10:00:00Z', dimensions: [{ type: 'ENERGY', volume: '10' }] }],
  };
  t.true(fastAccepts(chargeSessionBody, body, OPTIONS));
  const wrong: [string, unknown][] = [['cpo_id', 'XX*ABC'], ['total_energy_kwh', '-1'], ['time_zone', 'Mars/Base'], ['address', { city: 'Utrecht' }],
    ['charge_periods', [{ start_date_time: '2026-03-02T10:00:00Z', dimensions: [{ type: 'TIME', volume: '1' }] }]], ['session_id', 5], ['evse_id', null]];
  for (const [member, value] of wrong) {
    const changed = { ...body, [member]: value };
    t.false(yupAccepts(chargeSessionBody, changed), member);
    t.false(fastAccepts(chargeSessionBody, changed, OPTIONS), member);
  }
});

test('constructs it leaves to yup, and tests that answer otherwise than true or false', (t) => {
  const after = yup.number().test('after', 'after from', function (value) {
    return value === undefined || this.parent.from === undefined || value > this.parent.from;
  });
  const cases: [string, yup.AnySchema, unknown[], boolean][] = [
    ['a condition', yup.object({ a: yup.string(), b: yup.string().when('a', { is: 'x', then: (s) => s.defined() }) }), [{ a: 'x' }, { a: 'x', b: 'y' }, { a: 'y' }], false],
    ['a reference', yup.object({ a: yup.number(), b: yup.number().min(yup.ref('a')) }), [{ a: 2, b: 1 }, { a: 1, b: 2 }], false],
    ['a reference in oneOf', yup.object({ a: yup.string(), b: yup.string().oneOf([yup.ref('a')]) }), [{ a: 'x', b: 'x' }, { a: 'x', b: 'y' }], false],
    ['lazy', yup.object({ a: yup.lazy(() => yup.string().max(1)) }), [{ a: 'x' }, { a: 'xy' }], false],
    ['a tuple', yup.object({ a: yup.tuple([yup.string().defined(), yup.number().defined()]) }), [{ a: ['x', 1] }, { a: [1, 'x'] }], false],
    ['a test reading its parent', yup.object({ from: yup.number(), until: after }), [{ from: 1, until: 2 }, { from: 2, until: 1 }, { until: 1 }], true],
    ['a truthy answer that is not true', yup.string().test('a', 'starts with a', (value) => (value === undefined || value.match(/^a/)) as unknown as boolean), ['ab', 'ba'], true],
    ['createError', yup.string().test('x', 'not x', function (value) { return value === 'x' ? this.createError() : true; }), ['x', 'y'], true],
    ['a throwing test', yup.string().test('boom', 'boom', () => { throw new Error('boom'); }), ['x'], true],
    ['a promise', yup.string().test('later', 'later', async () => true), ['x'], true],
    ['nullable, optional, oneOf, notOneOf, noUnknown', yup.object({
      a: yup.string().nullable().oneOf(['x', 'y', null]), b: yup.number().defined().notOneOf([3]), c: yup.array(yup.object({ d: yup.boolean().defined() })).min(1),
    }).noUnknown(), [{ a: null, b: 1, c: [{ d: true }] }, { a: 'z', b: 1, c: [{ d: true }] }, { b: 3, c: [{ d: true }] }, { b: 1, c: [] },
      { b: 1, c: [{}] }, { b: 1, c: [{ d: true }], e: 1 }, { c: [{ d: true }] }], true],
  ];
  for (const [name, schema, values, mirrored] of cases) {
    t.is(mirroredWhole(schema), mirrored, name);
    for (const value of values) {
      const fast = fastAccepts(schema, value, OPTIONS);
      const slow = yupAccepts(schema, value);
      if (fast) t.true(slow, `${name}: ${JSON.stringify(value)}`);
      if (mirrored) t.is(fast, slow, `${name}: ${JSON.stringify(value)}`);
      else t.false(fast, `${name} is left to yup: ${JSON.stringify(value)}`);
    }
  }
});
