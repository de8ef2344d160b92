// A benchmark's load client in a process of its own (not on the service's event loop): the script
// (beside this file) is started with `--child`, reads its job as JSON on stdin and prints its
// result as the last line of its stdout.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

export function runLoadClient<R>(script: string, job: unknown): Promise<R> {
  const child = spawn(process.execPath, [fileURLToPath(new URL(`./${script}`, import.meta.url)), '--child'], { stdio: ['pipe', 'pipe', 'inherit'] });
  let output = '';
  child.stdout.on('data', (chunk) => { output += chunk; });
  child.stdin.end(`${JSON.stringify(job)}\n`);
  return new Promise((resolve, reject) => child.on('exit', (code) => (code === 0
    ? resolve(JSON.parse(output.trim().split('\n').at(-1)!) as R)
    : reject(new Error(`the load client ${script} failed (${code})`)))));
}
