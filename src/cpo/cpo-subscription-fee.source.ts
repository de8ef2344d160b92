// Item source: recurring costs of CPO subscriptions (hosting, maintenance), billed per invoicing
// period like MSP fees: per subscription (prorated by its valid days) or per EVSE validly linked
// to it (each link prorated by its own valid days within the subscription's). The plan version
// is the one valid at the period's start, else the first one starting within the period.
// A recurring cost correction (recollectCpoSubscriptionFees) bills one subscription again for the
// periods that already hold its fees, from the first period a change affects; a subscription or link
// created or changed bills the started periods that hold no fee of it yet (billUnbilledCpoSubscriptionFees).
import { VERSION_FOR_PERIOD_SQL } from '../contracts/versions.ts';
import { isZero, percentOfDecimal } from '../money/decimal.ts';
import type { CpoRecurringCost } from './cpo-subscription-plan-version.entity.ts';
import type { Em } from '../platform/orm.ts';
import { vatRateAt } from '../pricing/vat-rate.service.ts';
import { collectItems } from '../billing/collect-items.ts';
import { billedPeriodSubjects } from '../billing/period-fee-subjects.ts';
import { candidateRows, type ItemCandidate } from '../billing/item-source.ts';
import { billingAdmin } from '../billing/billing-admin.ts';
import { billUnbilledPeriods } from '../billing/unbilled-fees.ts';
import { withdrawFees } from '../billing/withdraw-fees.ts';
import { lockFeeBilling } from '../billing/fee-lock.ts';
import { periodAt } from '../billing/period-bounds.ts';
import { proratedFee, validDays, type FeePeriod } from '../billing/sources/subscription-fee.source.ts';

export const CPO_SUBSCRIPTION_FEE_SOURCE = 'cpo_subscription_fee';

interface Row {
  subscription_id: string;
  external_reference: string | null;
  customer_id: string;
  valid_from: Date;
  valid_until: Date | null;
  plan_name: string;
  recurring_costs: CpoRecurringCost[];
  link_id: string | null;
  link_from: Date | null;
  link_until: Date | null;
  evse_uid: string | null;
}

const SUBSCRIPTIONS = `select s.id as subscription_id, s.external_reference, s.customer_id, s.valid_from, s.valid_until, p.name as plan_name,
    v.recurring_costs, l.id as link_id, l.valid_from as link_from, l.valid_until as link_until, e.evse_uid
  from cpo_subscription s join cpo_subscription_plan p on p.id = s.plan_id
  join lateral (select v.recurring_costs from cpo_subscription_plan_version v where v.plan_id = p.id and ${VERSION_FOR_PERIOD_SQL}) v on true
  left join cpo_subscription_evse_link l on l.subscription_id = s.id and not l.defunct
  left join cpo_evse e on e.id = l.evse_id
  where s.admin_id = ? and not s.defunct and s.valid_from < ? and (s.valid_until is null or s.valid_until > ?)`;
const ORDER = ' order by s.id, l.id';

const earlier = (a: Date | null, b: Date | null) => (a && b ? (a < b ? a : b) : (a ?? b));
const later = (a: Date | null, b: Date) => (a && a > b ? a : b);

