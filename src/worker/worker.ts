// The worker: graphile-worker (a PostgreSQL-backed queue) runs every job of src/worker/tasks.ts in a
// thread of its own (worker-thread.ts), beside the HTTP event loop: a processing runner (session
// batches), a main runner for every other job, one at a time, and a webhook runner, several
// subscriptions at once.
import { Worker } from 'node:worker_threads';
import { Logger, run, runMigrations, type Runner } from 'graphile-worker';
import pg from 'pg';
import { databaseHealth, isDatabaseUnavailable } from '../platform/database-health.ts';
import { logger, writeForwardedLine, type LogLevel } from '../platform/log.ts';
import type { Orm } from '../platform/orm.ts';
import { WORKER_RESOURCE_LIMITS } from '../platform/heap-config.ts';
import { addStartJobs, CRONTAB, KICK_CRONTAB, mainTasks, processingTasks, webhookTasks } from './tasks.ts';

// A database outage is reported once by the service (database-health.ts), not by every poll.
const quietLogger = new Logger(() => (level, message, meta) => {
  if (level !== 'error') return;
  const error = (meta as { error?: unknown } | undefined)?.error;
  if (isDatabaseUnavailable(error) || isDatabaseUnavailable({ message })) return databaseHealth.report(error ?? message);
  logger().error({ err: error }, `worker: ${message}`);
});

/** Whether the worker runs (readiness): a thread that died or a runner that stopped by itself does not. */
export interface WorkerState { running: boolean; reason?: string }

export interface RunningWorker {
  stop(): Promise<void>;
  state(): WorkerState;
}

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

/**
 * Jobs at a time per process (README "Scaling out"): the processing runner one (session batches
 * until none waits), the main runner one (a billing job, a render, a timeout), the webhook runner
 * one per subscription up to this many. More is more processes.
 */
export const PROCESSING_CONCURRENCY = 1;
export const MAIN_CONCURRENCY = 1;
export const WEBHOOK_CONCURRENCY = 4;

export interface WorkerOptions {
  /**
   * false: no job of the real clock's hour (CLOCK_CRONTAB). Tests start billing periods at dates of
   * their own; an hourly period start at the real date billed their subscriptions' current month too.
   */
  clockJobs?: boolean;
}

/** The queue runner on this thread (used by the worker thread, and by tools that want no thread). */
export async function runWorker(orm: Orm, connectionString: string, options: WorkerOptions = {}): Promise<RunningWorker> {
  // Session processing beside the other jobs, so that a long one (a billing backfill, a review-set
  // operation) never holds up pricing; the main runner's crontab adds its kick every minute.
  const processing: Runner = await run({
    connectionString,
    concurrency: PROCESSING_CONCURRENCY,
    maxPoolSize: PROCESSING_CONCURRENCY + 1,
    noHandleSignals: true,
    pollInterval: 2000,
    logger: quietLogger,
    taskList: processingTasks(orm),
  });
  const runner: Runner = await run({
    connectionString,
    concurrency: MAIN_CONCURRENCY,
    maxPoolSize: MAIN_CONCURRENCY + 1,
    noHandleSignals: true,
    pollInterval: 2000,
    logger: quietLogger,
    crontab: options.clockJobs === false ? KICK_CRONTAB : CRONTAB,
    taskList: mainTasks(orm),
  });
  // Webhook deliveries run beside the rest, several subscriptions at once (one job per subscription),
  // so a slow receiver never holds up session processing.
  const webhooks: Runner = await run({
    connectionString,
    concurrency: WEBHOOK_CONCURRENCY,
    maxPoolSize: WEBHOOK_CONCURRENCY + 1,
    noHandleSignals: true,
    pollInterval: 1000,
    logger: quietLogger,
    taskList: webhookTasks(orm, connectionString),
  });
  await addStartJobs(orm, options);
  let stopping = false;
  let failure: string | undefined;
  // A runner that ends without being asked to (its pool gone for good, a bug) leaves the worker not running.
  for (const [name, each] of [['processing', processing], ['main', runner], ['webhooks', webhooks]] as const) {
    each.promise.then(
      () => { if (!stopping) failure ??= `the ${name} runner stopped`; },
      (error: unknown) => { if (!stopping) failure ??= `the ${name} runner failed: ${(error as Error).message?.split('\n')[0]}`; },
    );
  }
  return {
    stop: async () => { stopping = true; await Promise.all([processing.stop(), runner.stop(), webhooks.stop()]); },
    state: () => (failure ? { running: false, reason: failure } : { running: true }),
  };
}

type ThreadMessage = string | { databaseUnavailable: string } | { log: string } | { failed: string };

/**
 * Starts the worker in a thread of its own; the answer stops it and tells whether it runs. The
 * thread logs at this process's level through this process's destination (src/platform/log.ts).
 */
export async function startWorker(_orm: Orm, connectionString: string): Promise<RunningWorker> {
  const logLevel: LogLevel = logger().level as LogLevel;
  // Its young generation as the main thread's (src/platform/heap-config.ts).
  const thread = new Worker(new URL('./worker-thread.ts', import.meta.url), {
    workerData: { databaseUrl: connectionString, logLevel }, resourceLimits: WORKER_RESOURCE_LIMITS,
  });
  const replies: ((message: string) => void)[] = [];
  let stopping = false;
  let failure: string | undefined;
  thread.on('message', (message: ThreadMessage) => {
    if (typeof message === 'string') replies.shift()?.(message);
    else if ('log' in message) writeForwardedLine(message.log);
    else if ('failed' in message) failure ??= message.failed;
    else databaseHealth.report(message.databaseUnavailable);
  });
  thread.on('error', (error) => {
    failure ??= `the worker thread failed: ${error.message.split('\n')[0]}`;
    logger().error({ err: error }, 'worker: the thread failed');
  });
  thread.on('exit', (code) => { if (!stopping) failure ??= `the worker thread exited (code ${code})`; });
  const next = () => new Promise<string>((resolve, reject) => {
    replies.push(resolve);
    thread.once('error', reject);
  });
  const started = await next();
  if (started !== 'started') throw new Error(`the session worker did not start: ${started}`);
  return {
    state: () => (failure ? { running: false, reason: failure } : { running: true }),
    async stop() {
      stopping = true;
      const stopped = next();
      thread.postMessage('stop');
      await stopped;
      await thread.terminate();
    },
  };
}
