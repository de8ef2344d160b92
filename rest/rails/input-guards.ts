// Checks on every client string before validation (docs/decisions.md "Request bodies"): control
// characters and lengths, whatever the route's schema says, so no route can forget them.
import { DomainError, type ErrorDetail } from '../../src/platform/errors.ts';
import { MAX_DETAILS } from '../../src/platform/input-validation.ts';
import { step, trailPath, type Trail } from '../../src/platform/field-path.ts';
import { jsonPath } from '../../src/platform/json-path.ts';
import { ANY_CONTROL, MAX_INPUT_STRING } from '../../src/platform/input-limits.ts';
import { controlFailure, isIdentifierMember } from '../../src/platform/identifier-members.ts';

/** Longest string anywhere in a JSON body (a route's own maximum may be lower). */
export const MAX_BODY_STRING = MAX_INPUT_STRING;
/** Longest query value or path segment. */
export const MAX_URL_VALUE = 1_000;
/** Most items of any array in a body (a route's own maximum may be lower). */
export const MAX_ARRAY_ITEMS = 1_000;

export const hasControl = (value: string): boolean => ANY_CONTROL.test(value);

function stringFailure(value: string, member: string | undefined): string | null {
  if (value.length > MAX_BODY_STRING) return `must be at most ${MAX_BODY_STRING} characters`;
  // Members whose values are identifiers by name (ids, references, codes, usernames, emails): src/platform/identifier-members.ts.
  return controlFailure(value, member !== undefined && isIdentifierMember(member));
}

function walk(value: unknown, trail: Trail | null, member: string | undefined, out: ErrorDetail[]): void {
  if (out.length >= MAX_DETAILS) return;
  if (typeof value === 'string') {
    const failure = stringFailure(value, member);
    if (failure) out.push(failureAt(trail, failure));
  } else if (Array.isArray(value)) {
    // Checking (and validating) huge arrays item by item would hold the event loop for seconds.
    if (value.length > MAX_ARRAY_ITEMS) out.push(failureAt(trail, `must hold at most ${MAX_ARRAY_ITEMS} items`));
    else for (let i = 0; i < value.length && out.length < MAX_DETAILS; i++) walk(value[i], step(trail, i), member, out);
  } else if (value !== null && typeof value === 'object') {
    for (const key of Object.keys(value)) {
      const at = step(trail, key);
      if (hasControl(key)) out.push({ path: trailPath(at), message: 'a member name must not hold control characters' });
      else walk((value as Record<string, unknown>)[key], at, key, out);
      if (out.length >= MAX_DETAILS) return;
    }
  }
}

/** The message names the member as REST does (`$.name must ...`). */
function failureAt(trail: Trail | null, failure: string): ErrorDetail {
  const path = trailPath(trail);
  return { path, message: `${jsonPath(path)} ${failure}` };
}

/** Refuses control characters, over-long strings and arrays anywhere in a parsed body (400 validation_failed). */
export function checkBodyStrings(body: unknown): void {
  const details: ErrorDetail[] = [];
  walk(body, null, undefined, details);
  if (details.length > 0) throw DomainError.of('validation_failed', details);
}

/** A query key or value, a path segment: identifiers all, bounded and without control characters. */
export function urlValueFailure(value: string): string | null {
  if (value.length > MAX_URL_VALUE) return `is longer than ${MAX_URL_VALUE} characters`;
  if (hasControl(value)) return value.includes('\0') ? 'holds a NUL character' : 'holds a control character';
  return null;
}

const MAX_UNKNOWN_FIELDS = 20;
const MAX_HEADER_PATH = 200;

/**
 * X-SVC-Unknown-Fields: at most 20 paths (then `...`), each at most 200 characters, printable
 * ASCII only (other characters and commas as JSON \u escapes) so the header is always valid.
 */
export function unknownFieldsHeader(paths: string[]): string {
  const shown = paths.slice(0, MAX_UNKNOWN_FIELDS).map((path) => {
    const ascii = path.replace(/[^\x20-\x2b\x2d-\x7e]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
    return ascii.length > MAX_HEADER_PATH ? `${ascii.slice(0, MAX_HEADER_PATH - 3)}...` : ascii;
  });
  if (paths.length > MAX_UNKNOWN_FIELDS) shown.push('...');
  return shown.join(',');
}

export const UNKNOWN_FIELDS_LISTED = MAX_UNKNOWN_FIELDS;
