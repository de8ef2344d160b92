// The worker's own thread: its jobs (pricing batches, billing, deliveries) run beside the HTTP event loop, not on it.
// It opens its own ORM on the database it is given and stops when the parent says so.
import { parentPort, workerData } from 'node:worker_threads';
import { databaseHealth } from '../platform/database-health.ts';
import { configureLog, forwardLines, type LogLevel } from '../platform/log.ts';
import { openOrm } from '../platform/orm.ts';
import { ormConfig } from '../../mikro-orm.config.ts';
import { stopScriptThread } from '../pricing/script/run-rule-script.ts';
import { runWorker } from './worker.ts';
// The data of the events this thread records is what the REST GETs answer.
import { registerRestEventRenderers } from '../../rest/events/event-renderers.ts';
// The periods this thread starts and closes bill every area's periodic item source.
import { registerItemSources } from '../item-sources.ts';

registerRestEventRenderers();
registerItemSources();
const { databaseUrl, logLevel } = workerData as { databaseUrl: string; logLevel: LogLevel };
// One log: this thread's lines go to the service, which writes them where it writes its own.
configureLog({ level: logLevel, destination: forwardLines((line) => parentPort!.postMessage({ log: line })) });
// The service logs a database outage once; this thread only tells it what it saw.
databaseHealth.forwardTo((reason) => parentPort!.postMessage({ databaseUnavailable: reason }));
const orm = await openOrm(ormConfig(databaseUrl, { poolMax: 4 }));
const worker = await runWorker(orm, databaseUrl);
parentPort!.postMessage('started');
// A runner that stopped by itself: the service's readiness says so.
const watch = setInterval(() => {
  const state = worker.state();
  if (!state.running) {
    parentPort!.postMessage({ failed: state.reason ?? 'the worker stopped' });
    clearInterval(watch);
  }
}, 1000);
watch.unref();
parentPort!.on('message', async (message) => {
  if (message !== 'stop') return;
  clearInterval(watch);
  await worker.stop();
  await stopScriptThread();
  await orm.close();
  parentPort!.postMessage('stopped');
});
