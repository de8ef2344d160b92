// Reads return plain data and transports never receive a managed entity (docs/architecture.md,
// "Reads"): no exported function of a queries module, and no function of src/ that REST (rest/) or
// GraphQL (schema/) imports, answers an entity or a page, list or object holding one. Checked at
// compile time: a file asserting it for each such function is written and type-checked.
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import test from 'ava';
import ts from 'typescript';

const filesIn = (dir: string, suffix: string): string[] => readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
  const path = join(dir, entry.name);
  if (entry.isDirectory()) return filesIn(path, suffix);
  return entry.name.endsWith(suffix) ? [path] : [];
});

/** Every exported function of the queries modules, by module. */
function queriesFunctions(): Map<string, Set<string>> {
  const found = new Map<string, Set<string>>();
  for (const module of filesIn('src', '.queries.ts')) {
    const names = [...readFileSync(module, 'utf8').matchAll(/^export (?:async )?function (\w+)|^export const (\w+) = (?:async )?\(/gm)].map((m) => m[1] ?? m[2]);
    found.set(module, new Set(names));
  }
  return found;
}

/** The values REST and GraphQL import from src/, by module (functions among them are checked). */
function transportImports(into: Map<string, Set<string>>): void {
  for (const file of [...filesIn('rest', '.ts'), ...filesIn('schema', '.ts')]) {
    for (const [, names, from] of readFileSync(file, 'utf8').matchAll(/^import (?!type )\{([^}]*)\} from '([^']+)'/gm)) {
      const module = relative('.', resolve(dirname(file), from));
      if (!module.startsWith('src/')) continue;
      const set = into.get(module) ?? new Set<string>();
      for (const part of names.split(',').map((n) => n.trim()).filter((n) => n && !n.startsWith('type '))) set.add(part.split(/\s+as\s+/)[0]);
      into.set(module, set);
    }
  }
}

test('no queries function, and no function REST or GraphQL calls, answers a managed entity', (t) => {
  const functions = queriesFunctions();
  t.true(functions.size > 10, 'the queries modules were found');
  transportImports(functions);
  const dir = join('test', '.generated');
  mkdirSync(dir, { recursive: true });
  const file = join(dir, 'answers-are-data.ts');
  const lines = [
    "import type { HoldsEntity } from '../../src/platform/plain-data.ts';",
    'type Answer<F> = F extends (...args: any[]) => infer R ? Awaited<R> : false;',
    'type NoEntity<T extends false> = T;',
  ];
  const where: string[] = [];
  [...functions].forEach(([module, names], i) => {
    lines.push(`import * as m${i} from '${relative(dir, module)}';`);
    for (const name of names) {
      where[lines.length] = `${module} ${name}()`;
      lines.push(`export type C${i}_${name} = NoEntity<HoldsEntity<Answer<typeof m${i}.${name}>>>;`);
    }
  });
  writeFileSync(file, `${lines.join('\n')}\n`);
  try {
    const config = ts.getParsedCommandLineOfConfigFile('tsconfig.json', {}, { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => {} })!;
    const program = ts.createProgram([file], config.options);
    const problems = ts.getPreEmitDiagnostics(program, program.getSourceFile(file)).map((d) => {
      const line = d.file && d.start !== undefined ? d.file.getLineAndCharacterOfPosition(d.start).line : -1;
      return where[line] ?? `${file}:${line + 1}: ${ts.flattenDiagnosticMessageText(d.messageText, '\n').split('\n')[0]}`;
    });
    t.deepEqual(problems, []);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
