// What a document needs of a box's items to name its lines and list its sessions, in one query:
// each item with the parts of what it bills (a fee's cost, plan and days; a custom item's own
// description, also for its reversal; a session's start, place, token, energy and duration). The
// stored item description is the API's text and is never printed, except a custom item's (users
// wrote it). Plain data; the box is the caller's to have checked.
import type { Em } from '../../platform/orm.ts';
import type { AnnexSession } from './billing-document.ts';
import { periodOfSql } from '../period-bounds.ts';

/** Sources whose items are charge sessions (one item per session and line): listed in the annex. */
export const SESSION_SOURCES = ['msp_session', 'cpo_reimbursement', 'roaming'] as const;
const SESSION_KINDS = SESSION_SOURCES.map((k) => `'${k}'`).join(', ');

export interface DocumentItem {
  id: string;
  rollup_id: string;
  source_kind: string;
  entry: 'original' | 'reversal';
  /** Stored sign, 2 decimals. */
  amount: string;
  occurred_at: Date;
  description: string;
  /** A reversal: the reversed item's description. */
  reversed_description: string | null;
  quantity: string;
  unit_price: string;
  /** A recurring cost: its description, the days billed and the plan. */
  fee_label: string | null;
  fee_days: number | null;
  /** A recurring cost: the local dates of its period's first and last day. */
  fee_period: { first: string; last: string } | null;
  plan_name: string | null;
  fee_evse: string | null;
  /** A session item: the session (its kWh negated on a reversal). */
  session: AnnexSession | null;
}

const ITEMS = `select i.id, i.rollup_id, i.source_kind, i.entry, i.amount_excl_vat::text as amount, i.occurred_at, i.description,
    o.description as reversed_description, trim_scale(i.quantity)::text as quantity, trim_scale(i.unit_price)::text as unit_price,
    case when i.sub_items->0->>'kind' = 'recurring_cost' then i.sub_items->0->>'label' end as fee_label,
    case when i.sub_items->0->>'kind' = 'recurring_cost' then abs((i.sub_items->0->>'volume')::numeric)::int end as fee_days,
    coalesce(mp.name, cp.name) as plan_name, ce.evse_uid as fee_evse,
    s.session_id, to_char(s.start_at at time zone s.time_zone, 'YYYY-MM-DD HH24:MI') as session_start,
    coalesce(nullif(concat_ws(', ', loc.name, loc.city), ''),
      nullif(concat_ws(', ', nullif(s.payload->'address'->>'street', ''), nullif(s.payload->'address'->>'city', '')), '')) as session_location,
    coalesce(s.evse_id, ev.evse_id, s.evse_uid) as session_evse, s.evco_id as session_token,
    trim_scale(case when i.entry = 'reversal' then -s.energy_kwh else s.energy_kwh end)::text as session_kwh,
    round(extract(epoch from s.end_at - s.start_at) / 60)::int as session_minutes
  from billing_item i
  left join billing_item o on i.entry = 'reversal' and o.id = i.reverses_item_id
  left join msp_charge_session s on s.id = case when i.source_kind in (${SESSION_KINDS}) then i.subject_id::uuid end
  left join cpo_evse ev on ev.id = s.matched_evse_id
  left join cpo_evse_location loc on loc.id = ev.location_id
  left join msp_token_subscription ts on ts.id = case when i.source_kind = 'msp_subscription_fee' then split_part(i.subject_id, '/', 1)::uuid end
  left join msp_subscription_plan mp on mp.id = ts.plan_id
  left join cpo_subscription_evse_link cl on cl.id = case when i.source_kind = 'cpo_subscription_fee' then split_part(i.subject_id, '/', 1)::uuid end
  left join cpo_subscription cs on cs.id = coalesce(cl.subscription_id,
    case when i.source_kind = 'cpo_subscription_fee' then split_part(i.subject_id, '/', 1)::uuid end)
  left join cpo_subscription_plan cp on cp.id = cs.plan_id
  left join cpo_evse ce on ce.id = cl.evse_id
  where i.box_id = ?
  order by i.rollup_id, s.start_at nulls last, i.occurred_at, i.id`;

// A fee's moment is its period's start, in the box's administration's zone and invoicing period (period-bounds.ts).
const FEE_PERIODS = `select t.at, p.first, p.last from billing_box x join administration a on a.id = x.admin_id
  left join billing_settings bs on bs.admin_id = a.id cross join unnest(?::timestamptz[]) t(at)
  cross join lateral (${periodOfSql('t.at', 'a.time_zone', "coalesce(bs.invoicing_period, 'month')")}) p
  where x.id = ?`;

type Row = Record<string, any>;

async function feePeriods(em: Em, boxId: string, rows: Row[]): Promise<Map<number, { first: string; last: string }>> {
  const moments = [...new Set(rows.filter((r) => r.fee_label !== null).map((r) => new Date(r.occurred_at).toISOString()))];
  if (!moments.length) return new Map();
  const periods = await em.execute<Row[]>(FEE_PERIODS, [`{${moments.join(',')}}`, boxId]);
  return new Map(periods.map((p) => [new Date(p.at).getTime(), { first: p.first, last: p.last }]));
}

export async function documentItems(em: Em, boxId: string): Promise<DocumentItem[]> {
  const rows = await em.execute<Row[]>(ITEMS, [boxId]);
  const periods = await feePeriods(em, boxId, rows);
  return rows.map((r) => ({
    id: r.id, rollup_id: r.rollup_id, source_kind: r.source_kind, entry: r.entry, amount: r.amount, occurred_at: new Date(r.occurred_at),
    description: r.description, reversed_description: r.reversed_description, quantity: r.quantity, unit_price: r.unit_price,
    fee_label: r.fee_label, fee_days: r.fee_days, fee_period: periods.get(new Date(r.occurred_at).getTime()) ?? null,
    plan_name: r.plan_name, fee_evse: r.fee_evse,
    session: r.session_id === null || r.session_id === undefined ? null : {
      session_id: r.session_id, start: r.session_start, location: r.session_location, evse_id: r.session_evse, token: r.session_token,
      energy_kwh: r.session_kwh, duration_minutes: r.session_minutes,
    },
  }));
}
