// Readable log lines for a terminal (`npm start` in a shell): the JSON lines of log.ts as
// `10:41:07.125 INFO  message  key=value ...`, an error's stack below its line. Elsewhere the
// service writes the JSON lines as they are.
import type { DestinationStream } from 'pino';

const LEVEL_COLOURS: Record<string, string> = { fatal: '35', error: '31', warn: '33', info: '32', debug: '36', trace: '90' };
const HIDDEN = new Set(['time', 'level', 'msg', 'pid', 'err', 'error']);

function value(v: unknown): string {
  if (typeof v === 'string') return /^[^\s"=]+$/.test(v) ? v : JSON.stringify(v);
  return JSON.stringify(v);
}

/** One JSON log line as a readable line (anything that is not a JSON object stays as it is). */
export function prettyLine(line: string, colour = false): string {
  let record: Record<string, unknown>;
  try {
    record = JSON.parse(line) as Record<string, unknown>;
  } catch {
    return line;
  }
  if (!record || typeof record !== 'object') return line;
  const time = typeof record.time === 'string' ? record.time.slice(11, 23) : '';
  const level = String(record.level ?? '');
  const label = level.toUpperCase().padEnd(5);
  const paint = (code: string | undefined, text: string) => (colour && code ? `\u001b[${code}m${text}\u001b[0m` : text);
  const extras = Object.entries(record).filter(([key, v]) => !HIDDEN.has(key) && v !== null && v !== undefined).map(([key, v]) => `${key}=${value(v)}`);
  let text = `${paint('90', time)} ${paint(LEVEL_COLOURS[level], label)} ${record.msg ?? ''}${extras.length ? `  ${paint('90', extras.join(' '))}` : ''}`;
  const error = (record.err ?? record.error) as { stack?: unknown } | undefined;
  if (error && typeof error.stack === 'string' && error.stack) text += `\n${error.stack.replace(/^/gm, '    ')}`;
  return text;
}

/** A destination that writes each JSON line to `out` as a readable line. */
export function prettyDestination(out: NodeJS.WritableStream & { isTTY?: boolean }): DestinationStream {
  const colour = Boolean(out.isTTY) && !process.env.NO_COLOR;
  return {
    write(chunk: string) {
      for (const line of chunk.split('\n')) if (line) out.write(`${prettyLine(line, colour)}\n`);
    },
  };
}
