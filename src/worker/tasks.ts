// Every job the worker runs (a composition root: it imports the areas whose work it runs). The
// session rows themselves are the work list of processing (status `received`); its job only says
// "there is work": ingestion adds at most one per short interval (a job key merges them), and a
// job at start plus one every minute pick up anything a crash or restart left behind. Follow-up
// jobs that use cases add in their own transaction (src/platform/jobs.ts) run here too.
import type { TaskList } from 'graphile-worker';
import { scopedEm } from '../access/admin-scope.ts';
import { BILLING_BACKFILL, isBillingBackfillJob } from '../billing/billing-backfill-job.ts';
import { PERIOD_START, startCurrentPeriods } from '../billing/period-start.service.ts';
import { isRenderDraftJob, RENDER_DRAFT } from '../billing/render-draft-job.ts';
import { renderDraft } from '../billing/render-draft.service.ts';
import { isReviewSetOperationsJob, REVIEW_SET_OPERATIONS_JOB } from '../billing/review-set-operation-job.ts';
import { runReviewSetOperations } from '../billing/review-set.service.ts';
import { runBillingBackfill } from '../billing/billing-backfill.service.ts';
import { runAs } from '../events/actor-context.ts';
import { deliverWebhooks, wakeAllSubscriptions } from '../webhooks/deliver-webhooks.service.ts';
import { dropDeliveredEventData, EVENT_DATA_RETENTION } from '../events/event-data-retention.ts';
import { TOKEN_VALIDITY_BOUNDS, touchTokensAtPassedBounds } from '../ocpi/token-validity-bounds.ts';
import { isWebhookDeliverJob, WEBHOOK_DELIVER } from '../webhooks/webhook-job.ts';
import { isSubscriptionCorrectedJob, SUBSCRIPTION_CORRECTED } from '../msp/subscription-corrected.ts';
import { CORRECTION_CREDIT, isCorrectionCreditJob, runCorrectionCreditJob } from '../msp/correction-credit.ts';
import { COMMAND_TIMEOUT, isCommandTimeoutJob, timeOutCommand } from '../ocpi/command-timeout.ts';
import { addJob } from '../platform/jobs.ts';
import type { Orm } from '../platform/orm.ts';
import { processSessionBatch } from '../session-processing/process-sessions.service.ts';
import { addProcessingJob, PROCESSING_TASK } from '../sessions/processing-job.ts';
import { repriceCorrectedSessions } from '../sessions/reprocess.service.ts';

/** Sessions per processing transaction (README "Scaling out"). */
export const BATCH_SIZE = 500;

/**
 * After a batch that was not full, the next one is claimed this much later: sessions received
 * meanwhile go in one batch instead of many small ones (a batch costs about 20 ms of CPU besides
 * its sessions: its reads, writes and commit). A session waits at most this much longer.
 * SVC_PROCESSING_GATHER_MS sets it for tests only: `npm test` runs short (test/run.ts), whose flows
 * wait for each session; test/rest/sessions/processing-gather.test.ts tests the gathering itself.
 */
export const GATHER_MS = /^\d{1,5}$/.test(process.env.SVC_PROCESSING_GATHER_MS ?? '') ? Number(process.env.SVC_PROCESSING_GATHER_MS) : 100;

/**
 * Batches at a time while sessions wait (a full batch was claimed): one batch's JavaScript runs
 * while another waits for PostgreSQL. Batches side by side are what several processes do too
 * (each claims sessions no other holds; credit, drop-out cases and billing lock what they share).
 */
export const PROCESSING_LANES = 2;

/** The kicks: they only pick up what is due, whatever the hour. */
export const KICK_CRONTAB = `* * * * * ${PROCESSING_TASK}\n* * * * * ${TOKEN_VALIDITY_BOUNDS}`;

/**
 * What the hour of the real clock decides: the billing periods begun, event data past its retention.
 * The period start has one job (the key the start job uses too): one that failed (an administration
 * that cannot start) is retried, and replaced by the next hour's, instead of a failing job per hour.
 */
