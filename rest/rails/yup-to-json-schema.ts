// yup schemas → JSON Schema 2020-12 (the dialect of OpenAPI 3.1), from schema.describe().
import type * as yup from 'yup';
import { CUSTOM_FIELD_KEY_MAX, CUSTOM_FIELD_VALUE_MAX, CUSTOM_FIELDS_MAX_KEYS } from '../../src/platform/custom-fields.ts';
import { MAX_ARRAY_ITEMS, MAX_BODY_STRING, MAX_URL_VALUE } from './input-guards.ts';

export type JsonSchema = Record<string, unknown>;

interface Description {
  type: string;
  optional?: boolean;
  nullable?: boolean;
  oneOf?: unknown[];
  tests?: { name?: string; params?: Record<string, unknown> }[];
  meta?: Record<string, unknown>;
  label?: string;
  fields?: Record<string, Description>;
  innerType?: Description;
}

/** Custom tests of src/platform/input-schemas.ts that say something a client can use. */
const CUSTOM_TESTS: Record<string, JsonSchema> = {
  timestamp: { format: 'date-time' },
  // Any casing; the value must be an officially assigned code (src/platform/countries.ts).
  country: { minLength: 2, maxLength: 2, pattern: '^[A-Za-z]{2}$' },
  'custom-fields': {
    maxProperties: CUSTOM_FIELDS_MAX_KEYS,
    propertyNames: { minLength: 1, maxLength: CUSTOM_FIELD_KEY_MAX },
    additionalProperties: { type: ['string', 'number', 'boolean', 'null'], maxLength: CUSTOM_FIELD_VALUE_MAX },
  },
};

const FORMAT_TESTS: Record<string, string> = { email: 'email', url: 'uri', uuid: 'uuid', datetime: 'date-time' };

const BOUND_KEYWORDS: Record<string, Record<string, string>> = {
  string: { min: 'minLength', max: 'maxLength' },
  array: { min: 'minItems', max: 'maxItems' },
  number: { min: 'minimum', max: 'maximum', more: 'exclusiveMinimum', less: 'exclusiveMaximum' },
};

function applyTests(described: Description, out: JsonSchema): void {
  const keywords = BOUND_KEYWORDS[described.type] ?? {};
  for (const test of described.tests ?? []) {
    const name = test.name ?? '';
    const params = test.params ?? {};
    if (name === 'min' || name === 'max' || name === 'length') {
      for (const [param, value] of Object.entries(params)) {
        if (typeof value !== 'number') continue;
        if (param === 'length' && keywords.min) {
          out[keywords.min] = value;
          out[keywords.max] = value;
        } else if (keywords[param]) {
          out[keywords[param]] = value;
        }
      }
    } else if (name === 'integer' && described.type === 'number') {
      out.type = 'integer';
    } else if (name === 'matches' && params.regex instanceof RegExp && !params.regex.flags.includes('i')) {
      out.pattern = params.regex.source;
    } else if (name === 'one-of' && Array.isArray(params.values)) {
      out.enum = [...params.values];
    } else if (FORMAT_TESTS[name]) {
      out.format = FORMAT_TESTS[name];
    } else if (CUSTOM_TESTS[name]) {
      Object.assign(out, CUSTOM_TESTS[name]);
    }
  }
}

/** `maxString`: the rails' limit for a string without a maximum of its own; arrays likewise (rest/rails/input-guards.ts). */
function convert(described: Description, maxString: number): JsonSchema {
  const out: JsonSchema = {};
  switch (described.type) {
    case 'string': case 'number': case 'boolean': case 'object': case 'array':
      out.type = described.type;
      break;
    case 'date':
      out.type = 'string';
      out.format = 'date-time';
      break;
  }
  applyTests(described, out);
  if (described.type === 'object' && described.fields) {
    const fields = Object.entries(described.fields);
    if (fields.length > 0) {
      out.properties = Object.fromEntries(fields.map(([name, field]) => [name, convert(field, maxString)]));
      const required = fields.filter(([, field]) => field.optional === false).map(([name]) => name);
      if (required.length) out.required = required;
    }
  }
  if (described.type === 'array' && described.innerType) out.items = convert(described.innerType, maxString);
  const enumValues = (described.oneOf ?? []).filter((value) => value !== undefined);
  if (enumValues.length) out.enum = enumValues;
  if (described.type === 'string' && out.maxLength === undefined && out.enum === undefined) out.maxLength = maxString;
  if (described.type === 'array' && out.maxItems === undefined) out.maxItems = MAX_ARRAY_ITEMS;
  if (described.nullable) {
    if (typeof out.type === 'string') out.type = [out.type, 'null'];
    if (Array.isArray(out.enum) && !out.enum.includes(null)) out.enum = [...out.enum, null];
  }
  if (described.label) out.title = described.label;
  const meta = described.meta ?? {};
  // A schema written out (an OCPI object a member takes): the document shows it instead of what yup
  // checks, with the rails' bounds on every string and array of it (checkBodyStrings applies them).
  if (meta.jsonSchema && typeof meta.jsonSchema === 'object') return bounded(meta.jsonSchema as JsonSchema, maxString);
  if (typeof meta.description === 'string') out.description = meta.description;
  if (meta.deprecated === true) out.deprecated = true;
  return out;
}

/** A written-out schema with the rails' limits where it sets none: strings of at most `maxString`, arrays of MAX_ARRAY_ITEMS. */
function bounded(schema: JsonSchema, maxString: number): JsonSchema {
  const out: JsonSchema = {};
  for (const [key, value] of Object.entries(schema)) {
    if (key === 'properties' && value && typeof value === 'object') {
      out[key] = Object.fromEntries(Object.entries(value).map(([name, member]) => [name, bounded(member as JsonSchema, maxString)]));
    } else if (['items', 'additionalProperties', 'not'].includes(key) && value && typeof value === 'object' && !Array.isArray(value)) {
      out[key] = bounded(value as JsonSchema, maxString);
    } else if (['prefixItems', 'anyOf', 'oneOf', 'allOf'].includes(key) && Array.isArray(value)) {
      out[key] = value.map((member) => bounded(member as JsonSchema, maxString));
    } else {
      out[key] = value;
    }
  }
  const types = [schema.type].flat();
  if (types.includes('string') && out.maxLength === undefined && out.enum === undefined && out.const === undefined) out.maxLength = maxString;
  if (types.includes('array') && out.maxItems === undefined) out.maxItems = MAX_ARRAY_ITEMS;
  return out;
}

export function toJsonSchema(schema: yup.Schema): JsonSchema {
  return convert(schema.describe() as unknown as Description, MAX_BODY_STRING);
}

/** A yup object schema's members, each with its JSON Schema and whether it is required. */
export function objectMembers(schema: yup.Schema): { name: string; required: boolean; schema: JsonSchema }[] {
  const described = schema.describe() as unknown as Description;
  return Object.entries(described.fields ?? {}).map(([name, field]) => ({
    name, required: field.optional === false, schema: convert(field, MAX_URL_VALUE),
  }));
}
