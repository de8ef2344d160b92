// Whether a yup schema accepts a value in a strict check, by calling the schema's own tests (its
// internal ones: type, optionality, nullability, oneOf; then its tests; then its members' or items')
// in yup's order, without yup's bookkeeping. yup runs each test through closures, a context object
// and callbacks: for a session body that was two thirds of its validation time and 40 % of what
// the POST allocated. The rules stay the schema's: this only answers true when every test passed;
// false means "not known here", and the caller asks yup, which gives the errors.
//
// Only what it mirrors exactly: the plain schema classes (no tuple, lazy or custom subclass), no
// conditions (`when`) or references, tests that answer synchronously. A test passes as in yup: an
// answer that is truthy, not a ValidationError and not a promise
// (test/src/platform/yup-fast-accept.test.ts compares the two on every REST body schema).
import * as yup from 'yup';

/** What a test's createError answers here: the test fails. */
const FAILED = Symbol('failed');

/** The schema classes whose validation is their tests and, for objects and arrays, their members' or items'. */
const MIRRORED = new Set<unknown>([yup.MixedSchema, yup.StringSchema, yup.NumberSchema, yup.BooleanSchema, yup.DateSchema, yup.ObjectSchema, yup.ArraySchema]);

/** yup's internals this reads (not in its types). */
interface SchemaInternals {
  conditions: unknown[];
  internalTests: Record<string, TestFunction | undefined>;
  tests: TestFunction[];
  spec: { recursive: boolean };
  _nodes: string[];
  fields: Record<string, unknown>;
  innerType?: unknown;
  _typeCheck(value: unknown): boolean;
}

interface TestFunction {
  OPTIONS: { name?: string; skipAbsent?: boolean; test: (this: TestContext, value: unknown, context: TestContext) => unknown };
}

/** The `this` of a test: what yup's gives, but a path (known only for errors). */
interface TestContext {
  path: string;
  parent: unknown;
  type: string | undefined;
  options: object;
  originalValue: unknown;
  schema: unknown;
  createError(): unknown;
  resolve(item: unknown): unknown;
}

class NotMirrored extends Error {}

const isRef = (value: unknown): boolean => typeof value === 'object' && value !== null && (value as { __isYupRef?: boolean }).__isYupRef === true;
/** yup's test of a value whose members an object schema validates. */
const isPlainObject = (value: unknown): value is Record<string, unknown> => Object.prototype.toString.call(value) === '[object Object]';

function passes(test: TestFunction, context: TestContext, schema: unknown, value: unknown, parent: unknown): boolean {
  const { name, skipAbsent, test: check } = test.OPTIONS;
  if (skipAbsent && value == null) return true;
  context.parent = parent;
  context.type = name;
  context.originalValue = value;
  context.schema = schema;
  let answer: unknown;
  try {
    answer = check.call(context, value, context);
  } catch {
    return false;
  }
  return Boolean(answer) && answer !== FAILED && !yup.ValidationError.isError(answer) && typeof (answer as { then?: unknown }).then !== 'function';
}

function accepts(schema: unknown, value: unknown, parent: unknown, context: TestContext): boolean {
  if (!MIRRORED.has((schema as object | null)?.constructor)) return false;
  const s = schema as SchemaInternals;
  if (s.conditions.length) return false;
  for (const test of Object.values(s.internalTests)) if (test && !passes(test, context, schema, value, parent)) return false;
  for (const test of s.tests) if (!passes(test, context, schema, value, parent)) return false;
  if (!s.spec.recursive) return true;
  if (schema instanceof yup.ObjectSchema) {
    if (!isPlainObject(value)) return true;
    for (const key of s._nodes) {
      const field = s.fields[key];
      if (!field || isRef(field)) continue;
      if (!accepts(field, value[key], value, context)) return false;
    }
  } else if (schema instanceof yup.ArraySchema && s.innerType && s._typeCheck(value)) {
    const items = value as unknown[];
    for (let i = 0; i < items.length; i++) if (!accepts(s.innerType, items[i], items, context)) return false;
  }
  return true;
}

/** True when a strict check of `value` by `schema` passes (`options`: the test's `this.options`); false: ask yup. */
export function fastAccepts(schema: yup.AnySchema, value: unknown, options: object): boolean {
  const context: TestContext = {
    path: '', parent: undefined, type: undefined, options, originalValue: value, schema,
    createError: () => FAILED,
    resolve: (item) => {
      if (isRef(item)) throw new NotMirrored('a reference');
      return item;
    },
  };
  return accepts(schema, value, undefined, context);
}
