// Recurring fees of started periods a contract reaches into but that never held its fee (since
// 2026-11-28, found by probing): a contract created, or whose bounds changed, after a period of its
// validity started. The period start bills only the period it runs in and a review-set's close only
// the period it closes, so a period already closed (or started) before the contract reached into it
// billed nothing for it. The fee sources (MSP subscription fees, CPO subscription fees) call this
// in the transaction of the change, whatever `recurring_cost_correction` says: that option re-bills
// periods that hold fees already (recollect*), this bills those that hold none.
//
// A period is started when it has begun and a review-set of it exists for the administration (its
// period start made it, or an item placed in it): its fees were billed then or are billed at its
// close. Periods without one, and periods still to come, are left to the period start; so a contract
// dated years back bills only the periods the administration has started, a bounded set. An owner (a subscription, an EVSE link) that holds a
// current fee item in a period is billed for that period, whatever its amount: re-billing it is the
// correction's. The new lines go through the billing core as new lines: into the period's box while
// it and its review-set are open, else the party's next open box.
import type { Em } from '../platform/orm.ts';
import type { BillingAdmin } from './billing-admin.ts';
import { collectItems } from './collect-items.ts';
import { candidateRows, type ItemCandidate } from './item-source.ts';
import { lockFeeBilling } from './fee-lock.ts';
import { billedPeriodOwners } from './period-fee-subjects.ts';
import { billingPeriod, periodOfSql, type BillingPeriod, type PeriodRow } from './period-bounds.ts';

// A review-set of a period still to come (made for a late line or a reversal when the current period's
// set closed early) leaves that period to its period start.
const STARTED = `select b.* from (select ?::text as zone, ?::text as kind) p
  cross join lateral (select distinct r.period_from from billing_review_set r
    where r.admin_id = ? and r.period_until > ? and r.period_from < coalesce(?::timestamptz, 'infinity') and r.period_from <= now()) r
  cross join lateral (${periodOfSql('r.period_from', 'p.zone', 'p.kind')}) b
  -- A review-set of another period length (from before a change of the invoicing period was refused) counts for the period it starts.
  where b.period_from = r.period_from
  order by b.period_from`;

/** The administration's started periods (begun, and a review-set exists) overlapping [from, until), in its current invoicing periods. */
export async function startedPeriods(em: Em, admin: BillingAdmin, from: Date, until: Date | null): Promise<BillingPeriod[]> {
  const rows = await em.execute<PeriodRow[]>(STARTED, [admin.timeZone, admin.kind, admin.adminId, from, until]);
  return rows.map(billingPeriod);
}

/** Fee subject ids are `<owner>/<period label>/<cost index>`: the owner and period. */
const ownerPeriod = (subjectId: string) => subjectId.slice(0, subjectId.lastIndexOf('/'));
const owner = (subjectId: string) => subjectId.slice(0, subjectId.indexOf('/'));

const textArray = (values: string[]) => `{${values.map((v) => `"${v.replaceAll('\\', '\\\\').replaceAll('"', '\\"')}"`).join(',')}}`;

// By the unique index (source_kind, subject_id, ...): one look-up per candidate line. An owner holds a
// period's fee when one of the lines it produces now (its costs' indexes) has a current item there.
const CURRENT_SUBJECTS = `select distinct i.subject_id from billing_item i
  where i.source_kind = ? and i.subject_id = any(?::text[]) and i.entry = 'original' and not i.superseded`;

export interface UnbilledFees {
  /** The fee source's kind. */
  kind: string;
  /** The validity the contracts of the change cover together: the started periods overlapping it are looked at. */
  from: Date;
  until: Date | null;
  /** The source's candidates of the contracts for one period. */
  candidates(period: BillingPeriod): Promise<ItemCandidate[]>;
  /** Per owner, the owners whose current fees in a period count as its own (a correction's successor: its predecessor). */
  predecessors?: Record<string, string[]>;
}

/**
 * Bills, in the caller's transaction, every started period the contracts cover whose owners hold no
 * current fee item of it yet: their candidates are collected as new lines. Idempotent: a second
 * run finds the lines it billed, and so does one beside it (the fee lock, fee-lock.ts).
 */
export async function billUnbilledPeriods(em: Em, admin: BillingAdmin, fees: UnbilledFees): Promise<void> {
  // What the period start or a close bills beside it is committed before this reads what is billed.
  await lockFeeBilling(em, admin.adminId);
  const periods = await startedPeriods(em, admin, fees.from, fees.until);
  if (!periods.length) return;
  const candidates: ItemCandidate[] = [];
  for (const period of periods) candidates.push(...await fees.candidates(period));
  if (!candidates.length) return;
  const billed = new Set((await em.execute<{ subject_id: string }[]>(CURRENT_SUBJECTS,
    [fees.kind, textArray(candidates.map((c) => c.subject_id))])).map((row) => ownerPeriod(row.subject_id)));
  for (const [successor, predecessors] of Object.entries(fees.predecessors ?? {})) {
    for (const period of periods) {
      const line = candidates.find((c) => owner(c.subject_id) === successor && c.occurred_at === period.from.toISOString());
      if (!line || billed.has(ownerPeriod(line.subject_id))) continue;
      if ((await billedPeriodOwners(em, fees.kind, admin.adminId, period.from, predecessors)).length) billed.add(ownerPeriod(line.subject_id));
    }
  }
  const unbilled = candidates.filter((c) => !billed.has(ownerPeriod(c.subject_id)));
  if (unbilled.length) await collectItems(em, fees.kind, candidateRows(unbilled), { answer: false });
}
