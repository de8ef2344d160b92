// Item source: priced MSP sessions. One item per session and VAT rate (the session's latest
// pricing result); its sub-items are the cost components. A repriced session's new version
// replaces its item (in place while the box is open, else reversal + new line).
import { DeadlockException, UniqueConstraintViolationException } from '@mikro-orm/core';
import type { Em } from '../../platform/orm.ts';
import { collectItems } from '../collect-items.ts';
import type { CandidateSelect } from '../item-source.ts';

export const MSP_SESSION_SOURCE = 'msp_session';

// Lines are grouped per session in a lateral subquery (a handful of subtotals each), so the outer
// query streams: no sort of the whole batch by wide group keys.
const SELECT = `select r.admin_id::text as admin_id, r.customer_id as party_id, s.id::text as subject_id,
    l.vat_kind || ':' || trim_scale(l.vat_percent)::text as line_key,
    r.version as source_version, s.start_at as occurred_at, 'charging' as product_category,
    l.vat_kind, l.vat_percent, l.vat_country,
    r.currency, 'Charge session ' || to_char(s.start_at at time zone s.time_zone, 'YYYY-MM-DD HH24:MI')
      || coalesce(' ' || s.evse_id, '') as description,
    1::numeric as quantity, 'session' as unit, l.amount_excl_vat as unit_price,
    l.amount_excl_vat, l.vat_amount_unrounded,
    coalesce(r.subscription_external_reference, r.subscription_id::text) as group_subscription, r.token_evco_id as group_token,
    l.sub_items,
    null::text as context, s.session_id as reference, null::text as box_category_description, null::text as distinct_code,
    null::text as series_code, null::text as external_reference, null::jsonb as input
  from msp_charge_session s
  -- Each session's pricing result by its unique index (offset 0 keeps the nested loop): a batch
  -- of a backfill reads its own results, not every result of the administration.
  cross join lateral (select r.admin_id, r.customer_id, r.version, r.currency, r.subscription_external_reference, r.subscription_id,
      r.token_evco_id, r.subtotals
    from msp_pricing_result r where r.session_id = s.id and r.version = s.pricing_version offset 0) r
  cross join lateral (
    select sub->>'vat_kind' as vat_kind, (sub->>'vat_percent')::numeric as vat_percent, sub->>'vat_country' as vat_country,
      sum((sub->>'amount_excl_vat')::numeric) as amount_excl_vat, sum((sub->>'vat_amount_unrounded')::numeric) as vat_amount_unrounded,
      jsonb_agg(jsonb_build_object('kind', sub->>'kind', 'label', coalesce(sub->>'rate_label', sub->>'kind'),
        'volume', coalesce(sub->>'billed_volume', sub->>'volume'), 'unit', sub->>'rate_unit', 'amount_excl_vat', sub->>'amount_excl_vat')
        order by ord) as sub_items
    from jsonb_array_elements(r.subtotals) with ordinality as e(sub, ord)
    group by 1, 2, 3) l
  where s.status = 'priced' and WHERE_SESSIONS`;

/** The candidates of the given sessions. */
export function sessionCandidates(sessionIds: string[]): CandidateSelect {
  return { sql: SELECT.replace('WHERE_SESSIONS', 's.id = any(?::uuid[])'), params: [`{${sessionIds.join(',')}}`] };
}

/** The priced sessions of an administration with ids in (afterId, lastId]. */
function sessionRange(adminId: string, afterId: string, lastId: string): CandidateSelect {
  return { sql: SELECT.replace('WHERE_SESSIONS', 's.admin_id = ? and s.id > ?::uuid and s.id <= ?::uuid'), params: [adminId, afterId, lastId] };
}

const NONE = '00000000-0000-0000-0000-000000000000';

/** Sessions per backfill transaction: SVC_BILLING_BACKFILL_BATCH (1 to 1,000,000), else 50,000. */
export function backfillBatchSize(): number {
  const n = Number(process.env.SVC_BILLING_BACKFILL_BATCH || '50000');
  return Number.isInteger(n) && n >= 1 && n <= 1_000_000 ? n : 50_000;
}

interface SessionRange { afterId: string; lastId: string; n: number }

/** Attempts of one batch: a deadlock or a session billed meanwhile by its pricing is tried again. */
const BATCH_ATTEMPTS = 3;

// A backfill's batch and the billing of sessions just priced are serialized per administration:
// without it a batch reads a session in its statement's snapshot while a repricing bills the new
// version beside it (neither sees the other's uncommitted item, and the unique key holds the
// version), and the session is billed twice, or at its old price. A batch holds its lane's lock
// exclusively; a pricing transaction holds every lane's lock of its administrations shared, from
// before it looks for a series to its commit, so batches (of other lanes) run side by side, pricing
// batches too, and a batch reads only what pricing transactions before it committed. Two-key form,
// its own class (the drop-out groups' is 736400120, the startup lock single-key 736400121).
const LOCK_CLASS = 736400122;
/** Lane i of a backfill takes key i % LOCK_LANES: more lanes than keys only wait for each other. */
const LOCK_LANES = 2;
const LOCK_KEY = `hashtext(?::text || '/' || ?::text)`;

