// Validation of client input against a yup schema, for both transports: failures become one
// validation_failed DomainError whose details carry field paths as data (REST and GraphQL render them).
import * as yup from 'yup';
import { DomainError, type ErrorDetail } from './errors.ts';
import { yupFieldPath } from './field-path.ts';

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
