// Item source: priced MSP sessions. One item per session and VAT rate (the session's latest
// pricing result); its sub-items are the cost components. A repriced session's new version
// replaces its item (in place while the box is open, else reversal + new line).
import type { Em } from '../../platform/orm.ts';
import { ADMINS_OF_JSON, holdBackfillsOff } from '../backfill-lock.ts';
import { BACKFILL_LANES, backfillBatchSize, billUnbilled, type BackfillSource } from '../backfill-ranges.ts';
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

/**
 * Priced sessions of an administration, billed after the fact (backfill-ranges.ts): of its driver's
 * side (a CPO session at another administration's EVSE is priced for the driver's).
 */
export const MSP_SESSION_BACKFILL: BackfillSource = {
  kind: MSP_SESSION_SOURCE,
  countSql: `select count(*)::int as n from msp_charge_session where driver_admin_id = ? and status = 'priced'`,
  idsSql: `select s.id from msp_charge_session s where s.driver_admin_id = ? and s.status = 'priced' and s.id > ?::uuid order by s.id limit ?`,
  candidates: (adminId, afterId, lastId) => ({
    sql: SELECT.replace('WHERE_SESSIONS', 's.driver_admin_id = ? and s.id > ?::uuid and s.id <= ?::uuid'), params: [adminId, afterId, lastId],
  }),
};

/** Bills every priced session of an administration (the bench's million sessions; the job bills every source: billing-backfill.service.ts). */
export function billUnbilledSessions(em: Em, adminId: string, batchSize = backfillBatchSize(), lanes = BACKFILL_LANES): Promise<number> {
  return billUnbilled(em, MSP_SESSION_BACKFILL, adminId, batchSize, lanes);
}

/**
 * Whether an administration among `adminIds` has a series that bills the source (the series the
 * candidate table looks up for a line without a series code): without one no candidate has a
 * series, so a collection would find none.
 */
const ANY_SERIES = `select exists (select 1 from billing_series r where r.admin_id in (select value::citext from json_array_elements_text(?::json))
    and (r.item_sources @> jsonb_build_array(?::text) or r.item_sources = '[]'::jsonb)) as found`;

/**
 * The administrations of the current items of sessions among `sessionIds` (a JSON array): sessions
 * a batch leaves unpriced or prices again had been priced, and maybe billed, before.
 */
const BILLED_ADMINS = `select distinct i.admin_id::text as admin_id from billing_item i
  where i.source_kind = ? and i.subject_id in (select value from json_array_elements_text(?::json)) and not i.superseded and i.entry = 'original'`;

/** The administrations of a JSON array (first `?`) and those of the sessions of another (second `?`), for holdBackfillsOff. */
const ADMINS_AND_SESSION_ADMINS = `${ADMINS_OF_JSON} union select s.driver_admin_id::text from msp_charge_session s
  where s.id in (select value::uuid from json_array_elements_text(?::json))`;

/**
 * Bills sessions just priced, in the transaction that priced them, and withdraws the items no
 * candidate stands for of the sessions in `coveredIds`: all items of those it left unpriced (dropped
 * out, or processed without pricing), the lines a session priced again no longer has (all of them
 * when its new result has none): deleted from an open box, else reversed. `adminIds`: the
 * administrations of their pricing results; when none of them has a series for the source and no
 * covered session was billed, the core's temporary tables and statements are skipped (a look-up or
 * two instead: they would place nothing).
 */
export async function billPricedSessions(em: Em, sessionIds: string[], adminIds: string[], coveredIds: string[] = []): Promise<void> {
  if (!sessionIds.length && !coveredIds.length) return;
  const admins = JSON.stringify([...new Set(adminIds)]);
  // Before anything is read of what to bill or withdraw: a first series' backfill bills what this
  // transaction did not, and one in flight that read an unpriced session as priced commits its item first.
  await holdBackfillsOff(em, ADMINS_AND_SESSION_ADMINS, [admins, JSON.stringify(coveredIds)]);
  const billedAdmins = coveredIds.length
    ? (await em.execute<{ admin_id: string }[]>(BILLED_ADMINS, [MSP_SESSION_SOURCE, JSON.stringify(coveredIds)])).map((row) => row.admin_id)
    : [];
  if (!sessionIds.length && !billedAdmins.length) return;
  const found = billedAdmins.length > 0
    || (await em.execute<{ found: boolean }[]>(ANY_SERIES, [admins, MSP_SESSION_SOURCE]))[0].found;
  if (found) await collectItems(em, MSP_SESSION_SOURCE, sessionCandidates(sessionIds), billedAdmins.length ? { subjects: coveredIds } : {});
}
