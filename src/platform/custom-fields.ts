// custom_fields: a flat map the client fills freely, bounded (docs/decisions.md "Request bodies").
import { InvalidInputError } from './errors.ts';
import type { FieldPath } from './field-path.ts';
import { mergePatch } from './merge-patch.ts';

export const CUSTOM_FIELDS_MAX_KEYS = 50;
export const CUSTOM_FIELD_KEY_MAX = 64;
export const CUSTOM_FIELD_VALUE_MAX = 1000;

const CONTROL = /[\u0000-\u001f\u007f]/;
const TEXT_CONTROL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/;

/** Why the member `key: value` of custom_fields is refused, or null when it is fine. */
export function customFieldFailure(key: string, value: unknown): string | null {
  if (key.length === 0 || key.length > CUSTOM_FIELD_KEY_MAX) return `a custom field name has 1 to ${CUSTOM_FIELD_KEY_MAX} characters`;
  if (key === '__proto__') return 'a custom field may not be named __proto__';
  if (CONTROL.test(key)) return 'a custom field name must not hold control characters';
  if (value !== null && !['string', 'number', 'boolean'].includes(typeof value)) {
    return 'a custom field value is a string, number, boolean or null';
  }
  if (typeof value === 'string') {
    if (value.length > CUSTOM_FIELD_VALUE_MAX) return `a custom field value has at most ${CUSTOM_FIELD_VALUE_MAX} characters`;
    if (TEXT_CONTROL.test(value)) return 'a custom field value must not hold control characters other than tab and line breaks';
  }
  return null;
}

/** Merges a patch (null removes a field) into stored custom fields: the result holds at most 50 fields. */
export function mergeCustomFields(current: unknown, patch: unknown, path: FieldPath = ['custom_fields']): Record<string, unknown> {
  const merged = mergePatch(current ?? {}, patch) as Record<string, unknown>;
  if (Object.keys(merged).length > CUSTOM_FIELDS_MAX_KEYS) {
    throw new InvalidInputError(`custom_fields would hold more than ${CUSTOM_FIELDS_MAX_KEYS} fields`, { path });
  }
  return merged;
}