export const CLOCK_CRONTAB = `5 * * * * ${PERIOD_START} ?jobKey=${PERIOD_START}&jobKeyMode=replace\n35 * * * * ${EVENT_DATA_RETENTION}`;

export const CRONTAB = `${KICK_CRONTAB}\n${CLOCK_CRONTAB}`;

/** Until no received session is left: more lanes while batches come full, the next batch GATHER_MS later after one that was not. */
async function processSessions(orm: Orm): Promise<void> {
  const helpers: Promise<void>[] = [];
  let helping = 0;
  const help = async () => {
    helping++;
    try {
      while ((await processSessionBatch(orm, BATCH_SIZE)) === BATCH_SIZE) { /* while sessions wait */ }
    } finally {
      helping--;
    }
  };
  try {
    for (let processed = await processSessionBatch(orm, BATCH_SIZE); processed > 0; processed = await processSessionBatch(orm, BATCH_SIZE)) {
      if (processed < BATCH_SIZE) await new Promise((resolve) => setTimeout(resolve, GATHER_MS));
      else if (helping < PROCESSING_LANES - 1) {
        const helper = help();
        // Reported with the job (below), not as an unhandled rejection meanwhile.
        helper.catch(() => {});
        helpers.push(helper);
      }
    }
  } finally {
    await Promise.all(helpers);
  }
}

/** The task of the processing runner: session processing, in a runner of its own so that no long job (a backfill of a million sessions) holds it up. */
export function processingTasks(orm: Orm): TaskList {
  return { [PROCESSING_TASK]: () => runAs('worker', () => processSessions(orm)) };
}

/** The tasks of the main runner: one at a time. */
export function mainTasks(orm: Orm): TaskList {
  return {
    [BILLING_BACKFILL]: async (payload) => {
      if (!isBillingBackfillJob(payload)) throw new Error(`${BILLING_BACKFILL}: no admin_id in ${JSON.stringify(payload)}`);
      await runBillingBackfill(scopedEm(orm), payload.admin_id);
    },
    [PERIOD_START]: () => runAs('worker', () => startCurrentPeriods(scopedEm(orm))),
    [EVENT_DATA_RETENTION]: async () => { await dropDeliveredEventData(scopedEm(orm)); },
    [TOKEN_VALIDITY_BOUNDS]: async () => { await touchTokensAtPassedBounds(scopedEm(orm)); },
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
    [CORRECTION_CREDIT]: async (payload) => {
      if (!isCorrectionCreditJob(payload)) throw new Error(`${CORRECTION_CREDIT}: no correction_id in ${JSON.stringify(payload)}`);
      await runCorrectionCreditJob(scopedEm(orm), payload);
    },
  };
}

/** The tasks of the webhook runner: several subscriptions at once, one job per subscription. */
export function webhookTasks(orm: Orm, connectionString: string): TaskList {
  return {
    [WEBHOOK_DELIVER]: async (payload) => {
      if (!isWebhookDeliverJob(payload)) throw new Error(`${WEBHOOK_DELIVER}: no subscription_id in ${JSON.stringify(payload)}`);
      await runAs('worker', () => deliverWebhooks(orm, connectionString, payload.subscription_id));
    },
  };
}

/**
 * At the worker's start: what a crash or restart may have left behind. `clockJobs: false` (tests) adds
 * no period start at the real date, as it schedules none (a start job that ran late in a test began
 * the real month for the administrations the test had created meanwhile).
 */
export async function addStartJobs(orm: Orm, options: { clockJobs?: boolean } = {}): Promise<void> {
  await addProcessingJob(orm.em.getConnection());
  await wakeAllSubscriptions(orm);
  if (options.clockJobs !== false) await addJob(orm.em.getConnection(), PERIOD_START, {}, { jobKey: PERIOD_START, jobKeyMode: 'replace' });
}
