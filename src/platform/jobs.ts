// Every graphile-worker job is added here (test/architecture.test.ts checks that no other file
// calls `graphile_worker.add_job`). Follow-up work a use case leaves to the worker is a job added
// with SQL on the connection of the use case's own transaction, so the job exists exactly when the
// change committed (a rollback takes it back, a crash after the commit leaves it for the next
// worker). Wake-ups outside a transaction (a kick after ingestion, a webhook's retry, the worker's
// start) go through the same helper on a connection of their own. The tasks that run the jobs are
// listed in src/worker/tasks.ts.
import type { Em } from './orm.ts';

/** What runs the statement: an EntityManager (its transaction, if any) or a connection. */
export interface JobConnection { execute(sql: string, params?: unknown[]): Promise<unknown> }

/**
 * `replace`: a job of the key not yet started is replaced (payload and run at); `preserve_run_at`:
 * replaced but keeps its run at. A running job of the key is left to finish and a new one added.
 */
export type JobKeyMode = 'replace' | 'preserve_run_at';

export type JobOptions = {
  /** Not before this moment (a deadline such as a command's timeout). */
  runAt?: Date;
  /** Not before this many seconds after the database's `now()` (a retry's back-off). */
  delaySeconds?: number;
} & ({ jobKey?: undefined; jobKeyMode?: undefined } | {
  /** One job for the key. */
  jobKey: string;
  jobKeyMode: JobKeyMode;
});

/** The named arguments of `graphile_worker.add_job` after the task and payload, and their values. */
function namedArguments(options: JobOptions): { sql: string; params: unknown[] } {
  const parts: string[] = [];
  const params: unknown[] = [];
  if (options.runAt) {
    parts.push('run_at := ?::timestamptz');
    params.push(options.runAt.toISOString());
  } else if (options.delaySeconds !== undefined) {
    parts.push('run_at := now() + make_interval(secs => ?)');
    params.push(options.delaySeconds);
  }
  if (options.jobKey !== undefined) {
    parts.push('job_key := ?', 'job_key_mode := ?');
    params.push(options.jobKey, options.jobKeyMode);
  }
  return { sql: parts.map((part) => `, ${part}`).join(''), params };
}

/** Adds a job on `db`: in its transaction when it is an EntityManager inside one. */
export async function addJob(db: JobConnection, task: string, payload: Record<string, unknown>, options: JobOptions = {}): Promise<void> {
  const named = namedArguments(options);
  await db.execute(`select graphile_worker.add_job(?, ?::json${named.sql})`, [task, JSON.stringify(payload), ...named.params]);
}

/** Follow-up work of a use case: the job joins the transaction of the change it follows. */
export async function addFollowUpJob(em: Em, task: string, payload: Record<string, unknown>, options: JobOptions = {}): Promise<void> {
  if (!em.isInTransaction()) throw new Error(`the ${task} job belongs in the transaction of the change it follows`);
  await addJob(em, task, payload, options);
}

/**
 * One job per row of `rows`, in one statement: a query whose columns are `payload` (json) and
 * `job_key` (text), e.g. a wake-up of every enabled webhook subscription.
 */
export async function addJobPerRow(db: JobConnection, task: string, rows: { sql: string; params?: unknown[] }, options: { jobKeyMode: JobKeyMode }): Promise<void> {
  await db.execute(`select graphile_worker.add_job(?, r.payload, job_key := r.job_key, job_key_mode := ?) from (${rows.sql}) r`,
    [task, options.jobKeyMode, ...(rows.params ?? [])]);
}
