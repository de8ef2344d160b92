/** Thrown by CheckGate.run when the queue is full: the caller answers at once instead of waiting. */
export class GateFullError extends Error {}

/**
 * At most `concurrency` checks at a time and at most `queueLimit` waiting; past that a check is
 * refused straight away, so a flood cannot pile up work (scrypt: CPU and 16 MB each).
 */
export class CheckGate {
  private active = 0;
  private readonly waiting: (() => void)[] = [];
  private readonly concurrency: number;
  private readonly queueLimit: number;

  constructor(options: { concurrency: number; queueLimit: number }) {
    this.concurrency = options.concurrency;
    this.queueLimit = options.queueLimit;
  }

  async run<T>(work: () => Promise<T>): Promise<T> {
    if (this.active < this.concurrency) {
      this.active++;
    } else {
      if (this.waiting.length >= this.queueLimit) throw new GateFullError('too many secret checks waiting');
      // The releasing check hands its slot over: `active` stays as it is.
      await new Promise<void>((resolve) => this.waiting.push(resolve));
    }
    try {
      return await work();
    } finally {
      const next = this.waiting.shift();
      if (next) next();
      else this.active--;
    }
  }
}
