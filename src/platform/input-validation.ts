// Validation of client input against a yup schema, for both transports: failures become one
// validation_failed DomainError whose details carry field paths as data (REST and GraphQL render them).
import * as yup from 'yup';
import { DomainError, type ErrorDetail } from './errors.ts';
import { yupFieldPath } from './field-path.ts';
import { fastAccepts } from './yup-fast-accept.ts';

/** Most `details` one answer lists. */
export const MAX_DETAILS = 50;

/** Values in `value`, counted up to `limit` + 1. */
function countValues(value: unknown, limit: number, count = 0): number {
  count++;
  if (value !== null && typeof value === 'object') {
    for (const member of Object.values(value)) {
      if (count > limit) break;
      count = countValues(member, limit, count);
    }
  }
  return count;
}

/** Above this many values a refused input reports its first failure only (each yup failure costs). */
const FULL_REPORT_VALUES = 500;

/** yup's report: every failed check, or the first when the input is large. */
function failuresOf(schema: yup.AnySchema, value: unknown, options: yup.ValidateOptions, first: yup.ValidationError): yup.ValidationError[] {
  if (countValues(value, FULL_REPORT_VALUES) > FULL_REPORT_VALUES) return [first];
  try {
    schema.validateSync(value, { ...options, abortEarly: false });
  } catch (error) {
    if (error instanceof yup.ValidationError) return error.inner.length ? error.inner : [error];
    throw error;
  }
  return [first];
}

/** Anything a member's checks read besides its value (its siblings, the context) throws. */
const UNREADABLE = new Proxy({}, { get: () => { throw new Error('read'); }, has: () => { throw new Error('read'); } });

/** The members of an object schema whose checks pass when the member is absent and read nothing else (decided once). */
const absentPasses = new WeakMap<yup.AnyObjectSchema, Set<string>>();

function membersPassingAbsent(schema: yup.AnyObjectSchema): Set<string> {
  let members = absentPasses.get(schema);
  if (!members) {
    members = new Set();
    for (const [key, field] of Object.entries(schema.fields)) {
      try {
        if ((field as yup.AnySchema).isValidSync(undefined, { strict: true, abortEarly: true, parent: UNREADABLE, context: UNREADABLE } as yup.ValidateOptions)) members.add(key);
      } catch {
        // Its checks read more than the value: checked whether present or not.
      }
    }
    absentPasses.set(schema, members);
  }
  return members;
}

/** Object schemas without the members that may be skipped, by schema and the members kept (a few shapes of body each). */
const narrowed = new WeakMap<yup.AnyObjectSchema, Map<string, yup.AnyObjectSchema>>();
const NARROWED_SHAPES = 64;

/**
 * The schema a strict check of `value` runs: an object body's absent members whose checks pass
 * when absent are left out (the same answer: nothing is cast in a strict check, and their checks
 * pass), so a body of 12 members of a schema of 45 runs the checks of 12 (yup's cost per member
 * is a few microseconds even when the member is absent).
 */
function strictSchema(schema: yup.AnySchema, value: unknown): yup.AnySchema {
  if (!(schema instanceof yup.ObjectSchema) || value === null || typeof value !== 'object' || Array.isArray(value)) return schema;
  const passing = membersPassingAbsent(schema);
  const fields = Object.keys(schema.fields);
  const kept = fields.filter((key) => !passing.has(key) || Object.hasOwn(value, key));
  if (kept.length === fields.length) return schema;
  let shapes = narrowed.get(schema);
  if (!shapes) narrowed.set(schema, shapes = new Map());
  const shape = kept.join(',');
  let narrow = shapes.get(shape);
  if (!narrow) {
    if (shapes.size >= NARROWED_SHAPES) return schema;
    shapes.set(shape, narrow = schema.pick(kept));
  }
  return narrow;
}

/**
 * Validates without coercion (a "12" is not a number) and reports every failed check. A first
 * pass stops at the first failure: yup's full report on a large input can take seconds.
 */
export function validate<S extends yup.AnySchema>(schema: S, value: unknown, where: 'body' | 'query' = 'body'): yup.InferType<S> {
  const options: yup.ValidateOptions = { strict: where === 'body', stripUnknown: false };
  if (options.strict) {
    const narrow = strictSchema(schema, value);
    // The schema's tests called directly (yup-fast-accept.ts), else yup; a failure is reported by
    // the whole schema, below.
    if (fastAccepts(narrow, value, { ...options, abortEarly: true })) return value as yup.InferType<S>;
    if (narrow !== schema && narrow.isValidSync(value, { ...options, abortEarly: true })) return value as yup.InferType<S>;
  }
  try {
    return schema.validateSync(value, { ...options, abortEarly: true }) as yup.InferType<S>;
  } catch (error) {
    if (!(error instanceof yup.ValidationError)) throw error;
    const failures = failuresOf(schema, value, options, error).slice(0, MAX_DETAILS);
    const details: ErrorDetail[] = failures.map((failure) => where === 'body'
      ? { path: yupFieldPath(failure.path), message: failure.message }
      : { queryParam: failure.path ?? '', message: failure.message });
    throw DomainError.of('validation_failed', details);
  }
}