async function lockLaneExclusively(tx: Em, adminId: string, lane: number): Promise<void> {
  await tx.execute(`select pg_advisory_xact_lock(${LOCK_CLASS}, ${LOCK_KEY})`, [adminId.toLowerCase(), lane % LOCK_LANES]);
}

/** Waits for the backfill batches of `adminIds` in flight, and holds new ones off until the commit. */
async function lockAgainstBackfill(em: Em, adminIds: string[]): Promise<void> {
  await em.execute(`select count(pg_advisory_xact_lock_shared(${LOCK_CLASS}, h)) from (select distinct hashtext(a || '/' || l::text) as h
      from json_array_elements_text(?::json) as a cross join generate_series(0, ${LOCK_LANES - 1}) as l order by h) ordered`,
  [JSON.stringify(adminIds.map((id) => id.toLowerCase()))]);
}

/** What a watched backfill hears of its batches (billing-backfill.service.ts). */
export interface BackfillProgress {
  /** Last in a batch's transaction: it commits with the batch's items. */
  inTransaction(tx: Em, sessions: number): Promise<void>;
  /** After the batch committed. */
  committed(sessions: number): void;
}

async function billRange(em: Em, adminId: string, lane: number, range: SessionRange, progress?: BackfillProgress): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    try {
      await em.transactional(async (tx) => {
        await lockLaneExclusively(tx, adminId, lane);
        await collectItems(tx, MSP_SESSION_SOURCE, sessionRange(adminId, range.afterId, range.lastId), { answer: false });
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
 * Bills every priced session of an administration in id ranges of `batchSize`, one transaction
 * each (a backfill; the bench's million sessions): memory stays flat, and sessions billed at
 * their version already are left as they are (the core finds them the same). `lanes` ranges are
 * billed at a time, each on its own connection. Ranges that create boxes in the same review-set
 * wait for each other (box-numbering-lock.ts; the review-set itself, when new, waits for the first
 * to commit): the first ranges mostly run one after the other, the later ones, which mostly add
 * items to existing boxes, side by side.
 */
export async function billUnbilledSessions(em: Em, adminId: string, batchSize = backfillBatchSize(), lanes = 2, progress?: BackfillProgress): Promise<number> {
  let afterId = NONE;
  let total = 0;
  let stopped = false;
  // Ranges are claimed one after another: each starts after the last one claimed.
  let claims: Promise<unknown> = Promise.resolve();
  const claim = (): Promise<SessionRange | null> => {
    const next = claims.then(async () => {
      if (stopped) return null;
      const [bound] = await em.execute<{ last: string | null; n: number }[]>(`select max(id::text) as last, count(*)::int as n from (
        select s.id from msp_charge_session s where s.admin_id = ? and s.status = 'priced' and s.id > ?::uuid order by s.id limit ?) x`,
      [adminId, afterId, batchSize]);
      if (!bound || bound.n === 0 || !bound.last) return null;
      const range = { afterId, lastId: bound.last, n: bound.n };
      afterId = bound.last;
      return range;
    });
    claims = next.catch(() => undefined);
    return next;
  };

  // Pricing transactions that looked for a series before the administration had one (and so billed
  // nothing) may not have committed yet: the first claim would miss their sessions.
  await em.transactional((tx) => lockLaneExclusively(tx, adminId, 0));
  let analyzed = false;
  const lane = async (index: number): Promise<void> => {
    const laneEm = em.fork();
    try {
      for (let range = await claim(); range; range = await claim()) {
        await billRange(laneEm, adminId, index, range, progress);
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

/**
 * Whether an administration among `adminIds` has a series that bills the source (the series the
 * candidate table looks up for a line without a series code): without one no candidate has a
 * series, so a collection would find none.
 */
const ANY_SERIES = `select exists (select 1 from billing_series r where r.admin_id in (select value::citext from json_array_elements_text(?::json))
    and (r.item_sources @> jsonb_build_array(?::text) or r.item_sources = '[]'::jsonb)) as found`;

/**
 * Bills sessions just priced, in the transaction that priced them. `adminIds`: the administrations
 * of their pricing results; when none of them has a series for the source the core's temporary
 * tables and statements are skipped (one look-up instead: they would place nothing).
 */
export async function billPricedSessions(em: Em, sessionIds: string[], adminIds: string[]): Promise<void> {
  if (!sessionIds.length) return;
  const admins = [...new Set(adminIds)];
  // A statement of its own: the look for a series must see what committed while this one waited.
  await lockAgainstBackfill(em, admins);
  const [{ found }] = await em.execute<{ found: boolean }[]>(ANY_SERIES, [JSON.stringify(admins), MSP_SESSION_SOURCE]);
  if (found) await collectItems(em, MSP_SESSION_SOURCE, sessionCandidates(sessionIds));
}
