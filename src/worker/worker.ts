// The worker: graphile-worker (a PostgreSQL-backed queue) runs every job of src/worker/tasks.ts in a
// thread of its own (worker-thread.ts), beside the HTTP event loop: a main runner, one job at a
// time, and a webhook runner, several subscriptions at once.
import { Worker } from 'node:worker_threads';
import { Logger, run, runMigrations, type Runner } from 'graphile-worker';
import pg from 'pg';
import { databaseHealth, isDatabaseUnavailable } from '../platform/database-health.ts';
import type { Orm } from '../platform/orm.ts';
import { addStartJobs, CRONTAB, mainTasks, webhookTasks } from './tasks.ts';

// A database outage is reported once by the service (database-health.ts), not by every poll.
const quietLogger = new Logger(() => (level, message, meta) => {
  if (level !== 'error') return;
  const error = (meta as { error?: unknown } | undefined)?.error;
  if (isDatabaseUnavailable(error) || isDatabaseUnavailable({ message })) return databaseHealth.report(error ?? message);
  console.error(`[session worker] ${message}`);
});

export interface RunningWorker { stop(): Promise<void> }

/**
 * Creates the queue's tables when missing (start-up, the CLI and the test template). On a pool of
 * our own, ended before we return: graphile-worker's own pool ends in the background without its
 * error handler, so a database stopped right after (a CLI command that fails at once) crashed the
 * process with the idle client's 57P01.
 */
export async function migrateJobQueue(connectionString: string): Promise<void> {
  const pgPool = new pg.Pool({ connectionString, max: 1 });
  // Errors of idle and checked-out clients: the migration's own query fails with them; nothing more to do.
  pgPool.on('error', () => {});
  pgPool.on('connect', (client) => client.on('error', () => {}));
  try {
    await runMigrations({ pgPool, logger: quietLogger });
  } finally {
    await pgPool.end();
  }
}

/** The queue runner on this thread (used by the worker thread, and by tools that want no thread). */
export async function runWorker(orm: Orm, connectionString: string): Promise<RunningWorker> {
  const runner: Runner = await run({
    connectionString,
    concurrency: 1,
    maxPoolSize: 2,
    noHandleSignals: true,
    pollInterval: 2000,
    logger: quietLogger,
    crontab: CRONTAB,
    taskList: mainTasks(orm),
  });
  // Webhook deliveries run beside the rest, several subscriptions at once (one job per subscription),
  // so a slow receiver never holds up session processing.
  const webhooks: Runner = await run({
    connectionString,
    concurrency: 4,
    maxPoolSize: 5,
    noHandleSignals: true,
    pollInterval: 1000,
    logger: quietLogger,
    taskList: webhookTasks(orm, connectionString),
  });
  await addStartJobs(orm);
  return { stop: async () => { await Promise.all([runner.stop(), webhooks.stop()]); } };
}

/** Starts the worker in a thread of its own; the answer stops it. */
export async function startWorker(_orm: Orm, connectionString: string): Promise<RunningWorker> {
  const thread = new Worker(new URL('./worker-thread.ts', import.meta.url), { workerData: { databaseUrl: connectionString } });
  const replies: ((message: string) => void)[] = [];
  thread.on('message', (message: string | { databaseUnavailable: string }) => {
    if (typeof message === 'object') databaseHealth.report(message.databaseUnavailable);
    else replies.shift()?.(message);
  });
  const next = () => new Promise<string>((resolve, reject) => {
    replies.push(resolve);
    thread.once('error', reject);
  });
  const started = await next();
  if (started !== 'started') throw new Error(`the session worker did not start: ${started}`);
  return {
    async stop() {
      const stopped = next();
      thread.postMessage('stop');
      await stopped;
      await thread.terminate();
    },
  };
}
