// The worker's own thread: its jobs (pricing batches, billing, deliveries) run beside the HTTP event loop, not on it.
// It opens its own ORM on the database it is given and stops when the parent says so.
import { parentPort, workerData } from 'node:worker_threads';
import { databaseHealth } from '../platform/database-health.ts';
import { openOrm } from '../platform/orm.ts';
import { ormConfig } from '../../mikro-orm.config.ts';
import { runWorker } from './worker.ts';
// The data of the events this thread records is what the REST GETs answer.
import { registerRestEventRenderers } from '../../rest/events/event-renderers.ts';
// The periods this thread starts and closes bill every area's periodic item source.
import { registerItemSources } from '../item-sources.ts';

registerRestEventRenderers();
registerItemSources();
const { databaseUrl } = workerData as { databaseUrl: string };
// The service logs a database outage once; this thread only tells it what it saw.
databaseHealth.forwardTo((reason) => parentPort!.postMessage({ databaseUnavailable: reason }));
const orm = await openOrm(ormConfig(databaseUrl, { poolMax: 4 }));
const worker = await runWorker(orm, databaseUrl);
parentPort!.postMessage('started');
parentPort!.on('message', async (message) => {
  if (message !== 'stop') return;
  await worker.stop();
  await orm.close();
  parentPort!.postMessage('stopped');
});
