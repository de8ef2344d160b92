// The one error body of /main/v1 (decisions.md "Errors"), for every 4xx and 5xx answer.
import { ERROR_CODES, type ErrorCode } from '../../src/platform/error-codes.ts';
import { representation, t, type Infer } from './shape.ts';

const detail = t.object({
  param: t.optional(t.string()),
  query_param: t.optional(t.string()),
  message: t.string(),
});

export const errorShape = representation('Error', {
  /** The catalogue (src/platform/error-codes.ts, docs/errors.md). */
  code: t.enum(Object.keys(ERROR_CODES) as ErrorCode[]),
  message: t.string(),
  param: t.optional(t.string('JSONPath of the offending body member, e.g. `$.name`.')),
  query_param: t.optional(t.string('The offending query parameter.')),
  details: t.optional(t.array(detail)),
});

export type ErrorBody = Infer<typeof errorShape>;
