import * as yup from 'yup';
import { DomainError, type ErrorDetail } from '../../src/platform/errors.ts';
import { yupFieldPath } from '../../src/platform/field-path.ts';
import { MAX_DETAILS, UNKNOWN_FIELDS_LISTED } from './input-guards.ts';
import { memberPath } from './json-path.ts';

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

/**
 * Validates without coercion (a "12" is not a number) and reports every failed check. A first
 * pass stops at the first failure: yup's full report on a large input can take seconds.
 */
export function validate<S extends yup.AnySchema>(schema: S, value: unknown, where: 'body' | 'query' = 'body'): yup.InferType<S> {
  const options: yup.ValidateOptions = { strict: where === 'body', stripUnknown: false };
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

/**
 * JSONPaths of body members the schema does not declare (for X-SVC-Unknown-Fields); stops one
 * past the number the header lists. Own-property checks: a member named `toString` is unknown.
 */
export function unknownFields(schema: yup.Schema | undefined, value: unknown, path = '$', found: string[] = []): string[] {
  if (!schema || value === null || typeof value !== 'object') return found;
  const s = schema as any;
  if (Array.isArray(value)) {
    if (s.type !== 'array' || !s.innerType) return found;
    for (let i = 0; i < value.length && found.length <= UNKNOWN_FIELDS_LISTED; i++) {
      unknownFields(s.innerType, value[i], `${path}[${i}]`, found);
    }
    return found;
  }
  if (s.type !== 'object' || !s.fields || Object.keys(s.fields).length === 0) return found;
  for (const key of Object.keys(value)) {
    if (found.length > UNKNOWN_FIELDS_LISTED) break;
    const at = memberPath(path, key);
    if (!Object.hasOwn(s.fields, key)) found.push(at);
    else unknownFields(s.fields[key], (value as Record<string, unknown>)[key], at, found);
  }
  return found;
}

/** The query members a schema declares (others are ignored, never handed to yup). */
export function declaredMembers(schema: yup.ObjectSchema<any>, values: Record<string, string>): Record<string, string> {
  const fields = (schema as any).fields as Record<string, unknown>;
  return Object.fromEntries(Object.entries(values).filter(([key]) => Object.hasOwn(fields, key)));
}
