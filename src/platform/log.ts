// The process's log (decisions: "Running"): one JSON object a line (pino) to stdout, at LOG_LEVEL;
// in a terminal, readable lines (log-pretty.ts). What a line may hold: never a secret, never a body.
// Errors keep their type, code, first message line and stack frames, not the fields a driver adds
// (a PostgreSQL error's `detail` quotes the values of a row).
//
// One logger per process, configured by the composition root that starts it (main, the worker
// thread, the tests): `logger()` is always the current one. A worker thread writes its lines to
// its parent (`forwardLines`), which writes them to its own destination: one stream, one format.
import pino, { type DestinationStream, type Logger } from 'pino';
import { bufferedLines } from './buffered-lines.ts';
import { prettyDestination } from './log-pretty.ts';
import { requestId } from './request-id.ts';
import { StartupError } from './startup-error.ts';

export type { Logger } from 'pino';

export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

/** LOG_LEVEL: `info` by default; anything else than a pino level stops the start (one line). */
export function logLevel(env: NodeJS.ProcessEnv = process.env): LogLevel {
  const level = env.LOG_LEVEL || 'info';
  if (!(LOG_LEVELS as readonly string[]).includes(level)) {
    throw new StartupError(`LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')}: ${level}`);
  }
  return level as LogLevel;
}

const MAX_MESSAGE = 500;

interface ErrorFields { type: string; message: string; code?: string; stack: string; cause?: ErrorFields }

/** An error as a log line may show it: type, code, the first line of its message, its frames. */
export function errorFields(error: unknown, depth = 0): ErrorFields {
  if (!(error instanceof Error)) return { type: typeof error, message: String(error).split('\n')[0]!.slice(0, MAX_MESSAGE), stack: '' };
  const message = (error.message ?? '').split('\n')[0]!.slice(0, MAX_MESSAGE);
  const code = (error as { code?: unknown }).code;
  const frames = (error.stack ?? '').split('\n').filter((line) => /^\s+at /.test(line));
  const fields: ErrorFields = { type: error.name, message, stack: [`${error.name}: ${message}`, ...frames].join('\n') };
  if (typeof code === 'string' || typeof code === 'number') fields.code = String(code);
  if (error.cause !== undefined && depth < 2) fields.cause = errorFields(error.cause, depth + 1);
  return fields;
}

function build(level: LogLevel, destination: DestinationStream): Logger {
  return pino({
    level,
    base: { pid: process.pid },
    // A line written while a request runs names it (an explicit request_id wins).
    mixin: () => {
      const id = requestId();
      return id ? { request_id: id } : {};
    },
    timestamp: pino.stdTimeFunctions.isoTime,
    formatters: { level: (label) => ({ level: label }) },
    serializers: { err: errorFields, error: errorFields },
  }, destination);
}

/** stdout, written once per turn of the event loop (buffered-lines.ts); created once, on first use. */
let stdoutLines: DestinationStream | null = null;
const stdout = (): DestinationStream => (stdoutLines ??= bufferedLines(process.stdout));

let destination: DestinationStream = stdout();
// Until the root configures it: LOG_LEVEL when it is a level (the root refuses any other value).
let current: Logger = build((LOG_LEVELS as readonly string[]).includes(process.env.LOG_LEVEL ?? '') ? process.env.LOG_LEVEL as LogLevel : 'info', destination);

/**
 * Sets the level and where lines go: a stream of JSON lines (stdout by default), or readable lines
 * on stdout (`pretty`, for a terminal).
 */
export function configureLog(options: { level?: LogLevel; destination?: DestinationStream; pretty?: boolean } = {}): void {
  destination = options.destination ?? (options.pretty ? prettyDestination(process.stdout) : stdout());
  current = build(options.level ?? logLevel(), destination);
}

/** The process's logger. */
export function logger(): Logger {
  return current;
}

/** Writes a JSON line another thread logged (already filtered by its level) to this process's destination. */
export function writeForwardedLine(line: string): void {
  destination.write(line.endsWith('\n') ? line : `${line}\n`);
}

/** A destination for a worker thread: each line goes to `send` (the parent writes it, writeForwardedLine). */
export function forwardLines(send: (line: string) => void): DestinationStream {
  return { write: (line: string) => send(line) };
}
