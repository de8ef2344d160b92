// Text that names something on a document (a customer, an addressee, a line) and holds only
// white space names nothing: it is refused where it is written, at its member. One home for the rule.
import { InvalidInputError } from './errors.ts';
import type { FieldPath } from './field-path.ts';

/** 400 `invalid_input` at `path` when `value` is text of white space only; null and absent pass (their own rules apply). */
export function refuseBlank(value: string | null | undefined, path: FieldPath): void {
  if (typeof value === 'string' && value.trim() === '') throw new InvalidInputError(`${path.join('.')} must not be blank`, { path });
}
