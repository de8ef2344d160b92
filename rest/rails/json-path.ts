// REST names the place of a failure as a JSONPath below the request body (decisions.md "Errors"):
// `$.charge_periods[0].dimensions[1].type`, `$["a b"]` for a member that is no plain name, `$` for
// the whole body. The domain hands over the place as data (src/platform/field-path.ts).
import type { FieldPath } from '../../src/platform/field-path.ts';

const SIMPLE_KEY = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** JSONPath of member `key` below `path`: `$.a` or `$["a b"]` (as the JSON parser reports it). */
export function memberPath(path: string, key: string): string {
  return SIMPLE_KEY.test(key) ? `${path}.${key}` : `${path}[${JSON.stringify(key)}]`;
}

export function jsonPath(path: FieldPath): string {
  let rendered = '$';
  for (const part of path) rendered = typeof part === 'number' ? `${rendered}[${part}]` : memberPath(rendered, part);
  return rendered;
}
