// The transports (REST's `param`, GraphQL's `param` extension, the CLI) write the place of a
// failure as a JSONPath below the request body (decisions.md "Errors"): the root `$`, then
// `.member`, `[index]`, or `["a b"]` for a member that is no plain name. The domain hands over
// the place as data (field-path.ts) and never writes a JSONPath itself.
import type { FieldPath } from './field-path.ts';

const SIMPLE_KEY = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** JSONPath of member `key` below `path` (a plain name after a dot, else in brackets, as the JSON parser reports it). */
export function memberPath(path: string, key: string): string {
  return SIMPLE_KEY.test(key) ? `${path}.${key}` : `${path}[${JSON.stringify(key)}]`;
}

export function jsonPath(path: FieldPath): string {
  let rendered = '$';
  for (const part of path) rendered = typeof part === 'number' ? `${rendered}[${part}]` : memberPath(rendered, part);
  return rendered;
}