/** The period's candidates of an administration's CPO subscriptions, or of one subscription. */
export async function cpoFeeCandidates(em: Em, fp: FeePeriod, subscriptionId?: string): Promise<ItemCandidate[]> {
  const params = [fp.period.until, fp.period.from, fp.period.from, fp.adminId, fp.period.until, fp.period.from];
  const raw = await em.execute<Row[]>(subscriptionId ? `${SUBSCRIPTIONS} and s.id = ?${ORDER}` : `${SUBSCRIPTIONS}${ORDER}`,
    subscriptionId ? [...params, subscriptionId] : params);
  if (!raw.length) return [];
  const date = (v: unknown) => (v ? new Date(v as string) : null);
  const rows = raw.map((r) => ({ ...r, valid_from: new Date(r.valid_from), valid_until: date(r.valid_until), link_from: date(r.link_from), link_until: date(r.link_until) }));
  const vat = await vatRateAt(em, fp.country, 'standard', fp.period.from);
  const { label, first, last } = fp.period;
  const candidates: ItemCandidate[] = [];
  const add = (row: typeof rows[number], cost: CpoRecurringCost, index: number, subject: string, days: number, of: number, what: string) => {
    const amount = proratedFee(cost, fp.kind, days, of);
    if (days === 0 || isZero(amount)) return;
    candidates.push({
      admin_id: fp.adminId, party_id: row.customer_id, subject_id: `${subject}/${label}/${index}`, line_key: '', source_version: 1,
      occurred_at: fp.period.from.toISOString(), product_category: 'cpo_subscription_fee', vat_kind: 'standard', vat_percent: vat.percentage,
      vat_country: fp.country, currency: fp.currency,
      description: `${cost.description} – ${row.plan_name}${what}, ${first} to ${last}${days < of ? ` (${days}/${of} days)` : ''}`,
      quantity: '1', unit: 'period', unit_price: amount, amount_excl_vat: amount, vat_amount_unrounded: percentOfDecimal(amount, vat.percentage),
      group_subscription: row.external_reference ?? row.subscription_id, group_token: null,
      sub_items: [{ kind: 'recurring_cost', label: cost.description, volume: String(days), unit: 'day', amount_excl_vat: amount }],
      context: null, reference: row.external_reference, box_category_description: null, distinct_code: null, series_code: null,
      external_reference: null, input: null,
    });
  };
  const seen = new Set<string>();
  for (const row of rows) {
    const subscriptionDays = validDays(row, fp);
    row.recurring_costs.forEach((cost, index) => {
      if ((cost.per ?? 'subscription') === 'subscription') {
        if (seen.has(`${row.subscription_id}/${index}`)) return;
        seen.add(`${row.subscription_id}/${index}`);
        add(row, cost, index, row.subscription_id, subscriptionDays.days, subscriptionDays.of, '');
      } else if (row.link_id) {
        // A link's days within the subscription's: its bounds clipped to the subscription's, both ends.
        const link = validDays({ valid_from: later(row.link_from, row.valid_from), valid_until: earlier(row.link_until, row.valid_until) }, fp);
        add(row, cost, index, row.link_id, link.days, link.of, `, EVSE ${row.evse_uid}`);
      }
    });
  }
  return candidates;
}

/** Bills the recurring costs of an administration's CPO subscriptions for one period (idempotent): the period's fees billed before and no longer due are withdrawn. */
export async function billCpoSubscriptionFees(em: Em, fp: FeePeriod): Promise<void> {
  const candidates = await cpoFeeCandidates(em, fp);
  const subjects = await billedPeriodSubjects(em, CPO_SUBSCRIPTION_FEE_SOURCE, fp.adminId, fp.period.from);
  if (candidates.length || subjects.length) await collectItems(em, CPO_SUBSCRIPTION_FEE_SOURCE, candidateRows(candidates), { subjects });
}

/** Fee items of a subscription and its EVSE links (every entry: a withdrawn fee's period stays billed). */
const BILLED = `select i.subject_id, i.occurred_at, (i.entry = 'original' and not i.superseded) as current
  from billing_item i
  where i.source_kind = ? and i.admin_id = ? and split_part(i.subject_id, '/', 1) = any(?::text[])`;

const SUBJECTS = `select s.id::text as id, s.admin_id from cpo_subscription s where s.id = ?
  union all select l.id::text, l.admin_id from cpo_subscription_evse_link l where l.subscription_id = ?`;

/**
 * The recurring cost correction of a CPO subscription (its EVSE links included): every invoicing
 * period that already holds fee items of it and ends after `from` is collected again, in the
 * caller's transaction. Its lines follow the core's rules (changed in place in an open box, else
 * reversal + new line in the next open box); lines it no longer produces (a shortened validity, a
 * defunct link) are withdrawn. Periods without its fees are billed by billUnbilledCpoSubscriptionFees.
 */
