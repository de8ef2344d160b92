// The job that says "there are received sessions": added soon after ingestion (one per short
// interval, a job key merges them) or in the transaction of a service that changes sessions. The
// task list is src/worker/tasks.ts.
import { databaseHealth, isDatabaseUnavailable } from '../platform/database-health.ts';
import { addJob, type JobConnection } from '../platform/jobs.ts';
import { logger } from '../platform/log.ts';
import { PoolClosing } from '../platform/pool-closing.ts';
import { isOrmOpen, type Em } from '../platform/orm.ts';

export const PROCESSING_TASK = 'process_sessions';

/** The one processing job (a job key merges them): on `db`, in its transaction if it has one. */
export async function addProcessingJob(db: JobConnection): Promise<void> {
  await addJob(db, PROCESSING_TASK, {}, { jobKey: PROCESSING_TASK, jobKeyMode: 'preserve_run_at' });
}

const KICK_DELAY_MS = 50;

const pendingKicks = new Set<string>();

/**
 * Asks for processing soon, outside the caller's transaction: one job for all sessions received
 * within a few milliseconds. A lost kick only delays processing until the minute job.
 */
export function requestProcessing(em: Em): void {
  const key = String(em.config.get('clientUrl') ?? em.config.get('dbName'));
  if (pendingKicks.has(key)) return;
  pendingKicks.add(key);
  const fork = em.fork();
  setTimeout(() => {
    pendingKicks.delete(key);
    // The service (or a test's app) closed its ORM meanwhile: the minute job picks the sessions up.
    if (!isOrmOpen(fork)) return;
    addProcessingJob(fork.getConnection()).catch((error) => {
      if (error instanceof PoolClosing) return;
      if (isDatabaseUnavailable(error)) databaseHealth.report(error);
      else logger().error({ err: error }, 'could not add the session processing job (the minute job picks the sessions up)');
    });
  }, KICK_DELAY_MS);
}

/** For services that change sessions in a transaction: the job joins that transaction. */
export async function requestProcessingIn(em: Em): Promise<void> {
  await addProcessingJob(em);
}

/** A run at `at` (a CPO session's next matching attempt), in the caller's transaction. */
export async function requestProcessingAt(em: Em, at: Date): Promise<void> {
  await addJob(em, PROCESSING_TASK, {}, { runAt: at });
}
