// Bytes a mutation takes (a billing logo, a box's document): GraphQL strings are bounded (10,000
// characters, schema/input-strings.ts) and a request to 1 MiB, so the bytes come as base64 in pieces
// that are joined in order. REST takes the same uploads as raw bytes.
import { InvalidInputError } from '../src/platform/errors.ts';
import type { FieldPath } from '../src/platform/field-path.ts';

export const BASE64_PIECES = 'The bytes as base64, in pieces of at most 10,000 characters joined in order.';

/** The bytes of base64 pieces; invalid_input at `path` (the argument) when they are not base64. */
export function decodePieces(pieces: readonly string[], path: FieldPath = ['data']): Buffer {
  const text = pieces.join('');
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(text) || text.length % 4 !== 0) {
    throw new InvalidInputError('data must be base64 (pieces of at most 10,000 characters, joined in order)', { path });
  }
  return Buffer.from(text, 'base64');
}