export async function recollectCpoSubscriptionFees(em: Em, subscriptionId: string, from: Date): Promise<void> {
  const owners = await em.execute<{ id: string; admin_id: string }[]>(SUBJECTS, [subscriptionId, subscriptionId]);
  if (!owners.length) return;
  await lockFeeBilling(em, owners[0].admin_id);
  const billed = await em.execute<{ subject_id: string; occurred_at: string | Date; current: boolean }[]>(
    BILLED, [CPO_SUBSCRIPTION_FEE_SOURCE, owners[0].admin_id, `{${owners.map((o) => o.id).join(',')}}`]);
  if (!billed.length) return;
  const admin = await billingAdmin(em, owners[0].admin_id);
  const periods = new Map<number, { current: Set<string> }>();
  for (const item of billed) {
    const start = new Date(item.occurred_at).getTime();
    const period = periods.get(start) ?? { current: new Set<string>() };
    periods.set(start, period);
    if (item.current) period.current.add(item.subject_id);
  }
  for (const start of [...periods.keys()].sort((a, b) => a - b)) {
    const period = await periodAt(em, new Date(start), admin.timeZone, admin.kind);
    if (period.until <= from) continue;
    const fp: FeePeriod = { adminId: admin.adminId, country: admin.country, currency: admin.currency, timeZone: admin.timeZone, kind: admin.kind, period };
    const { current } = periods.get(start)!;
    const candidates = await cpoFeeCandidates(em, fp, subscriptionId);
    if (candidates.length || current.size) {
      await collectItems(em, CPO_SUBSCRIPTION_FEE_SOURCE, candidateRows(candidates), { subjects: [...current], answer: false });
    }
  }
}

/** A defunct subscription (its links defunct with it), or one defunct link of it, bills nothing (src/billing/withdraw-fees.ts). */
export async function withdrawCpoSubscriptionFees(em: Em, subscriptionId: string, linkId?: string): Promise<void> {
  const owners = await em.execute<{ id: string; admin_id: string }[]>(SUBJECTS, [subscriptionId, subscriptionId]);
  if (!owners.length) return;
  await withdrawFees(em, CPO_SUBSCRIPTION_FEE_SOURCE, owners[0].admin_id, linkId ? [linkId] : owners.map((owner) => owner.id));
}

const SUBSCRIPTION = `select s.admin_id, s.valid_from, s.valid_until from cpo_subscription s where s.id = ? and not s.defunct`;

/**
 * The started periods the subscription covers that hold no fee of it, or of one of its EVSE links,
 * yet are billed those fees, in the caller's transaction (src/billing/unbilled-fees.ts), with or
 * without the recurring cost correction: a subscription or link created, or its bounds changed, after
 * a period of its validity started (a closed month included: the period start never comes again).
 * Each owner (the subscription, each link) is looked at on its own: a link created after its month
 * closed is billed its per-EVSE fee there, the subscription's own fee billed then is not billed again.
 */
export async function billUnbilledCpoSubscriptionFees(em: Em, subscriptionId: string): Promise<void> {
  const [subscription] = await em.execute<{ admin_id: string; valid_from: string | Date; valid_until: string | Date | null }[]>(SUBSCRIPTION, [subscriptionId]);
  if (!subscription) return;
  const admin = await billingAdmin(em, subscription.admin_id);
  await billUnbilledPeriods(em, admin, {
    kind: CPO_SUBSCRIPTION_FEE_SOURCE,
    from: new Date(subscription.valid_from),
    until: subscription.valid_until ? new Date(subscription.valid_until) : null,
    candidates: (period) => cpoFeeCandidates(em, {
      adminId: admin.adminId, country: admin.country, currency: admin.currency, timeZone: admin.timeZone, kind: admin.kind, period,
    }, subscriptionId),
  });
}
