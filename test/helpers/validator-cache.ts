// The OpenAPI check's compiled validators, shared by the test processes of one `npm test` run
// (openapi-check.ts). Every test file is a process of its own that compiled the validators of the
// answers it checks anew: about 4 ms each with ajv cold, a tenth of a small test file's CPU. Ajv's
// standalone code of each validator is kept in a directory of the run's own (test/run.ts sets
// SVC_TEST_VALIDATOR_CACHE and removes it at the end), one file per document and schema: a process
// evaluates what an earlier one compiled. The document is part of the key, so a changed document
// compiles anew; without the variable (ava started some other way) nothing is cached.
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import type { ValidateFunction } from 'ajv';

const require = createRequire(import.meta.url);
const dir = process.env.SVC_TEST_VALIDATOR_CACHE;

export interface CompiledValidator { validate: ValidateFunction; source: string | null }

/**
 * The validator of `key` in the document hashed as `docHash`: evaluated from the run's cache, else
 * `compile`d and kept there. `formats` answers the standalone code's `require("formats")`.
 */
export function cachedValidator(docHash: string, key: string, formats: object, compile: () => CompiledValidator): ValidateFunction {
  if (!dir) return compile().validate;
  const file = join(dir, docHash, `${createHash('sha256').update(key).digest('hex').slice(0, 32)}.js`);
  const source = readOrNull(file);
  if (source !== null) return evaluate(source, formats);
  const compiled = compile();
  if (compiled.source !== null) {
    mkdirSync(join(dir, docHash), { recursive: true });
    // Processes compile side by side: each writes a whole file and renames it into place.
    const written = `${file}.${process.pid}.${process.hrtime.bigint()}`;
    writeFileSync(written, compiled.source);
    renameSync(written, file);
  }
  return compiled.validate;
}

function readOrNull(file: string): string | null {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return null;
  }
}

/** Ajv's standalone code is a CommonJS module that requires its runtime helpers and the formats. */
function evaluate(source: string, formats: object): ValidateFunction {
  const module = { exports: {} as unknown };
  const requireIn = (name: string) => (name === 'formats' ? formats : require(name));
  new Function('require', 'module', 'exports', source)(requireIn, module, module.exports);
  return module.exports as ValidateFunction;
}
