import * as yup from 'yup';
import { DomainError, type ErrorDetail } from '../../src/platform/errors.ts';

function toJsonPath(yupPath: string | undefined): string {
  if (!yupPath) return '$';
  return yupPath.startsWith('[') ? `$${yupPath}` : `$.${yupPath}`;
}

/** Validates without coercion (a "12" is not a number) and reports every failed check. */
export function validate<S extends yup.AnySchema>(schema: S, value: unknown, where: 'body' | 'query' = 'body'): yup.InferType<S> {
  try {
    return schema.validateSync(value, { strict: where === 'body', abortEarly: false, stripUnknown: false }) as yup.InferType<S>;
  } catch (error) {
    if (!(error instanceof yup.ValidationError)) throw error;
    const failures = error.inner.length ? error.inner : [error];
    const details: ErrorDetail[] = failures.map((failure) => where === 'body'
      ? { param: toJsonPath(failure.path), message: failure.message }
      : { query_param: failure.path ?? '', message: failure.message });
    const first = details[0];
    throw new DomainError('validation_failed', first.message, {
      param: first.param,
      queryParam: first.query_param,
      details: details.length > 1 ? details : undefined,
    });
  }
}

/** JSONPaths of body members the schema does not declare (for X-SVC-Unknown-Fields). */
export function unknownFields(schema: yup.Schema | undefined, value: unknown, path = '$'): string[] {
  if (!schema || value === null || typeof value !== 'object') return [];
  const s = schema as any;
  if (Array.isArray(value)) {
    if (s.type !== 'array' || !s.innerType) return [];
    return value.flatMap((item, i) => unknownFields(s.innerType, item, `${path}[${i}]`));
  }
  if (s.type !== 'object' || !s.fields || Object.keys(s.fields).length === 0) return [];
  const found: string[] = [];
  for (const [key, member] of Object.entries(value as Record<string, unknown>)) {
    const memberPath = `${path}.${key}`;
    if (!(key in s.fields)) found.push(memberPath);
    else found.push(...unknownFields(s.fields[key], member, memberPath));
  }
  return found;
}
