// yup building blocks of input schemas, shared by REST route schemas and GraphQL input rules.
import * as yup from 'yup';
import { isCountryCode } from './countries.ts';
import { isUuid } from './ids.ts';
import { CUSTOM_FIELDS_MAX_KEYS, customFieldFailure } from './custom-fields.ts';
import { checkedTimestamp, parseTimestamp, TIMESTAMP_FORMAT } from './timestamp.ts';
import { isoString } from './iso-time.ts';

/** An RFC 3339 timestamp with an offset (src/platform/timestamp.ts; decisions.md "Limits"). */
export const timestamp = () => yup.string().test('timestamp', `\${path} must be ${TIMESTAMP_FORMAT}`,
  (value) => value === undefined || value === null || parseTimestamp(value) !== null);

/** A UUID (record ids in filters): anything else is 400 before any query. */
export const uuid = () => yup.string().test('uuid', '${path} must be an id (a UUID)', (value) => value === undefined || value === null || isUuid(value));

/**
 * A country: an officially assigned ISO 3166-1 alpha-2 code (src/platform/countries.ts), in any
 * casing; anything else (`XX`, `EU`, `NLD`) is 400 at its member or query parameter.
 */
export const countryCode = () => yup.string().test('country', '${path} must be an officially assigned ISO 3166-1 alpha-2 country code',
  (value) => value === undefined || value === null || isCountryCode(value));
export const text = (max = 255) => yup.string().max(max, '${path} must be at most ${max} characters');

/**
 * A record's own external reference: 1 to 255 characters; null removes it. "" is refused: no
 * `ext_ref.` path could name it, and it is a value all the same, unique like any other.
 */
export const externalRef = () => text().min(1, '${path} must not be empty (null removes it)');

/**
 * A coordinate as a decimal string with at most `decimals` decimals (the range is the service's
 * check): 6 for stored coordinates (OCPI's precision), more for a device's position in a search.
 */
export const coordinate = (decimals = 6) => yup.string().matches(new RegExp(`^-?\\d{1,3}(\\.\\d{1,${decimals}})?$`),
  `\${path} must be a decimal string such as "52.090737" (at most ${decimals} decimals)`);

/** Strings that must already be Unicode NFC (usernames, emails, billing_email). */
export const nfcText = (max = 255) => text(max).test('nfc', '${path} must be Unicode NFC normalized', (value) => {
  return value === undefined || value === null || value === value.normalize('NFC');
});

export const email = () => nfcText(254).matches(/^[^\s@]+@[^\s@]+$/, { message: '${path} must be an email address', excludeEmptyString: true });

/**
 * One of a list of values: the one building block of enumerations, in bodies, query filters (an
 * unknown value is 400 naming the `query_param`) and GraphQL arguments; the OpenAPI document lists
 * the values as `enum`. A list completed at run time (the event kinds the entities register) is
 * passed as a function, read when a value is checked and when the document is built.
 */
export function oneOf<T extends string>(values: readonly T[] | (() => readonly T[])): yup.StringSchema<T | undefined> {
  if (typeof values !== 'function') {
    return yup.string().oneOf([...values], `\${path} must be one of: ${values.join(', ')}`) as unknown as yup.StringSchema<T | undefined>;
  }
  const listed = values;
  return yup.string().test({
    name: 'one-of',
    message: ({ path }: { path: string }) => `${path} must be one of: ${listed().join(', ')}`,
    // Read by rest/rails/yup-to-json-schema.ts (describe() copies the params, so the getter runs then).
    params: { get values() { return [...listed()]; } },
    test: (value) => value === undefined || value === null || (listed() as readonly string[]).includes(value),
  }) as unknown as yup.StringSchema<T | undefined>;
}

/** A yes/no query filter, `true` or `false`: an enumeration like any other (anything else is 400 at the filter). */
export const booleanFilter = () => oneOf(['true', 'false'] as const);

/**
 * Custom fields: a flat object of strings, numbers, booleans (null removes a field on merge), at most
 * 50 members, names of 1..64 characters, strings of at most 1000 (src/platform/custom-fields.ts).
 */
export const customFields = () => yup.object().test('custom-fields', '${path} values must be strings, numbers, booleans or null', function (value) {
  if (value === undefined || value === null) return true;
  const keys = Object.keys(value);
  if (keys.length > CUSTOM_FIELDS_MAX_KEYS) {
    return this.createError({ message: `\${path} holds at most ${CUSTOM_FIELDS_MAX_KEYS} fields` });
  }
  for (const key of keys) {
    const failure = customFieldFailure(key, (value as Record<string, unknown>)[key]);
    if (failure) {
      const at = /^[A-Za-z_][A-Za-z0-9_]*$/.test(key) ? `${this.path}.${key}` : `${this.path}[${JSON.stringify(key)}]`;
      return this.createError({ path: at, message: `${at}: ${failure}` });
    }
  }
  return true;
});

/** The instant of a field checked with timestamp(). */
export const isoDate = (value: string | null | undefined): Date | null | undefined =>
  value === undefined ? undefined : value === null ? null : checkedTimestamp(value);

export function iso(value: Date): string;
export function iso(value: Date | null | undefined): string | null;
export function iso(value: Date | null | undefined): string | null {
  return value ? isoString(value) : null;
}
