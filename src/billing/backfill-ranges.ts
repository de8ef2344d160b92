// Billing what was priced before a series billed it (the `billing_backfill` job): each source that
// bills sessions (MSP sessions, and those the areas above billing register: CPO reimbursements,
// roaming) names its subjects of an administration in id order and its candidates of an id range.
// The ranges are billed in batches, one transaction each, `lanes` at a time: memory stays flat, and
// subjects billed at their version already are left as they are (the core finds them the same).
import { DeadlockException, UniqueConstraintViolationException } from '@mikro-orm/core';
import type { Em } from '../platform/orm.ts';
import { lockBackfillLane } from './backfill-lock.ts';
import { collectItems } from './collect-items.ts';
import type { CandidateSelect } from './item-source.ts';

/** A source whose items can be billed after the fact, by ranges of subject ids (uuids). */
export interface BackfillSource {
  /** The source kind of its items. */
  kind: string;
  /** How many subjects of the administration (`?`) there are to bill: a query answering `n`. */
  countSql: string;
  /**
   * The administration's (first `?`) subject ids after the second `?`, ascending, at most the third
   * `?`: a query answering `id` per subject, by an index.
   */
  idsSql: string;
  /** The candidates of the administration's subjects with ids in (afterId, lastId]. */
  candidates(adminId: string, afterId: string, lastId: string): CandidateSelect;
}

/** What a watched backfill hears of its batches (billing-backfill.service.ts). */
export interface BackfillProgress {
  /** Last in a batch's transaction: it commits with the batch's items. */
  inTransaction(tx: Em, subjects: number): Promise<void>;
  /** After the batch committed. */
  committed(subjects: number): void;
}

/** Subjects per backfill transaction: SVC_BILLING_BACKFILL_BATCH (1 to 1,000,000), else 50,000. */
export function backfillBatchSize(): number {
  const n = Number(process.env.SVC_BILLING_BACKFILL_BATCH || '50000');
  return Number.isInteger(n) && n >= 1 && n <= 1_000_000 ? n : 50_000;
}

/** Ranges a backfill bills at a time, each in a transaction of its own. */
export const BACKFILL_LANES = 2;

/**
 * Subjects of the `index`-th range claimed. With more than one lane the first is a fifth of the
 * others: it creates most boxes, which every other range's transaction would wait for until it
 * commits (`npm run bench -- billing` with 300,000 sessions: the second lane's first range waited
 * 1.9 s of the billing's 7 with ranges of equal size).
 */
export function rangeSize(index: number, batchSize: number, lanes: number): number {
  return index === 0 && lanes > 1 ? Math.ceil(batchSize / 5) : batchSize;
}

/** The batches (ranges) billing `subjects` takes, as billUnbilled claims them. */
export function plannedBatches(subjects: number, batchSize: number, lanes: number): number {
  const first = rangeSize(0, batchSize, lanes);
  return subjects <= 0 ? 0 : subjects <= first ? 1 : 1 + Math.ceil((subjects - first) / batchSize);
}

const NONE = '00000000-0000-0000-0000-000000000000';

interface Range { afterId: string; lastId: string; n: number }

/** Attempts of one batch: a deadlock or a subject billed meanwhile by its pricing is tried again. */
const BATCH_ATTEMPTS = 3;

async function billRange(em: Em, source: BackfillSource, adminId: string, lane: number, range: Range, progress?: BackfillProgress): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    try {
      await em.transactional(async (tx) => {
        await lockBackfillLane(tx, adminId, lane);
        await collectItems(tx, source.kind, source.candidates(adminId, range.afterId, range.lastId), { answer: false });
        await progress?.inTransaction(tx, range.n);
      });
      progress?.committed(range.n);
      return;
    } catch (error) {
      const again = error instanceof DeadlockException || error instanceof UniqueConstraintViolationException;
      if (!again || attempt >= BATCH_ATTEMPTS) throw error;
    }
  }
}

/**
 * Bills every subject of the source of an administration in id ranges (rangeSize), `lanes` ranges
 * at a time, each on its own connection. Ranges that create boxes in the same review-set wait for
 * each other (box-numbering-lock.ts; the review-set itself, when new, waits for the first to
 * commit): the first range, a short one, creates most boxes while the next ones read their
 * candidates; the later ranges, which mostly add items to existing boxes, run side by side.
 * Answers the subjects billed.
 */
export async function billUnbilled(em: Em, source: BackfillSource, adminId: string, batchSize = backfillBatchSize(), lanes = BACKFILL_LANES,
  progress?: BackfillProgress): Promise<number> {
  let afterId = NONE;
  let total = 0;
  let stopped = false;
  let claimed = 0;
  // Ranges are claimed one after another: each starts after the last one claimed.
  let claims: Promise<unknown> = Promise.resolve();
  const claim = (): Promise<Range | null> => {
    const next = claims.then(async () => {
      if (stopped) return null;
      const [bound] = await em.execute<{ last: string | null; n: number }[]>(`select max(id::text) as last, count(*)::int as n from (${source.idsSql}) x`,
        [adminId, afterId, rangeSize(claimed++, batchSize, lanes)]);
      if (!bound || bound.n === 0 || !bound.last) return null;
      const range = { afterId, lastId: bound.last, n: bound.n };
      afterId = bound.last;
      return range;
    });
    claims = next.catch(() => undefined);
    return next;
  };

  let analyzed = false;
  const lane = async (index: number): Promise<void> => {
    const laneEm = em.fork();
    try {
      for (let range = await claim(); range; range = await claim()) {
        await billRange(laneEm, source, adminId, index, range, progress);
        total += range.n;
        // Statistics of the boxes, roll-ups and items the first batch created, for the next batches'
        // plans (outside any transaction); later the planner scales row counts by the tables' current
        // size and autovacuum keeps up. Of the items only the columns the core joins and filters on.
        if (!analyzed) {
          analyzed = true;
          const started = performance.now();
          await laneEm.execute(`analyze billing_item (source_kind, subject_id, line_key, superseded, entry, box_id, rollup_id), billing_rollup, billing_box`);
          if (process.env.SVC_BILLING_TRACE === '1') console.error(`  ${(performance.now() - started).toFixed(0).padStart(6)} ms  analyze billing_item, billing_rollup, billing_box`);
        }
      }
    } catch (error) {
      stopped = true;
      throw error;
    }
  };
  const failures = (await Promise.allSettled(Array.from({ length: Math.max(1, lanes) }, (_, index) => lane(index))))
    .filter((r): r is PromiseRejectedResult => r.status === 'rejected').map((r) => r.reason as unknown);
  if (failures.length === 1) throw failures[0];
  if (failures.length > 1) throw new AggregateError(failures, `billing backfill of ${adminId}: ${failures.length} lanes failed`);
  return total;
}
