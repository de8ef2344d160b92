/**
 * Failed sign-ins counted per key (a client address, a public id) in a window that starts at
 * the first failure. At `limit` failures the key waits until its window ends. Memory is bounded:
 * expired windows are dropped, and past `maxEntries` the oldest window goes first.
 */
export class FailureThrottle {
  // Insertion order is window-start order: a new window is always (re)inserted at the end.
  private readonly windows = new Map<string, { start: number; count: number }>();
  private readonly limit: number;
  private readonly windowMs: number;
  private readonly maxEntries: number;

  constructor(options: { limit: number; windowMs: number; maxEntries: number }) {
    this.limit = options.limit;
    this.windowMs = options.windowMs;
    this.maxEntries = options.maxEntries;
  }

  /** Seconds until `key` may try again; 0 when it may now. */
  waitSeconds(key: string, now = Date.now()): number {
    const window = this.windows.get(key);
    if (!window || window.count < this.limit) return 0;
    const left = window.start + this.windowMs - now;
    return left > 0 ? Math.ceil(left / 1000) : 0;
  }

  recordFailure(key: string, now = Date.now()): void {
    this.dropExpired(now);
    let window = this.windows.get(key);
    if (!window) {
      window = { start: now, count: 0 };
      this.windows.set(key, window);
      if (this.windows.size > this.maxEntries) this.windows.delete(this.windows.keys().next().value as string);
    }
    window.count++;
  }

  get size(): number {
    return this.windows.size;
  }

  private dropExpired(now: number): void {
    for (const [key, window] of this.windows) {
      if (window.start + this.windowMs > now) return;
      this.windows.delete(key);
    }
  }
}
