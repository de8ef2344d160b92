// Preloaded into every test process (ava.config.js nodeArguments) and into the service and CLI
// processes the tests start (process.ts). Each test file is a process of its own that resolves the
// same ~5,500 import specifiers to the same ~1,750 modules: Node resolves each anew (a stat, a
// realpath and package.json lookups per specifier), a tenth of a small test file's CPU.
// This keeps the answers of one `npm test` run in a file of the run's own (test/run.ts sets
// SVC_TEST_RESOLVE_CACHE and removes it at the end): a process answers from it what an earlier one
// resolved, and writes back what it resolved itself. No file moves during a run, so an answer stays
// right for the run; without the variable (ava started some other way) nothing is cached.
import module from 'node:module';
import { readFileSync, renameSync, writeFileSync } from 'node:fs';

const file = process.env.SVC_TEST_RESOLVE_CACHE;
if (file) {
  const cache = readCache(file);
  let added = 0;
  module.registerHooks({
    resolve(specifier, context, nextResolve) {
      // What a specifier resolves to depends on where it is imported, how (import or require: the
      // conditions) and as what (a JSON import's type).
      const key = `${context.parentURL}\n${specifier}\n${context.conditions.join(',')}\n${context.importAttributes?.type ?? ''}`;
      const known = cache.get(key);
      if (known) return { url: known[0], format: known[1] ?? undefined, shortCircuit: true };
      const resolved = nextResolve(specifier, context);
      cache.set(key, [resolved.url, resolved.format ?? null]);
      added += 1;
      return resolved;
    },
  });
  process.on('exit', () => {
    if (added === 0) return;
    // Processes end side by side: each writes a whole file and renames it into place, so a reader sees
    // one process's complete answers (another's own additions may be lost; a later process adds them).
    const written = `${file}.${process.pid}.${process.hrtime.bigint()}`;
    writeFileSync(written, JSON.stringify([...cache]));
    renameSync(written, file);
  });
}

function readCache(path: string): Map<string, [string, string | null]> {
  try {
    return new Map(JSON.parse(readFileSync(path, 'utf8')) as [string, [string, string | null]][]);
  } catch {
    return new Map();
  }
}
