// Log lines to a stream, gathered for a few milliseconds: under load every request's line was a
// write of its own (a system call: about 35 µs on the development machine, a tenth of a short GET's
// time), and flushed after each turn of the event loop still a write per request or two at 32
// connections; now the lines written within FLUSH_MS of the first one held go out in one write, in
// order, and at once when they pass MAX_PENDING_BYTES. At exit (process.exit included) the lines
// still held are written.
import type { DestinationStream } from 'pino';

const MAX_PENDING_BYTES = 64 * 1024;
/** How long a line may wait for others to join it in one write. */
export const FLUSH_MS = 10;

export interface LineStream { write(text: string): unknown }

export function bufferedLines(stream: LineStream): DestinationStream & { flush(): void } {
  let pending: string[] = [];
  let bytes = 0;
  let scheduled: NodeJS.Timeout | null = null;
  const flush = (): void => {
    if (scheduled) clearTimeout(scheduled);
    scheduled = null;
    if (pending.length === 0) return;
    const text = pending.length === 1 ? pending[0] : pending.join('');
    pending = [];
    bytes = 0;
    stream.write(text);
  };
  process.once('exit', flush);
  return {
    write(line: string) {
      pending.push(line);
      bytes += line.length;
      if (bytes >= MAX_PENDING_BYTES) flush();
      // Unreferenced: held lines never keep a process alive (exit writes them).
      else scheduled ??= setTimeout(flush, FLUSH_MS).unref();
    },
    flush,
  };
}
