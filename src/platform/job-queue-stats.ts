// The job queue as metrics read it (graphile-worker's `jobs` view, at scrape time): per task, the
// jobs waiting or running, those retrying after an error, and those that failed for good (every
// attempt used; graphile-worker keeps them until someone removes them).
import type { JobConnection } from './jobs.ts';

export interface TaskQueueStats { task: string; queued: number; running: number; retrying: number; failed: number }

const STATS = `select task_identifier as task,
    count(*) filter (where attempts < max_attempts)::int as queued,
    count(*) filter (where attempts < max_attempts and locked_at is not null)::int as running,
    count(*) filter (where attempts < max_attempts and last_error is not null)::int as retrying,
    count(*) filter (where attempts >= max_attempts)::int as failed
  from graphile_worker.jobs group by task_identifier order by task_identifier`;

export async function jobQueueStats(connection: JobConnection): Promise<TaskQueueStats[]> {
  return await connection.execute(STATS) as TaskQueueStats[];
}
