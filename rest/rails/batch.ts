// Batch operations (a route's `bodyItems`): the body is a JSON array, each item is checked as the
// single operation checks its body and answered on its own, a failure as that operation's Error
// body with its places below the item (`$[3].total_energy_kwh`; decisions.md "Batched submission").
import type * as yup from 'yup';
import { DomainError } from '../../src/platform/errors.ts';
import { MAX_BODY_BYTES } from '../../src/platform/http/body.ts';
import type { ErrorBody } from './error-shape.ts';
import { errorBody } from './errors.ts';
import { UNKNOWN_FIELDS_LISTED } from './input-guards.ts';
import { checkedBody, unknownFields } from './validation.ts';

export interface BodyItems { schema: yup.ObjectSchema<any>; max: number }

/** A batch body: an array of 1 to `max` items, else 400 for the whole request; members no item's schema knows go to `unknownFound`. */
export function batchItems(items: BodyItems, body: unknown, unknownFound: (paths: string[]) => void): unknown[] {
  if (body === undefined) throw new DomainError('validation_failed', 'a JSON body is required: an array of items', { path: [] });
  if (!Array.isArray(body)) throw new DomainError('validation_failed', 'the body must be a JSON array of items', { path: [] });
  if (body.length === 0) throw new DomainError('validation_failed', 'the body must hold at least one item', { path: [] });
  if (body.length > items.max) {
    throw new DomainError('validation_failed', `the body must hold at most ${items.max} items (it holds ${body.length})`, { path: [] });
  }
  const unknown: string[] = [];
  for (let i = 0; i < body.length && unknown.length <= UNKNOWN_FIELDS_LISTED; i++) unknownFields(items.schema, body[i], `$[${i}]`, unknown);
  if (unknown.length) unknownFound(unknown);
  return body;
}

/** Items read per turn of the event loop: a large batch does not hold the process (a session takes 0.1 to 4 ms). */
const ITEMS_PER_TURN = 50;

/**
 * Each item read as the single operation reads its body (at most MAX_BODY_BYTES as JSON, then
 * checkedBody), then by `read` (the operation's own reading of a checked body): its value, or its
 * failure, with places relative to the item (see `itemFailure`).
 */
export async function readItems<S extends yup.ObjectSchema<any>, T>(
  schema: S, items: unknown[], read: (checked: yup.InferType<S>, raw: Record<string, unknown>) => T,
): Promise<(T | DomainError)[]> {
  const results: (T | DomainError)[] = [];
  for (const [index, item] of items.entries()) {
    if (index > 0 && index % ITEMS_PER_TURN === 0) await new Promise((resolve) => setImmediate(resolve));
    try {
      if (Buffer.byteLength(JSON.stringify(item)) > MAX_BODY_BYTES) {
        throw new DomainError('body_too_large', `the item exceeds ${MAX_BODY_BYTES} bytes (the limit of a single body)`, { path: [] });
      }
      results.push(read(checkedBody(schema, item), item as Record<string, unknown>));
    } catch (error) {
      if (!(error instanceof DomainError)) throw error;
      results.push(error);
    }
  }
  return results;
}

/** The answer for item `index` that failed with `error`: the single operation's Error body, its params below `$[index]` (the item itself when it names none). */
export function itemFailure(error: DomainError, index: number): ErrorBody {
  return errorBody(new DomainError(error.code, error.message, {
    path: [index, ...(error.fieldPath ?? [])],
    queryParam: error.queryParam,
    details: error.details?.map((detail) => ({ ...detail, path: detail.path && [index, ...detail.path] })),
  }));
}
