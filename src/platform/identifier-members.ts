// Which client strings are identifiers by the name of their member (docs/decisions.md "Request
// bodies"): ids, references, codes, usernames, emails, prefixes hold no control character at all,
// tab and line breaks included (no path segment or query value could name them); free text may
// hold tab and line breaks. One rule for REST's members (rest/rails/input-guards.ts, snake_case)
// and GraphQL's arguments and input fields (schema/input-strings.ts, camelCase).
import { ANY_CONTROL, TEXT_CONTROL } from './input-limits.ts';

/** Member names, as REST spells them, whose values are identifiers. */
const IDENTIFIER_MEMBER = /(^|_)(id|ids|uid|reference|code|codes|username|email|prefix)$/;

/** A REST member name (`external_reference`, `admin_ids`, `evse_uid`, `username`). */
export const isIdentifierMember = (member: string): boolean => IDENTIFIER_MEMBER.test(member);

/** A GraphQL argument or input field name, read as REST spells the member (`externalReference` is `external_reference`). */
export const isIdentifierField = (field: string): boolean => isIdentifierMember(field.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`));

/** What is wrong with the control characters of a client string ("must not hold ..."), or null. */
export function controlFailure(value: string, identifier: boolean): string | null {
  if (identifier) return ANY_CONTROL.test(value) ? 'must not hold control characters' : null;
  return TEXT_CONTROL.test(value) ? 'must not hold control characters other than tab and line breaks' : null;
}
