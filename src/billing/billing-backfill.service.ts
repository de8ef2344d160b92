// Billing what was priced before a series billed it (the `billing_backfill` job, added when a
// series is created or changes the sources it bills), for every source of backfill-sources.ts, watched: its progress is a row of billing_backfill (one per
// administration) that each batch moves in its own transaction, a log line per batch, and what
// GET /billing-backfill, GraphQL billingBackfills and the metrics read.
import { addJob } from '../platform/jobs.ts';
import { errorFields, logger } from '../platform/log.ts';
import type { Em } from '../platform/orm.ts';
import { BACKFILL_LANES, backfillBatchSize, billUnbilled, plannedBatches, type BackfillProgress } from './backfill-ranges.ts';
import { backfillSources } from './backfill-sources.ts';
import { asOnlyBackfillRun, lockBackfillLane } from './backfill-lock.ts';
import { BILLING_BACKFILL, backfillJobKey } from './billing-backfill-job.ts';

const EMPTY_PROGRESS = `batches_done = 0, batches_total = 0, sessions_done = 0, sessions_total = 0, finished_at = null, error = null`;

/** In the transaction that adds the backfill job: the administration's backfill is pending (unless one is under way). */
export async function recordBackfillPending(em: Em, adminId: string): Promise<void> {
  await em.execute(`insert into billing_backfill (id, admin_id, state, started_at, updated_at) values (svc_uuidv7(), ?, 'pending', null, now())
    on conflict (admin_id) do update set state = 'pending', started_at = null, ${EMPTY_PROGRESS}, updated_at = now()
    where billing_backfill.state in ('done', 'failed')`, [adminId]);
}

const count = (n: number) => n.toLocaleString('en');

/** Seconds after which a run asked for while another run of the administration is under way is tried again. */
const AGAIN_SECONDS = 2;

/**
 * The job: bills the administration's priced sessions (and the other sources' subjects) in batches,
 * reporting each. Answers the subjects billed. One run of an administration at a time
 * (backfill-lock.ts): while another is under way (another worker's, or a job added while this
 * one's ran), this one bills nothing, leaves the progress row to it, and adds its job again to run
 * AGAIN_SECONDS later (answering 0): it then finds billed what the other billed, and bills what
 * that one could not have seen (a series changed meanwhile).
 */
export async function runBillingBackfill(em: Em, adminId: string, batchSize = backfillBatchSize()): Promise<number> {
  const log = logger().child({ admin_id: adminId, job: BILLING_BACKFILL });
  const run = await asOnlyBackfillRun(em, adminId, () => backfill(em, adminId, batchSize, log));
  if (run.ran) return run.value;
  await addJob(em, BILLING_BACKFILL, { admin_id: adminId }, { delaySeconds: AGAIN_SECONDS, jobKey: backfillJobKey(adminId), jobKeyMode: 'preserve_run_at' });
  log.info(`billing backfill of ${adminId}: another run is under way; tried again in ${AGAIN_SECONDS} s`);
  return 0;
}

async function backfill(em: Em, adminId: string, batchSize: number, log: ReturnType<typeof logger>): Promise<number> {
  const sources = backfillSources();
  // Pricing transactions that looked for a series before there was one (and so billed nothing) may
  // not have committed yet: the counts and the first claims would miss their subjects.
  await em.transactional((tx) => lockBackfillLane(tx, adminId, 0));
  const counts: number[] = [];
  for (const source of sources) counts.push((await em.execute<{ n: number }[]>(source.countSql, [adminId]))[0].n);
  const sessions = counts.reduce((a, b) => a + b, 0);
  const batches = counts.reduce((a, n) => a + plannedBatches(n, batchSize, BACKFILL_LANES), 0);
  await em.execute(`insert into billing_backfill (id, admin_id, state, batches_total, sessions_total, started_at, updated_at)
      values (svc_uuidv7(), ?, 'running', ?, ?, now(), now())
    on conflict (admin_id) do update set state = 'running', batches_done = 0, batches_total = excluded.batches_total, sessions_done = 0,
      sessions_total = excluded.sessions_total, started_at = now(), finished_at = null, error = null, updated_at = now()`, [adminId, batches, sessions]);
  log.info({ batches_total: batches, sessions_total: sessions }, `billing backfill of ${adminId}: ${count(sessions)} sessions in ${batches} batches of up to ${count(batchSize)}`);
  const started = performance.now();
  let batchesDone = 0;
  let sessionsDone = 0;
  try {
    const progress: BackfillProgress = {
      // In the batch's transaction: the progress moves exactly when the batch's items commit. Sessions priced
      // meanwhile may add batches: the totals grow with what is done.
      inTransaction: (tx, n) => tx.execute(`update billing_backfill set batches_done = batches_done + 1, sessions_done = sessions_done + ?,
          batches_total = greatest(batches_total, batches_done + 1), sessions_total = greatest(sessions_total, sessions_done + ?), updated_at = now()
        where admin_id = ?`, [n, n, adminId]).then(() => {}),
      committed: (n) => {
        batchesDone++;
        sessionsDone += n;
        log.info({ batches_done: batchesDone, batches_total: Math.max(batches, batchesDone), sessions_done: sessionsDone, sessions_total: Math.max(sessions, sessionsDone) },
          `billing backfill of ${adminId}: batch ${batchesDone} of ${Math.max(batches, batchesDone)} (${count(sessionsDone)} of ${count(Math.max(sessions, sessionsDone))} sessions)`);
      },
    };
    let billed = 0;
    // Sources without subjects are skipped (no claim, no lock): most administrations have one or two.
    for (const [i, source] of sources.entries()) if (counts[i]! > 0) billed += await billUnbilled(em, source, adminId, batchSize, BACKFILL_LANES, progress);
    await em.execute(`update billing_backfill set state = 'done', finished_at = now(), updated_at = now() where admin_id = ?`, [adminId]);
    log.info({ sessions_done: billed, seconds: Math.round(performance.now() - started) / 1000 },
      `billing backfill of ${adminId}: done, ${count(billed)} sessions in ${((performance.now() - started) / 1000).toFixed(1)} s`);
    return billed;
  } catch (error) {
    const reason = errorFields(error).message;
    await em.execute(`update billing_backfill set state = 'failed', finished_at = now(), error = ?, updated_at = now() where admin_id = ?`, [reason, adminId])
      .catch(() => {});
    log.error({ err: error }, `billing backfill of ${adminId}: failed after ${batchesDone} batches (the job is tried again)`);
    throw error;
  }
}
