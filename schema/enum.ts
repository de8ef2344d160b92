import { builder } from './builder.ts';

const constantCase = (value: string) => value.replace(/([a-z0-9])([A-Z])/g, '$1_$2').replace(/[^A-Za-z0-9]+/g, '_').toUpperCase();

/** A GraphQL enum over stored values: `Applies` is APPLIES in GraphQL, the stored value in resolvers. */
export function enumOf<V extends string>(name: string, values: readonly V[], description: string) {
  const config = Object.fromEntries(values.map((value) => [constantCase(value), { value }]));
  return builder.enumType(name, { description, values: config as Record<string, { value: V }> });
}
