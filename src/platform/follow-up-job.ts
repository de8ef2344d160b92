// Follow-up work a use case leaves to the worker: a graphile-worker job added with SQL on the
// connection of the use case's own transaction, so the job exists exactly when the change
// committed (a rollback takes it back, a crash after the commit leaves it for the next worker).
// The tasks that run them are listed in src/sessions/session-queue.ts.
import type { Em } from './orm.ts';

/**
 * `runAt`: not before this moment (a deadline such as a command's timeout). `jobKey`: one job for
 * the key (a job not yet started is kept; a running one is left to finish and a new one added).
 */
export async function addFollowUpJob(em: Em, task: string, payload: Record<string, unknown>, options: { runAt?: Date; jobKey?: string } = {}): Promise<void> {
  if (!em.isInTransaction()) throw new Error(`the ${task} job belongs in the transaction of the change it follows`);
  if (options.runAt) await em.execute('select graphile_worker.add_job(?, ?::json, run_at := ?::timestamptz)', [task, JSON.stringify(payload), options.runAt.toISOString()]);
  else if (options.jobKey) await em.execute("select graphile_worker.add_job(?, ?::json, job_key := ?, job_key_mode := 'preserve_run_at')", [task, JSON.stringify(payload), options.jobKey]);
  else await em.execute('select graphile_worker.add_job(?, ?::json)', [task, JSON.stringify(payload)]);
}
