// Who causes the changes of the current async context (a credential's public id, `worker`,
// `system`), for the events those changes record: set once where work starts (the request
// middleware, a worker job), read by the event writers.
import { AsyncLocalStorage } from 'node:async_hooks';

const storage = new AsyncLocalStorage<string>();

export function runAs<T>(actor: string, fn: () => T): T {
  return storage.run(actor, fn);
}

export function currentActor(): string {
  return storage.getStore() ?? 'system';
}
