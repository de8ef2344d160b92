import { GraphQLError, Kind } from 'graphql';
import { timestamp } from '../../rest/rails/schemas.ts';
import { builder } from '../builder.ts';

const isTimestamp = timestamp().defined();

function parse(value: unknown): Date {
  if (typeof value !== 'string' || !isTimestamp.isValidSync(value, { strict: true })) {
    throw new GraphQLError('DateTime must be an ISO 8601 timestamp with an offset, e.g. 2026-01-02T10:00:00Z');
  }
  return new Date(value);
}

/** decisions.md: input accepts any offset; output is UTC with Z and milliseconds. */
export const DateTime = builder.scalarType('DateTime', {
  description: 'An ISO 8601 timestamp. Input accepts any offset; output is UTC with milliseconds: 2026-01-02T09:00:00.000Z.',
  specifiedByURL: 'https://scalars.graphql.org/chillicream/date-time.html',
  coerceOutputValue: (value) => value.toISOString(),
  coerceInputValue: parse,
  coerceInputLiteral: (node) => parse(node.kind === Kind.STRING ? node.value : undefined),
});
