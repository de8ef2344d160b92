import { spawn, type ChildProcess } from 'node:child_process';
import { chmodSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort } from '../../src/platform/embedded-postgres.ts';
import { registerSecret, scan, secretIn } from './secret-scan.ts';

/**
 * The service logs JSON lines when its stdout is not a terminal: what a person would read of them
 * is each line's message (other lines, a start-up failure on stderr, stay as they are).
 */
export function messagesOf(output: string): string {
  return output.split('\n').map((line) => {
    if (!line.startsWith('{')) return line;
    try {
      const record = JSON.parse(line) as { msg?: unknown };
      return typeof record.msg === 'string' ? record.msg : line;
    } catch {
      return line;
    }
  }).join('\n');
}

/**
 * The node flags of a child the tests start: the run's shared module resolutions, as in the test
 * processes (resolve-cache.ts; only a cache, what the child loads and runs is the same).
 */
const childNodeFlags = process.env.SVC_TEST_RESOLVE_CACHE ? [`--import=${fileURLToPath(new URL('./resolve-cache.ts', import.meta.url))}`] : [];

/** What each child process wrote (stdout and stderr), for the secret check when it ends. */
const outputs = new WeakMap<ChildProcess, () => string>();

/** The secrets a child is given (a bootstrap credential, a CLI --secret) are registered for the scan. */
function registerSecretsOf(env: Record<string, string>, args: string[] = []): void {
  const bootstrap = env.SVC_BOOTSTRAP_CREDENTIAL;
  if (bootstrap?.includes(':')) registerSecret(bootstrap.slice(bootstrap.indexOf(':') + 1));
  args.forEach((arg, i) => { if (arg === '--secret') registerSecret(args[i + 1]); });
}

export function tempDataDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'svc-proc-'));
  chmodSync(dir, 0o755);
  return dir;
}

export interface ServiceProcess {
  child: ChildProcess;
  url: string;
  port: number;
  /** The messages of its log lines (and any other output), stdout and stderr. */
  output(): string;
  /** Exactly what it wrote, JSON log lines as they are. */
  rawOutput(): string;
  stderr(): string;
}

/**
 * `node src/main.ts` as a user would start it; resolves once GET /main/version answers.
 * `npm: true` runs `npm start` in a process group of its own, as a terminal does (signal it with
 * `process.kill(-child.pid, ...)`), without the npm settings of the calling npm and the machine's
 * user config, so that only the service speaks.
 */
export async function startServiceProcess(env: Record<string, string>, options: { npm?: boolean } = {}): Promise<ServiceProcess> {
  const port = await freePort();
  registerSecretsOf(env);
  // The service's own level (the test process's LOG_LEVEL only says what the tests print).
  const fullEnv = { ...process.env, LOG_LEVEL: 'info', PORT: String(port), ...env };
  const npmEnv = Object.fromEntries(Object.entries(fullEnv).filter(([name]) => !name.toLowerCase().startsWith('npm_')));
  const child = options.npm
    ? spawn('npm', ['start'], { env: { ...npmEnv, npm_config_userconfig: '/dev/null' }, stdio: ['ignore', 'pipe', 'pipe'], detached: true })
    : spawn(process.execPath, [...childNodeFlags, 'src/main.ts'], { env: fullEnv, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  let stderr = '';
  child.stdout!.on('data', (chunk) => { output += chunk; });
  child.stderr!.on('data', (chunk) => { output += chunk; stderr += chunk; });
  outputs.set(child, () => output);
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 55_000; // a loaded machine (the whole suite) can take that long to migrate and seed
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`service exited: ${output}`);
    try {
      const response = await fetch(`${url}/main/version`);
      // Its start's lines reach the pipe up to 10 ms after it answers (src/platform/buffered-lines.ts):
      // the last of them, "Service listening on", says that every line of the start is here.
      if (response.ok && output.includes('Service listening on')) {
        return { child, url, port, output: () => messagesOf(output), rawOutput: () => output, stderr: () => stderr };
      }
    } catch { /* not listening yet */ }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  child.kill('SIGKILL');
  throw new Error(`service did not answer within 55 s: ${output}`);
}

/** Its exit code once it ended; fails when what it wrote held a registered secret (secret-scan.ts). */
export async function exited(child: ChildProcess): Promise<number | null> {
  const code = await new Promise<number | null>((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve(child.exitCode);
    child.once('exit', (exitCode) => resolve(exitCode));
  });
  const found = secretIn(outputs.get(child)?.() ?? '');
  if (found) throw new Error(`the output of process ${child.pid} held ${found}`);
  return code;
}

export function runCli(args: string[], env: Record<string, string>): Promise<{ code: number | null; stdout: string; stderr: string }> {
  registerSecretsOf(env, args);
  return runScript('src/cli.ts', args, env);
}

/** `node <script> <args>` to its end (a service that fails to start, a CLI command). */
export function runScript(script: string, args: string[], env: Record<string, string>): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [...childNodeFlags, script, ...args], { env: { ...process.env, LOG_LEVEL: 'info', ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => { stdout += chunk; });
    child.stderr.on('data', (chunk) => { stderr += chunk; });
    child.on('exit', (code) => {
      // A secret the command printed is a leak (a --secret it was given is never echoed).
      scan(`${script} ${args[0] ?? ''}`, `${stdout}\n${stderr}`);
      resolve({ code, stdout, stderr });
    });
  });
}
