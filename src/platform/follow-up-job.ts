// Follow-up work a use case leaves to the worker: a graphile-worker job added with SQL on the
// connection of the use case's own transaction, so the job exists exactly when the change
// committed (a rollback takes it back, a crash after the commit leaves it for the next worker).
// The tasks that run them are listed in src/sessions/session-queue.ts.
import type { Em } from './orm.ts';

export async function addFollowUpJob(em: Em, task: string, payload: Record<string, unknown>): Promise<void> {
  if (!em.isInTransaction()) throw new Error(`the ${task} job belongs in the transaction of the change it follows`);
  await em.execute('select graphile_worker.add_job(?, ?::json)', [task, JSON.stringify(payload)]);
}
