import * as yup from 'yup';
import { checkBodyStrings, UNKNOWN_FIELDS_LISTED } from './input-guards.ts';
import { memberPath } from '../../src/platform/json-path.ts';
import { DomainError } from '../../src/platform/errors.ts';
import { validate } from '../../src/platform/input-validation.ts';

/**
 * A JSON object body as the schema reads it: control characters and lengths first (input-guards.ts),
 * then the members the schema does not know (to `unknownFound`), then yup.
 */
export function checkedBody<S extends yup.ObjectSchema<any>>(schema: S, body: unknown, unknownFound?: (paths: string[]) => void): yup.InferType<S> {
  if (body === undefined) throw new DomainError('validation_failed', 'a JSON body is required', { path: [] });
  if (body === null || typeof body !== 'object' || Array.isArray(body)) {
    throw new DomainError('validation_failed', 'the body must be a JSON object', { path: [] });
  }
  checkBodyStrings(body);
  if (unknownFound) {
    const unknown = unknownFields(schema, body);
    if (unknown.length) unknownFound(unknown);
  }
  return validate(schema, body);
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
