// The id of an HTTP request (decisions: "Running"): a caller's X-Request-Id of at most 128
// characters of [A-Za-z0-9._-] is kept, else the service makes one (UUIDv7). Code that runs for a
// request reads it (`requestId()`): the logger adds it to every line written meanwhile.
import { AsyncLocalStorage } from 'node:async_hooks';
import { uuidv7 } from './ids.ts';

export const REQUEST_ID_HEADER = 'X-Request-Id';
const CALLER_ID = /^[A-Za-z0-9._-]{1,128}$/;

const current = new AsyncLocalStorage<string>();

/** The id of the request this code runs for (undefined outside requests). */
export function requestId(): string | undefined {
  return current.getStore();
}

/** Runs `work` as part of the request `id`. */
export function withRequestId<T>(id: string, work: () => T): T {
  return current.run(id, work);
}

/** The caller's X-Request-Id when it is one we keep, else a new UUIDv7. */
export function requestIdFor(given: string | undefined): string {
  return given !== undefined && CALLER_ID.test(given) ? given : uuidv7();
}
