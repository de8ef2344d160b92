// Jobs a benchmark's process added and did not run (a billing backfill its seed asked for, with no
// worker to run it) are failed permanently when it ends, and named: otherwise the next benchmark's
// worker ran them while it was measured (one held session processing 8 s in a growth run).
import { makeWorkerUtils } from 'graphile-worker';
import pg from 'pg';

export async function failLeftoverJobs(databaseUrl: string, benchmark: string): Promise<void> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  let left: { id: string; task_identifier: string }[];
  try {
    ({ rows: left } = await client.query(`select id::text, task_identifier from graphile_worker.jobs where locked_at is null and attempts < max_attempts`));
  } finally {
    await client.end();
  }
  if (!left.length) return;
  const utils = await makeWorkerUtils({ connectionString: databaseUrl });
  try {
    await utils.permanentlyFailJobs(left.map((job) => job.id), `left by the ${benchmark} benchmark`);
  } finally {
    await utils.release();
  }
  const tasks = new Map<string, number>();
  for (const job of left) tasks.set(job.task_identifier, (tasks.get(job.task_identifier) ?? 0) + 1);
  console.log(`  (${left.length} job(s) it left unrun failed, so that no later benchmark runs them: ${[...tasks].map(([task, n]) => `${task} × ${n}`).join(', ')})`);
}
