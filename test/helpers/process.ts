import { spawn, type ChildProcess } from 'node:child_process';
import { chmodSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from '../../src/platform/embedded-postgres.ts';

export function tempDataDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'svc-proc-'));
  chmodSync(dir, 0o755);
  return dir;
}

export interface ServiceProcess {
  child: ChildProcess;
  url: string;
  port: number;
  output(): string;
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
  const fullEnv = { ...process.env, PORT: String(port), ...env };
  const npmEnv = Object.fromEntries(Object.entries(fullEnv).filter(([name]) => !name.toLowerCase().startsWith('npm_')));
  const child = options.npm
    ? spawn('npm', ['start'], { env: { ...npmEnv, npm_config_userconfig: '/dev/null' }, stdio: ['ignore', 'pipe', 'pipe'], detached: true })
    : spawn(process.execPath, ['src/main.ts'], { env: fullEnv, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  let stderr = '';
  child.stdout!.on('data', (chunk) => { output += chunk; });
  child.stderr!.on('data', (chunk) => { output += chunk; stderr += chunk; });
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 55_000; // a loaded machine (the whole suite) can take that long to migrate and seed
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`service exited: ${output}`);
    try {
      const response = await fetch(`${url}/main/version`);
      if (response.ok) return { child, url, port, output: () => output, stderr: () => stderr };
    } catch { /* not listening yet */ }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  child.kill('SIGKILL');
  throw new Error(`service did not answer within 55 s: ${output}`);
}

export function exited(child: ChildProcess): Promise<number | null> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve(child.exitCode);
    child.once('exit', (code) => resolve(code));
  });
}

export function runCli(args: string[], env: Record<string, string>): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return runScript('src/cli.ts', args, env);
}

/** `node <script> <args>` to its end (a service that fails to start, a CLI command). */
export function runScript(script: string, args: string[], env: Record<string, string>): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [script, ...args], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => { stdout += chunk; });
    child.stderr.on('data', (chunk) => { stderr += chunk; });
    child.on('exit', (code) => resolve({ code, stdout, stderr }));
  });
}
