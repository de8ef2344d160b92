// The progress line of a CLI command (decisions: "Operating it"): what a long command is doing
// (creating, starting or joining the database, migrations n of m, the sections of a setup file),
// on stderr, so that stdout stays the command's answer. In a terminal one line rewritten in place
// and cleared before the answer; elsewhere (a pipe, a log file) one line per step.
export interface Progress {
  step(text: string): void;
  /** Ends the line: a terminal's is cleared, so the answer or an error starts on a clean line. */
  done(): void;
}

type Out = Pick<NodeJS.WriteStream, 'write'> & { isTTY?: boolean; columns?: number };

const CLEAR = '\r\u001b[2K';

export function progressLine(out: Out = process.stderr): Progress {
  if (!out.isTTY) return { step: (text) => { out.write(`${text}\n`); }, done: () => {} };
  let shown = false;
  return {
    step(text) {
      // One screen line: a longer text would wrap, and the next step would not overwrite it all.
      const width = Math.max((out.columns ?? 80) - 1, 20);
      out.write(`${CLEAR}${text.length > width ? `${text.slice(0, width - 1).trimEnd()}…` : text}`);
      shown = true;
    },
    done() {
      if (shown) out.write(CLEAR);
      shown = false;
    },
  };
}
