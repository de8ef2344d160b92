// Item source: recurring costs of MSP token subscriptions, billed per invoicing period of the
// subscription's administration and prorated by calendar days (decisions.md, "Periods"): local
// date of valid_from inclusive to local date of valid_until exclusive, clipped to the period,
// over the period's days. A cost per month on a quarterly invoice counts three times, and so on.
import { localTime } from '../../pricing/local-time.ts';
import { vatRateAt } from '../../pricing/vat-rate.service.ts';
import { mulDivToCurrency, percentOfDecimal, isZero } from '../../money/decimal.ts';
import type { RecurringCost } from '../../msp/subscription-plan.entity.ts';
import type { Em } from '../../platform/orm.ts';
import type { InvoicingPeriod } from '../billing-settings.entity.ts';
import { collectItems } from '../collect-items.ts';
import { billedPeriodSubjects } from '../period-fee-subjects.ts';
import { candidateRows, type ItemCandidate } from '../item-source.ts';
import { daysBetween, monthsOf } from '../periods.ts';
import { periodAt, type BillingPeriod } from '../period-bounds.ts';
import { billingAdmin } from '../billing-admin.ts';
import { billUnbilledPeriods } from '../unbilled-fees.ts';
import { lockFeeBilling } from '../fee-lock.ts';

export const SUBSCRIPTION_FEE_SOURCE = 'msp_subscription_fee';

interface FeeSubscription {
  id: string;
  external_reference: string | null;
  customer_id: string;
  valid_from: Date;
  valid_until: Date | null;
  plan_name: string;
  recurring_costs: RecurringCost[];
}

const SUBSCRIPTIONS = `select ts.id, ts.external_reference, ts.customer_id, ts.valid_from, ts.valid_until, p.name as plan_name,
    p.recurring_costs
  from msp_token_subscription ts join msp_subscription_plan p on p.id = ts.plan_id
  where ts.admin_id = ? and not ts.defunct and ts.valid_from < ? and (ts.valid_until is null or ts.valid_until > ?)
    and jsonb_array_length(p.recurring_costs) > 0`;
const ORDER = ' order by ts.id';

export interface FeePeriod {
  adminId: string;
  country: string;
  currency: string;
  timeZone: string;
  kind: InvoicingPeriod;
  period: BillingPeriod;
}

/** The days of the period the subscription is valid on, and the period's days. */
export function validDays(sub: { valid_from: Date; valid_until: Date | null }, fp: FeePeriod): { days: number; of: number } {
  const { first, last } = fp.period;
  const from = localTime(sub.valid_from, fp.timeZone).date;
  const until = sub.valid_until ? localTime(sub.valid_until, fp.timeZone).date : null;
  const start = from > first ? from : first;
  // To the period's last day included, or to valid_until's local date excluded.
  const days = until === null || until > last ? daysBetween(start, last) + 1 : daysBetween(start, until);
  return { days: Math.max(0, days), of: daysBetween(first, last) + 1 };
}

/** A recurring cost for one period: scaled from its own period to the invoicing period, prorated by days, rounded once. */
export function proratedFee(cost: { amount_excl_vat: string; period: InvoicingPeriod }, kind: InvoicingPeriod, days: number, of: number): string {
  return mulDivToCurrency(cost.amount_excl_vat, String(monthsOf(kind) * days), String(monthsOf(cost.period) * of));
}

/** The period's candidates of an administration's subscriptions, or of the subscriptions named. */
export async function feeCandidates(em: Em, fp: FeePeriod, subscriptionIds?: string[]): Promise<ItemCandidate[]> {
  const params = [fp.adminId, fp.period.until, fp.period.from];
  const rows = await em.execute<FeeSubscription[]>(subscriptionIds ? `${SUBSCRIPTIONS} and ts.id = any(?::uuid[])${ORDER}` : `${SUBSCRIPTIONS}${ORDER}`,
    subscriptionIds ? [...params, `{${subscriptionIds.join(',')}}`] : params);
  const subscriptions = rows.map((row) => ({ ...row, valid_from: new Date(row.valid_from), valid_until: row.valid_until ? new Date(row.valid_until) : null }));
  if (!subscriptions.length) return [];
  const vat = await vatRateAt(em, fp.country, 'standard', fp.period.from);
  const { label, first, last } = fp.period;
  const candidates: ItemCandidate[] = [];
  for (const sub of subscriptions) {
    const { days, of } = validDays(sub, fp);
    if (days === 0) continue;
    sub.recurring_costs.forEach((cost, index) => {
      const amount = proratedFee(cost, fp.kind, days, of);
      if (isZero(amount)) return;
      const partial = days < of ? ` (${days}/${of} days)` : '';
      candidates.push({
        admin_id: fp.adminId, party_id: sub.customer_id, subject_id: `${sub.id}/${label}/${index}`, line_key: '', source_version: 1,
        occurred_at: fp.period.from.toISOString(), product_category: 'subscription_fee', vat_kind: 'standard',
        vat_percent: vat.percentage, vat_country: fp.country, currency: fp.currency,
        description: `${cost.description} – ${sub.plan_name}, ${first} to ${last}${partial}`,
        quantity: '1', unit: 'period', unit_price: amount, amount_excl_vat: amount,
        vat_amount_unrounded: percentOfDecimal(amount, vat.percentage),
        group_subscription: sub.external_reference ?? sub.id, group_token: null,
        sub_items: [{ kind: 'recurring_cost', label: cost.description, volume: String(days), unit: 'day', amount_excl_vat: amount }],
        context: null, reference: sub.external_reference, box_category_description: null, distinct_code: null, series_code: null,
        external_reference: null, input: null,
      });
    });
  }
  return candidates;
}

