// The log of the test process (loaded before every test file: package.json ava.require). The
// service's logger writes here rather than to stdout: every line is scanned for registered secrets
// (secret-scan.ts; the app helper fails a file whose log held one) and kept for the tests that read
// what was logged (`logLines`). Quiet by default; `LOG_LEVEL=info npm test -- <file>` prints them.
import { configureLog, type LogLevel } from '../../src/platform/log.ts';
import { scan } from './secret-scan.ts';

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
