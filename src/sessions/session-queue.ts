// Asynchronous processing of received sessions on graphile-worker (a PostgreSQL-backed queue).
// The session rows themselves are the work list (status `received`); a job only says "there is
// work". Ingestion adds at most one job per short interval (a job key merges them), the worker
// claims sessions in batches, and a job at start plus one every minute pick up anything a
// crash or restart left behind. Follow-up jobs that use cases add in their own transaction
// (src/platform/follow-up-job.ts) run here too.
import { Worker } from 'node:worker_threads';
import { Logger, run, runMigrations, type Runner } from 'graphile-worker';
import pg from 'pg';
import { isRenderDraftJob, RENDER_DRAFT } from '../billing/render-draft-job.ts';
import { renderDraft } from '../billing/render-draft.service.ts';
import { PERIOD_START, startCurrentPeriods } from '../billing/period-start.service.ts';
import { BILLING_BACKFILL, isBillingBackfillJob } from '../billing/billing-backfill-job.ts';
import { billUnbilledSessions } from '../billing/sources/msp-session.source.ts';
import { isReviewSetOperationsJob, REVIEW_SET_OPERATIONS_JOB } from '../billing/review-set-operation-job.ts';
import { runReviewSetOperations } from '../billing/review-set.service.ts';
import { scopedEm } from '../platform/orm.ts';
import { isSubscriptionCorrectedJob, SUBSCRIPTION_CORRECTED } from '../msp/subscription-corrected.ts';
import { databaseHealth, isDatabaseUnavailable } from '../platform/database-health.ts';
import type { Orm } from '../platform/orm.ts';
import { ADD_JOB_SQL, PROCESSING_TASK } from './processing-job.ts';
import { runAs } from '../events/actor-context.ts';
import { deliverWebhooks, wakeAllSubscriptions } from '../events/deliver-webhooks.service.ts';
import { isWebhookDeliverJob, WEBHOOK_DELIVER } from '../events/webhook-job.ts';
import { dropDeliveredEventData, EVENT_DATA_RETENTION } from '../events/event-data-retention.ts';
import { processSessionBatch } from '../session-processing/process-sessions.service.ts';
import { repriceCorrectedSessions } from './reprocess.service.ts';
import { COMMAND_TIMEOUT, isCommandTimeoutJob, timeOutCommand } from '../ocpi/command-timeout.ts';

const BATCH_SIZE = 500;

// A database outage is reported once by the service (database-health.ts), not by every poll.
const quietLogger = new Logger(() => (level, message, meta) => {
  if (level !== 'error') return;
  const error = (meta as { error?: unknown } | undefined)?.error;
  if (isDatabaseUnavailable(error) || isDatabaseUnavailable({ message })) return databaseHealth.report(error ?? message);
  console.error(`[session worker] ${message}`);
});

export interface SessionWorker { stop(): Promise<void> }

/**
 * Creates the queue's tables when missing (start-up, the CLI and the test template). On a pool of
 * our own, ended before we return: graphile-worker's own pool ends in the background without its
 * error handler, so a database stopped right after (a CLI command that fails at once) crashed the
 * process with the idle client's 57P01.
 */
export async function migrateSessionQueue(connectionString: string): Promise<void> {
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
export async function runSessionWorker(orm: Orm, connectionString: string): Promise<SessionWorker> {
  const runner: Runner = await run({
    connectionString,
    concurrency: 1,
    maxPoolSize: 2,
    noHandleSignals: true,
    pollInterval: 2000,
    logger: quietLogger,
    crontab: `* * * * * ${PROCESSING_TASK}\n5 * * * * ${PERIOD_START}\n35 * * * * ${EVENT_DATA_RETENTION}`,
    taskList: {
      [PROCESSING_TASK]: () => runAs('worker', async () => {
        while ((await processSessionBatch(orm, BATCH_SIZE)) > 0) { /* until no received session is left */ }
      }),
      [BILLING_BACKFILL]: async (payload) => {
        if (!isBillingBackfillJob(payload)) throw new Error(`${BILLING_BACKFILL}: no admin_id in ${JSON.stringify(payload)}`);
        await billUnbilledSessions(scopedEm(orm), payload.admin_id);
      },
      [PERIOD_START]: () => runAs('worker', () => startCurrentPeriods(scopedEm(orm))),
      [EVENT_DATA_RETENTION]: async () => { await dropDeliveredEventData(scopedEm(orm)); },
      [RENDER_DRAFT]: async (payload) => {
        if (!isRenderDraftJob(payload)) throw new Error(`${RENDER_DRAFT}: no box_id in ${JSON.stringify(payload)}`);
        await renderDraft(scopedEm(orm), payload.box_id);
      },
      [REVIEW_SET_OPERATIONS_JOB]: async (payload) => {
        if (!isReviewSetOperationsJob(payload)) throw new Error(`${REVIEW_SET_OPERATIONS_JOB}: no review_set_id in ${JSON.stringify(payload)}`);
        await runAs('worker', () => runReviewSetOperations(orm, payload.review_set_id));
      },
      [COMMAND_TIMEOUT]: async (payload) => {
        if (!isCommandTimeoutJob(payload)) throw new Error(`${COMMAND_TIMEOUT}: no command_id in ${JSON.stringify(payload)}`);
        await timeOutCommand(scopedEm(orm), payload.command_id);
      },
      [SUBSCRIPTION_CORRECTED]: async (payload) => {
        if (!isSubscriptionCorrectedJob(payload)) throw new Error(`${SUBSCRIPTION_CORRECTED}: no correction_id in ${JSON.stringify(payload)}`);
        await repriceCorrectedSessions(orm, payload);
      },
    },
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
    taskList: {
      [WEBHOOK_DELIVER]: async (payload) => {
        if (!isWebhookDeliverJob(payload)) throw new Error(`${WEBHOOK_DELIVER}: no subscription_id in ${JSON.stringify(payload)}`);
        await runAs('worker', () => deliverWebhooks(orm, connectionString, payload.subscription_id));
      },
    },
  });
  await orm.em.getConnection().execute(ADD_JOB_SQL);
  await wakeAllSubscriptions(orm);
  await orm.em.getConnection().execute(`select graphile_worker.add_job('${PERIOD_START}', '{}'::json, job_key => '${PERIOD_START}')`);
  return { stop: async () => { await Promise.all([runner.stop(), webhooks.stop()]); } };
}

/** Starts the worker in a thread of its own; the answer stops it. */
export async function startSessionWorker(_orm: Orm, connectionString: string): Promise<SessionWorker> {
  const thread = new Worker(new URL('./session-worker-thread.ts', import.meta.url), { workerData: { databaseUrl: connectionString } });
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
