import { DomainError } from '../errors.ts';

/** A fixed one-minute window per credential; credentials without a limit are not counted. */
export class RateLimiter {
  private readonly windows = new Map<string, { start: number; count: number }>();

  check(key: string, perMinute: number | null, now = Date.now()): void {
    if (!perMinute) return;
    const windowStart = now - (now % 60_000);
    let window = this.windows.get(key);
    if (!window || window.start !== windowStart) {
      window = { start: windowStart, count: 0 };
      this.windows.set(key, window);
    }
    window.count++;
    if (window.count > perMinute) {
      const retryAfter = Math.ceil((windowStart + 60_000 - now) / 1000);
      throw Object.assign(new DomainError('rate_limited', `more than ${perMinute} requests a minute`), { retryAfter });
    }
  }
}
