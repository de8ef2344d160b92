// Item source: what we as CPO charge roaming partners (written on CPO sessions by
// src/roaming/cost-roaming-sessions.ts). A partner's driver charged at our EVSE: the amount is
// revenue of the EVSE's administration (`roaming_admin_id`), billed to the roaming partner (party
// kind `roaming_partner`): one item per session at the calculated (or, without roaming
// calculation, the reported) amount excl. VAT with the roaming VAT of the session's country, so a
// partner gets one box per period, series and VAT country (and currency). Costs partners charge us
// (sessions of POST /charge-session) are not billed here. The item's version is the session's
// pricing version; a session processed again without a roaming cost, or into a drop-out (then
// discarded or not), has its item withdrawn (src/session-processing/roaming-costs.ts clears its cost).
import type { Em } from '../platform/orm.ts';
import { holdBackfillsOff } from '../billing/backfill-lock.ts';
import type { BackfillSource } from '../billing/backfill-ranges.ts';
import { collectItems } from '../billing/collect-items.ts';

export const ROAMING_SOURCE = 'roaming';

const SELECT = `select s.roaming_admin_id::text as admin_id, s.roaming_partner_id as party_id, s.id::text as subject_id, '' as line_key,
    s.pricing_version as source_version, s.start_at as occurred_at, 'roaming' as product_category,
    s.roaming_vat_kind as vat_kind, s.roaming_vat_percent as vat_percent, s.country as vat_country, s.roaming_currency as currency,
    'Roaming ' || to_char(s.start_at at time zone s.time_zone, 'YYYY-MM-DD HH24:MI') || ' ' || coalesce(s.evse_id, s.evse_uid) || ' ' || s.evco_id as description,
    1::numeric as quantity, 'session' as unit, s.roaming_cost_excl_vat as unit_price, s.roaming_cost_excl_vat as amount_excl_vat,
    s.roaming_cost_excl_vat * s.roaming_vat_percent / 100 as vat_amount_unrounded,
    coalesce(ra.external_reference::text, s.roaming_agreement_id::text, s.roaming_connection_id::text) as group_subscription, s.evco_id as group_token,
    (select coalesce(jsonb_agg(jsonb_build_object('kind', x.kind, 'label', x.kind, 'volume', x.volume::text, 'unit', x.unit,
        'amount_excl_vat', x.amount::text) order by x.ord), '[]'::jsonb)
      from (values (1, 'flat', 1::numeric, 'session', s.roaming_flat_excl_vat), (2, 'energy', s.energy_kwh, 'kWh', s.roaming_energy_excl_vat),
        (3, 'time', round(extract(epoch from s.end_at - s.start_at) / 60, 6), 'min', s.roaming_time_excl_vat),
        (4, 'reservation', 1::numeric, 'session', s.roaming_reservation_excl_vat)) x(ord, kind, volume, unit, amount)
      where x.amount <> 0) as sub_items,
    null::text as context, coalesce(nullif(s.payload->>'cpo_session_id', ''), s.session_id) as reference, null::text as box_category_description,
    null::text as distinct_code, null::text as series_code, null::text as external_reference, null::jsonb as input
  from msp_charge_session s left join roaming_agreement ra on ra.id = s.roaming_agreement_id
  where WHERE_SESSIONS and s.source = 'cpo_charge_session' and s.roaming_cost_excl_vat is not null and s.roaming_admin_id is not null`;

/** Roaming sessions of an administration, billed after the fact (backfill-ranges.ts), by the partial index of roaming sessions. */
export const ROAMING_BACKFILL: BackfillSource = {
  kind: ROAMING_SOURCE,
  countSql: `select count(*)::int as n from msp_charge_session s where s.roaming_admin_id = ? and s.source = 'cpo_charge_session'
    and s.roaming_cost_excl_vat is not null`,
  idsSql: `select s.id from msp_charge_session s where s.roaming_admin_id = ? and s.id > ?::uuid and s.source = 'cpo_charge_session'
    and s.roaming_cost_excl_vat is not null order by s.id limit ?`,
  candidates: (adminId, afterId, lastId) => ({
    sql: SELECT.replace('WHERE_SESSIONS', 's.roaming_admin_id = ? and s.id > ?::uuid and s.id <= ?::uuid'), params: [adminId, afterId, lastId],
    partyKind: 'roaming_partner',
  }),
};

/** The administrations a billing of the sessions touches: their roaming administration, and their own (one left roaming). */
const ADMINS = 'select a.admin_id from msp_charge_session s cross join lateral (values (s.roaming_admin_id), (s.admin_id)) a(admin_id) where s.id = any(?::uuid[])';

/** Bills the roaming costs of sessions a batch finished (priced or processed), in its transaction; a session without one has its item withdrawn. */
export async function billRoamingCosts(em: Em, sessionIds: string[]): Promise<void> {
  if (sessionIds.length) {
    const ids = `{${sessionIds.join(',')}}`;
    await holdBackfillsOff(em, ADMINS, [ids]);
    await collectItems(em, ROAMING_SOURCE, { sql: SELECT.replace('WHERE_SESSIONS', 's.id = any(?::uuid[])'), params: [ids], partyKind: 'roaming_partner' },
      { subjects: sessionIds });
  }
}
