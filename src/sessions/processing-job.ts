// The job that says "there are received sessions": added soon after ingestion (one per short
// interval, a job key merges them) or in the transaction of a service that changes sessions. The
// worker that runs it is session-queue.ts.
import { databaseHealth, isDatabaseUnavailable } from '../platform/database-health.ts';
import type { Em } from '../platform/orm.ts';

export const PROCESSING_TASK = 'process_sessions';
export const ADD_JOB_SQL = `select graphile_worker.add_job('${PROCESSING_TASK}', '{}'::json, job_key := '${PROCESSING_TASK}', job_key_mode := 'preserve_run_at')`;
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
    fork.getConnection().execute(ADD_JOB_SQL).catch((error) => {
      if (isDatabaseUnavailable(error)) databaseHealth.report(error);
      else console.error('[session worker] could not add a job:', error);
    });
  }, KICK_DELAY_MS);
}

/** For services that change sessions in a transaction: the job joins that transaction. */
export async function requestProcessingIn(em: Em): Promise<void> {
  await em.execute(ADD_JOB_SQL);
}

/** A run at `at` (a CPO session's next matching attempt), in the caller's transaction. */
export async function requestProcessingAt(em: Em, at: Date): Promise<void> {
  await em.execute(`select graphile_worker.add_job('${PROCESSING_TASK}', '{}'::json, run_at := ?::timestamptz)`, [at.toISOString()]);
}
