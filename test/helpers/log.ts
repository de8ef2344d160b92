// The log of the test process (loaded before every test file: package.json ava.require). The
// service's logger writes here rather than to stdout: every line is scanned for registered secrets
// (secret-scan.ts) and kept for the tests that read what was logged (`logLines`). Every test file
// of the suite fails when its log held a secret: its process exits 1 naming the leak, which ava
// reports (ava takes hooks only from the test file itself; the app helper's close reports what it
// finds too). Quiet by default; `LOG_LEVEL=info npm test -- <file>` prints the lines.
import { configureLog, type LogLevel } from '../../src/platform/log.ts';
import { scan, takeLeaks } from './secret-scan.ts';

const KEPT = 20_000;
const lines: string[] = [];
const given = process.env.LOG_LEVEL;
const printing = given !== undefined && given !== '' && given !== 'silent';
const level: LogLevel = given === 'debug' || given === 'trace' ? given : 'info';

configureLog({
  level,
  destination: {
    write(chunk: string) {
      for (const line of chunk.split('\n')) {
        if (!line) continue;
        scan('log', line);
        lines.push(line);
        if (lines.length > KEPT) lines.splice(0, lines.length - KEPT);
      }
      if (printing) process.stdout.write(chunk);
    },
  },
});

/** The log lines of this test process so far (the last 20,000), parsed. */
export function logLines(): Record<string, any>[] {
  return lines.map((line) => JSON.parse(line) as Record<string, any>);
}

// A leak found and not yet reported (a log line, an answer, stdout) fails the file: exit code 1.
process.on('exit', () => {
  const leaks = takeLeaks();
  if (leaks.length === 0) return;
  process.stderr.write(`secrets leaked in this test file: ${leaks.slice(0, 10).join('; ')}\n`);
  process.exitCode = 1;
});