/** Bills the recurring costs of an administration's subscriptions for one period (idempotent): the period's fees billed before and no longer due are withdrawn. */
export async function billSubscriptionFees(em: Em, fp: FeePeriod): Promise<void> {
  const candidates = await feeCandidates(em, fp);
  const subjects = await billedPeriodSubjects(em, SUBSCRIPTION_FEE_SOURCE, fp.adminId, fp.period.from);
  if (candidates.length || subjects.length) await collectItems(em, SUBSCRIPTION_FEE_SOURCE, candidateRows(candidates), { subjects });
}

/** Fee items of subscriptions (every entry: a withdrawn fee's period stays billed). */
const BILLED = `select i.subject_id, i.occurred_at, (i.entry = 'original' and not i.superseded) as current
  from billing_item i
  where i.source_kind = ? and i.admin_id = ? and split_part(i.subject_id, '/', 1) = any(?::text[])`;

/**
 * The recurring cost correction of MSP subscriptions, in the caller's transaction: every invoicing
 * period that already holds fee items of `billedOf` and ends after `from` is collected again for
 * `subscriptionIds` (a changed subscription; a correction's old subscription and its successor, which
 * takes the old one's periods from the correction on). Lines follow the core's rules: changed in
 * place in an open box, else reversed with the new line in the party's next open box; lines no longer
 * produced are withdrawn. Periods without fees of `billedOf` are billed by billUnbilledSubscriptionFees.
 */
export async function recollectSubscriptionFees(em: Em, adminId: string, billedOf: string, subscriptionIds: string[], from: Date): Promise<void> {
  await lockFeeBilling(em, adminId);
  const billed = await em.execute<{ subject_id: string; occurred_at: string | Date; current: boolean }[]>(BILLED, [SUBSCRIPTION_FEE_SOURCE, adminId, `{${billedOf}}`]);
  if (!billed.length) return;
  const admin = await billingAdmin(em, adminId);
  const periods = new Map<number, Set<string>>();
  for (const item of billed) {
    const start = new Date(item.occurred_at).getTime();
    const current = periods.get(start) ?? new Set<string>();
    periods.set(start, current);
    if (item.current) current.add(item.subject_id);
  }
  for (const start of [...periods.keys()].sort((a, b) => a - b)) {
    const period = await periodAt(em, new Date(start), admin.timeZone, admin.kind);
    if (period.until <= from) continue;
    const fp: FeePeriod = { adminId: admin.adminId, country: admin.country, currency: admin.currency, timeZone: admin.timeZone, kind: admin.kind, period };
    const candidates = await feeCandidates(em, fp, subscriptionIds);
    const current = periods.get(start)!;
    if (candidates.length || current.size) await collectItems(em, SUBSCRIPTION_FEE_SOURCE, candidateRows(candidates), { subjects: [...current], answer: false });
  }
}

const SPANS = `select min(ts.valid_from) as valid_from, bool_or(ts.valid_until is null) as open_ended, max(ts.valid_until) as valid_until
  from msp_token_subscription ts join msp_subscription_plan p on p.id = ts.plan_id
  where ts.admin_id = ? and ts.id = any(?::uuid[]) and not ts.defunct and jsonb_array_length(p.recurring_costs) > 0`;

/**
 * The started periods `subscriptionIds` (created, or their bounds changed) cover and that hold no fee
 * of theirs yet are billed, in the caller's transaction (unbilled-fees.ts), with or without the
 * recurring cost correction. `predecessors`: per subscription, the subscriptions whose fees in a period
 * count as its own (a plan-or-customer correction's successor: the old subscription, which was billed
 * for the period, so that without the correction it stays as billed).
 */
export async function billUnbilledSubscriptionFees(
  em: Em, adminId: string, subscriptionIds: string[], predecessors: Record<string, string[]> = {},
): Promise<void> {
  const [span] = await em.execute<{ valid_from: string | Date | null; open_ended: boolean | null; valid_until: string | Date | null }[]>(
    SPANS, [adminId, `{${subscriptionIds.join(',')}}`]);
  if (!span?.valid_from) return;
  const admin = await billingAdmin(em, adminId);
  await billUnbilledPeriods(em, admin, {
    kind: SUBSCRIPTION_FEE_SOURCE,
    from: new Date(span.valid_from),
    until: span.open_ended || !span.valid_until ? null : new Date(span.valid_until),
    candidates: (period) => feeCandidates(em, {
      adminId: admin.adminId, country: admin.country, currency: admin.currency, timeZone: admin.timeZone, kind: admin.kind, period,
    }, subscriptionIds),
    predecessors,
  });
}
