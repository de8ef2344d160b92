// Response representations, described once: the OpenAPI document's JSON Schema and the TypeScript
// type a serializer must return both come from the same shape, so they cannot drift apart.
//
//   export const customerShape = representation('Customer', { id: t.string(), name: t.nullable(t.string()) });
//   export function serializeCustomer(c: Customer): Infer<typeof customerShape> { ... }
//
// Objects are strict (every member required unless t.optional, no other members), as served.
import type { JsonSchema } from './yup-to-json-schema.ts';

export interface Field<T> {
  /** Phantom: the TypeScript type of the value. */
  readonly __type?: T;
  toJsonSchema(components: SchemaComponents): JsonSchema;
}

/** A member that may be absent (never null unless also t.nullable). */
export interface OptionalField<T> extends Field<T> {
  readonly optional: true;
}

type Fields = Record<string, Field<unknown>>;

export type Infer<F> = F extends Field<infer T> ? T : never;

type OptionalKeys<S extends Fields> = { [K in keyof S]: S[K] extends OptionalField<unknown> ? K : never }[keyof S];
type Simplify<T> = { [K in keyof T]: T[K] } & {};

export type ObjectOf<S extends Fields> = Simplify<
  { [K in Exclude<keyof S, OptionalKeys<S>>]: Infer<S[K]> } & { [K in OptionalKeys<S>]?: Infer<S[K]> }
>;

/** The named schemas of the document (components/schemas), collected while schemas are built. */
export class SchemaComponents {
  readonly schemas: Record<string, JsonSchema> = {};
  private readonly owners = new Map<string, Field<unknown>>();

  ref(name: string, owner: Field<unknown>, build: () => JsonSchema): JsonSchema {
    const known = this.owners.get(name);
    if (known && known !== owner) throw new Error(`two different representations are named ${name}`);
    if (!known) {
      this.owners.set(name, owner);
      this.schemas[name] = build();
    }
    return { $ref: `#/components/schemas/${name}` };
  }
}

const field = <T>(schema: JsonSchema): Field<T> => ({ toJsonSchema: () => ({ ...schema }) });
const described = (schema: JsonSchema, description?: string): JsonSchema => (description ? { ...schema, description } : schema);

function objectSchema(fields: Fields, components: SchemaComponents, description?: string): JsonSchema {
  const entries = Object.entries(fields);
  const required = entries.filter(([, member]) => !(member as Partial<OptionalField<unknown>>).optional).map(([name]) => name);
  const schema: JsonSchema = {
    type: 'object',
    properties: Object.fromEntries(entries.map(([name, member]) => [name, member.toJsonSchema(components)])),
    additionalProperties: false,
  };
  if (required.length) schema.required = required;
  if (description) schema.description = description;
  return schema;
}

/** A file a route answers instead of JSON (documents). */
export interface FileAnswer {
  file: { contentType: string; bytes: Buffer; filename: string };
}

export const t = {
  /** A file answer (the route lists its content types in `produces`). */
  file: (): Field<FileAnswer> => field({ type: 'string', format: 'binary' }),
  string: (description?: string): Field<string> => field(described({ type: 'string' }, description)),
  /** An RFC 3339 timestamp as the service writes it (UTC, milliseconds). */
  timestamp: (): Field<string> => field({ type: 'string', format: 'date-time' }),
  /** An exact decimal number as a string ("12.50"); never a JSON number. */
  decimal: (): Field<string> => field({ type: 'string', pattern: '^-?\\d+(\\.\\d+)?$' }),
  integer: (description?: string): Field<number> => field(described({ type: 'integer' }, description)),
  number: (): Field<number> => field({ type: 'number' }),
  boolean: (): Field<boolean> => field({ type: 'boolean' }),
  enum: <const V extends string>(values: readonly V[]): Field<V> => field({ type: 'string', enum: [...values] }),

  nullable<T>(inner: Field<T>): Field<T | null> {
    return {
      toJsonSchema(components) {
        const schema = inner.toJsonSchema(components);
        if (typeof schema.type !== 'string') return { anyOf: [schema, { type: 'null' }] };
        const nullable: JsonSchema = { ...schema, type: [schema.type, 'null'] };
        if (Array.isArray(schema.enum)) nullable.enum = [...schema.enum, null];
        return nullable;
      },
    };
  },

  optional<T>(inner: Field<T>): OptionalField<T> {
    return { optional: true, toJsonSchema: (components) => inner.toJsonSchema(components) };
  },

  array<T>(item: Field<T>): Field<T[]> {
    return { toJsonSchema: (components) => ({ type: 'array', items: item.toJsonSchema(components) }) };
  },

  /** Exactly one of two shapes, which must not overlap (a batch item's answer: its result or an Error). */
  oneOf<A, B>(a: Field<A>, b: Field<B>): Field<A | B> {
    return { toJsonSchema: (components) => ({ oneOf: [a.toJsonSchema(components), b.toJsonSchema(components)] }) };
  },

  /** An inline object; use representation() for one that has a name in the document. */
  object<S extends Fields>(fields: S, description?: string): Field<ObjectOf<S>> {
    return { toJsonSchema: (components) => objectSchema(fields, components, description) };
  },

  /** custom_fields: a flat object of strings, numbers and booleans. */
  customFields: (): Field<Record<string, string | number | boolean>> =>
    field({ type: 'object', additionalProperties: { type: ['string', 'number', 'boolean'] } }),

  /**
   * A raw JSON object kept exactly as a peer sent it (an OCPI message that failed its checks): any
   * members. The OpenAPI test allows it only where it lists (test/rest/rails/openapi-typed.test.ts).
   */
  raw: <T = Record<string, unknown>>(description: string): Field<T> => field({ type: 'object', additionalProperties: true, description }),

  /**
   * An object whose keys are data (a rule script's annotation names, the fields of a change, units):
   * each value of the given kind. Allowed only where the OpenAPI test lists it.
   */
  map<T>(value: Field<T>, description: string): Field<Record<string, T>> {
    return { toJsonSchema: (components) => ({ type: 'object', additionalProperties: value.toJsonSchema(components), description }) };
  },

  /** A value whose JSON Schema is written out (an OCPI object's, a body's as received), typed as T. */
  schema: <T>(schema: Record<string, unknown>): Field<T> => field(schema),
};

/** A representation with a name: components/schemas/<name> in the document. */
export function representation<S extends Fields>(name: string, fields: S, description?: string): Field<ObjectOf<S>> & { fields: S } {
  const self: Field<ObjectOf<S>> & { fields: S } = {
    fields,
    toJsonSchema: (components) => components.ref(name, self, () => objectSchema(fields, components, description)),
  };
  return self;
}
