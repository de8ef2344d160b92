// The CLI side of `setup apply`: reads and checks the document, strict JSON as the REST bodies.
import { readFileSync } from 'node:fs';
import { parseStrictJson } from '../platform/http/strict-json.ts';
import { validate } from '../platform/input-validation.ts';
import { DomainError } from '../platform/errors.ts';
import { setupFileSchema, type SetupFile } from '../setup/setup-file.ts';

export function readSetupFile(path: string): SetupFile {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    throw new Error(`cannot read ${path}: ${(error as Error).message}`);
  }
  const document = parseStrictJson(text);
  if (document === null || typeof document !== 'object' || Array.isArray(document)) {
    throw new DomainError('validation_failed', 'the setup file must hold a JSON object', { path: [] });
  }
  return validate(setupFileSchema, document);
}
