// `npm run console:build`: relay-compiler (every operation checked against the committed
// schema/schema.graphql) and Vite build the console into console/dist/, which `npm start` serves
// at /console/. `--if-stale` (what `prestart` and the end-to-end tests run) builds only when the
// console's sources, the schema or the console's packages changed since the last build: a fresh
// clone builds at its first start. Without the sources (the Docker image ships only console/dist/)
// or without the build tools (`npm ci --omit=dev`) it builds nothing.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const CONSOLE = join(ROOT, 'console');
export const CONSOLE_DIST = join(CONSOLE, 'dist');
const STAMP = join(CONSOLE_DIST, '.build-stamp');
/** The packages whose versions the built files depend on. */
const PACKAGES = ['react', 'react-dom', 'react-relay', 'relay-runtime', 'relay-compiler', 'babel-plugin-relay', 'vite', '@vitejs/plugin-react'];

function files(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === '__generated__' || entry.name === 'node_modules' ? [] : files(path);
    return [path];
  });
}

/** A hash of what the build reads: the console's sources and configs, the schema and the pinned packages. */
export function consoleInputsHash(): string {
  const hash = createHash('sha256');
  const inputs = [...files(join(CONSOLE, 'src')), ...['index.html', 'vite.config.ts', 'relay.config.json', 'tsconfig.json'].map((f) => join(CONSOLE, f)),
    join(ROOT, 'schema', 'schema.graphql')].sort();
  for (const path of inputs) hash.update(`${relative(ROOT, path)}\0`).update(readFileSync(path)).update('\0');
  const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { devDependencies?: Record<string, string> };
  for (const name of PACKAGES) hash.update(`${name}@${pkg.devDependencies?.[name] ?? ''}\0`);
  return hash.digest('hex');
}

/** Whether console/dist holds a build of the current sources. */
export function consoleBuildFresh(): boolean {
  return existsSync(STAMP) && readFileSync(STAMP, 'utf8').trim() === consoleInputsHash();
}

function run(command: string, args: string[], cwd = ROOT): void {
  // NODE_ENV=production whoever runs it (ava sets test): React's production build.
  const result = spawnSync(process.execPath, [command, ...args], { cwd, stdio: 'inherit', env: { ...process.env, NODE_ENV: 'production' } });
  if (result.status !== 0) throw new Error(`${relative(ROOT, command)} ${args.join(' ')} failed (exit ${result.status ?? result.signal})`);
}

/** relay-compiler, then vite build; writes the stamp of the inputs built. */
export function buildConsole(): void {
  const started = Date.now();
  // relay-compiler reads console/relay.config.json from its working directory.
  mkdirSync(join(CONSOLE, 'src', '__generated__'), { recursive: true });
  run(join(ROOT, 'node_modules', 'relay-compiler', 'cli.js'), [], CONSOLE);
  run(join(ROOT, 'node_modules', 'vite', 'bin', 'vite.js'), ['build', '--config', join(CONSOLE, 'vite.config.ts')]);
  writeFileSync(STAMP, `${consoleInputsHash()}\n`);
  console.log(`console built into ${relative(ROOT, CONSOLE_DIST)}/ in ${((Date.now() - started) / 1000).toFixed(1)} s`);
}

/** Builds when stale; false when it cannot (no sources or no build tools) and nothing fresh is there. */
export function ensureConsoleBuilt(log: (line: string) => void = console.log): boolean {
  if (!existsSync(join(CONSOLE, 'src'))) return existsSync(join(CONSOLE_DIST, 'index.html'));
  if (consoleBuildFresh()) return true;
  if (!existsSync(join(ROOT, 'node_modules', 'vite')) || !existsSync(join(ROOT, 'node_modules', 'relay-compiler'))) {
    log('console: not built and the build tools are not installed (npm install installs them)');
    return false;
  }
  log(existsSync(STAMP) ? 'console: sources changed, building it again' : 'console: building it (first start)');
  buildConsole();
  return true;
}

if (import.meta.main) {
  try {
    if (process.argv.includes('--if-stale')) ensureConsoleBuilt();
    else buildConsole();
  } catch (error) {
    console.error((error as Error).message);
    process.exit(1);
  }
}
