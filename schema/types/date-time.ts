import { GraphQLError, Kind, type ValueNode } from 'graphql';
import { parseTimestamp, TIMESTAMP_FORMAT } from '../../src/platform/timestamp.ts';
import { isoString } from '../../src/platform/iso-time.ts';
import { builder } from '../builder.ts';

/** A DateTime input that is not a timestamp (schema/date-time-literals.ts names the argument of a literal one). */
export class DateTimeInputError extends GraphQLError {}

function parse(value: unknown, node?: ValueNode): Date {
  const instant = parseTimestamp(value);
  if (!instant) throw new DateTimeInputError(`DateTime must be ${TIMESTAMP_FORMAT}; RFC 3339 is a profile of ISO 8601`, { nodes: node });
  return instant;
}

/** decisions.md: input is RFC 3339 with any offset (src/platform/timestamp.ts); output is UTC with Z and milliseconds. */
export const DateTime = builder.scalarType('DateTime', {
  description: 'An RFC 3339 timestamp with an offset, years 1900..9999. Input accepts any offset; output is UTC with milliseconds: '
    + '2026-01-02T09:00:00.000Z.',
  specifiedByURL: 'https://scalars.graphql.org/chillicream/date-time.html',
  coerceOutputValue: (value) => isoString(value),
  coerceInputValue: (value) => parse(value),
  coerceInputLiteral: (node) => parse(node.kind === Kind.STRING ? node.value : undefined, node),
});
