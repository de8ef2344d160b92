// Item source: CPO reimbursements (src/cpo/session-reimbursement.entity.ts). A record is an expense
// of the administration: an item of the EVSE owner with the negative amount (sign convention:
// positive = revenue), one line per arrangement, billed in the series that bills this source
// (a self-billing series, whose documents negate the amounts). A record's new version replaces
// its item like a repriced session's.
import type { Em } from '../platform/orm.ts';
import { holdBackfillsOff } from '../billing/backfill-lock.ts';
import type { BackfillSource } from '../billing/backfill-ranges.ts';
import { collectItems } from '../billing/collect-items.ts';

export const CPO_REIMBURSEMENT_SOURCE = 'cpo_reimbursement';

const SELECT = `select r.admin_id::text as admin_id, r.customer_id as party_id, r.session_id::text as subject_id,
    r.arrangement_id::text as line_key, r.version as source_version, r.start_at as occurred_at, 'cpo_reimbursement' as product_category,
    r.vat_kind, r.vat_percent, r.vat_country, r.currency,
    'Reimbursement ' || to_char(r.start_at at time zone s.time_zone, 'YYYY-MM-DD HH24:MI') || ' ' || r.evse_uid as description,
    1::numeric as quantity, 'session' as unit, -r.total_excl_vat as unit_price, -r.total_excl_vat as amount_excl_vat,
    -(select coalesce(sum((sub->>'vat_amount_unrounded')::numeric), 0) from jsonb_array_elements(r.subtotals) sub) as vat_amount_unrounded,
    coalesce(r.arrangement_external_reference, r.arrangement_id::text) as group_subscription, r.evse_uid as group_token,
    coalesce((select jsonb_agg(jsonb_build_object('kind', sub->>'kind', 'label', coalesce(sub->>'label', sub->>'kind'),
      'volume', coalesce(sub->>'billed_volume', sub->>'volume'), 'unit', sub->>'rate_unit',
      'amount_excl_vat', (-(sub->>'amount_excl_vat')::numeric)::text) order by ord)
      from jsonb_array_elements(r.subtotals) with ordinality as e(sub, ord)), '[]'::jsonb) as sub_items,
    null::text as context, r.id::text as reference, null::text as box_category_description, null::text as distinct_code,
    null::text as series_code, null::text as external_reference, null::jsonb as input
  from cpo_charge_session_reimbursement r join msp_charge_session s on s.id = r.session_id
  where WHERE_RECORDS`;

const OF_SESSIONS = 'r.session_id = any(?::uuid[])';

/** Records of an administration, billed after the fact by session id (backfill-ranges.ts). */
export const CPO_REIMBURSEMENT_BACKFILL: BackfillSource = {
  kind: CPO_REIMBURSEMENT_SOURCE,
  countSql: 'select count(distinct session_id)::int as n from cpo_charge_session_reimbursement where admin_id = ?',
  idsSql: `select distinct r.session_id as id from cpo_charge_session_reimbursement r where r.admin_id = ? and r.session_id > ?::uuid
    order by r.session_id limit ?`,
  candidates: (adminId, afterId, lastId) => ({
    sql: SELECT.replace('WHERE_RECORDS', 'r.admin_id = ? and r.session_id > ?::uuid and r.session_id <= ?::uuid'), params: [adminId, afterId, lastId],
  }),
};

/** The administrations a billing of the sessions' records touches: their records' and the sessions' own. */
const ADMINS = `select r.admin_id from cpo_charge_session_reimbursement r where ${OF_SESSIONS}
  union select s.admin_id from msp_charge_session s where s.id = any(?::uuid[])`;

/**
 * Bills the reimbursements of sessions whose records changed, in the transaction that changed them.
 * The sessions are covered subjects: a session left without records has its items withdrawn.
 */
export async function billReimbursements(em: Em, sessionIds: string[]): Promise<void> {
  if (sessionIds.length) {
    const ids = `{${sessionIds.join(',')}}`;
    await holdBackfillsOff(em, ADMINS, [ids, ids]);
    await collectItems(em, CPO_REIMBURSEMENT_SOURCE, { sql: SELECT.replace('WHERE_RECORDS', OF_SESSIONS), params: [ids] }, { subjects: sessionIds });
  }
}
