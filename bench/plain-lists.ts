// The baselines of bench/reads.ts: each list's first page (the default page size, the app's order,
// an administrator credential's scope: every row) as the best single SQL statement we could write,
// PostgreSQL building the very JSON body the app answers (bench/reads.ts compares the two once), and
// node:http sending that text as it comes. No framework, no ORM, no row decoding in JavaScript.
//
// The app's derivations written as SQL: decimals as src/money/decimal.ts normalize() writes them (6
// decimals rounded half up, trailing zeros dropped, at least 2), timestamps as Date.toISOString()
// (milliseconds, Z), a token's is_currently_valid as src/msp/authorize-token.service.ts decides it,
// a session's reported fields as src/sessions/session-reported.ts reads them, and a box's roll-ups
// and totals as src/billing/billing-box.queries.ts and box-totals.ts compute them.
import http from 'node:http';
import type pg from 'pg';

const PAGE_SIZE = 500;

const iso = (column: string) => `to_char(${column} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

/** normalize() of decimal.ts: rounded to 6 decimals, trailing zeros dropped, at least 2 decimals. */
const norm = (value: string) => `round(round(${value}, 6), greatest(2, scale(trim_scale(round(${value}, 6)))))::text`;

/** A reported decimal: the text of a JSON string, normalized; null for anything else. */
const reportedDecimal = (value: string) => `case when jsonb_typeof(${value}) = 'string' then ${norm(`(${value} #>> '{}')::numeric`)} end`;

/** A string member of a JSON object, else null. */
const textOf = (object: string, name: string) => `case when jsonb_typeof(${object}->'${name}') = 'string' then ${object}->>'${name}' end`;

/** The page's bound: after the key $1 (the `after` of the request), or from the first row when $1 is null. */
const after = (key: string, type: string) => `($1::text is null or ${key} > $1::${type})`;

/**
 * The seek-paged envelope (rest/rails/pagination.ts) around `items`, a query whose rows are `k`
 * (1..501 in list order), `key` (the list key as text) and `j` (the item's JSON): the first 500
 * items, page_size, and link_next when there is a 501st.
 */
function seekEnvelope(path: string, items: string): string {
  return `select '{"items":' || coalesce(json_agg(j order by k) filter (where k <= ${PAGE_SIZE}), '[]')::text
      || ',"page_size":${PAGE_SIZE}'
      || case when count(*) > ${PAGE_SIZE}
        then ',"link_next":' || to_json('${path}?after=' || max(key) filter (where k = ${PAGE_SIZE}) || '&page_size=${PAGE_SIZE}')::text else '' end
      || '}' as body
    from (${items}) page`;
}

const ADMINISTRATIONS = `select '{"items":' || coalesce(json_agg(json_build_object('id', a.id, 'name', a.name, 'currency', a.currency,
    'country', a.country, 'locale_id', a.locale_id, 'seller_id', s.id, 'seller_name', s.name, 'seller_county', s.country,
    'created_at', ${iso('a.created_at')}, 'updated_at', ${iso('a.updated_at')}) order by a.id), '[]')::text || '}' as body
  from administration a left join seller s on s.id = a.seller_id`;

const CUSTOMERS = seekEnvelope('/main/v1/customer', `select row_number() over (order by c.id) as k, c.id::text as key,
    json_build_object('id', c.id, 'admin_id', c.admin_id, 'name', c.name, 'country', c.country, 'entity_type', c.entity_type,
      'external_reference', c.external_reference, 'company_reg_num', c.company_reg_num, 'locale_id', c.locale_id,
      'billing_email', c.billing_email, 'billing_phone', c.billing_phone, 'reimbursement_vat', c.reimbursement_vat,
      'billing_rollup_group_by', c.billing_rollup_group_by, 'billing_rollup_method', c.billing_rollup_group_by,
      'custom_fields', c.custom_fields, 'charge_auth_requests_blocked', c.charge_auth_blocked,
      'external_updated_at', ${iso('c.external_updated_at')}, 'created_at', ${iso('c.created_at')}, 'updated_at', ${iso('c.updated_at')}) as j
  from (select * from customer where ${after('id', 'uuid')} order by id limit ${PAGE_SIZE + 1}) c`);

/**
 * Tokens by evco_id. is_currently_valid: the token's oldest non-defunct link valid now in its own
 * interval (from its valid_from, else the subscription's) whose subscription is valid now and not
 * defunct, and neither the token nor that subscription's customer blocked. evco_id_formatted: a
 * stored (compact) eMA ID as CC-PPP-IIIIIIIII[-D], upper case; anything else as stored.
 */
const TOKENS = seekEnvelope('/main/v1/msp-token', `select row_number() over (order by t.evco_id) as k, t.evco_id::text as key,
    json_build_object('evco_id', t.evco_id,
      'evco_id_formatted', case when t.evco_id ~ '^[A-Za-z]{2}[A-Za-z0-9]{12,13}$'
        then upper(substr(t.evco_id, 1, 2) || '-' || substr(t.evco_id, 3, 3) || '-' || substr(t.evco_id, 6, 9)
          || case when length(t.evco_id) = 15 then '-' || substr(t.evco_id, 15, 1) else '' end) else t.evco_id::text end,
      'uid', t.uid, 'token_uid_type_id', t.uid_type, 'brand_code', t.brand_code, 'form_factor', t.form_factor, 'token_series_id', t.series_id,
      'is_currently_valid', coalesce(not t.charge_auth_blocked and v.allowed, false),
      'current_admin_id', t.current_admin_id, 'initial_admin_id', t.initial_admin_id, 'charge_auth_requests_blocked', t.charge_auth_blocked,
      'fulfilment', t.fulfilment, 'activated_at', ${iso('t.activated_at')}, 'vehicle_vin', t.vehicle_vin, 'used', t.first_linked_at is not null,
      'external_updated_at', ${iso('t.external_updated_at')}, 'created_at', ${iso('t.created_at')}, 'updated_at', ${iso('t.updated_at')}) as j
  from (select * from msp_token where ${after('evco_id', 'citext')} order by evco_id limit ${PAGE_SIZE + 1}) t
  left join lateral (select not c.charge_auth_blocked as allowed
    from msp_token_link l join msp_token_subscription s on s.id = l.subscription_id join customer c on c.id = s.customer_id
    where l.token_id = t.id and not l.defunct and coalesce(l.valid_from, s.valid_from) <= now() and (l.valid_until is null or l.valid_until > now())
      and not s.defunct and s.valid_from <= now() and (s.valid_until is null or s.valid_until > now())
    order by l.created_at, l.id limit 1) v on true`);

/** A field the session's endpoint knows (session-content.ts), as reported; JSON null when absent. */
const reported = (name: string, sources: 'both' | 'charge_session') => (sources === 'both'
  ? `s.payload->'${name}'` : `case when s.source = 'charge_session' then s.payload->'${name}' end`);

/** A reported roaming amount: its name, else its deprecated name on the session's endpoint (v3.50.0 aliases). */
function roamingAmount(name: string, deprecated: { charge_session?: string; cpo_charge_session?: string }, onCpo: boolean): string {
  const value = (source: 'charge_session' | 'cpo_charge_session', own: boolean) => {
    const alias = deprecated[source];
    const current = own ? `nullif(s.payload->'${name}', 'null')` : 'null::jsonb';
    return alias ? `coalesce(${current}, nullif(s.payload->'${alias}', 'null'))` : current;
  };
  return reportedDecimal(`case when s.source = 'charge_session' then ${value('charge_session', true)} else ${value('cpo_charge_session', onCpo)} end`);
}

const SESSIONS = seekEnvelope('/main/v1/msp-charge-session', `select row_number() over (order by s.id) as k, s.id::text as key,
    json_build_object('id', s.id, 'source', s.source, 'session_id', s.session_id, 'status', s.status, 'admin_id', s.admin_id,
      'customer_id', s.customer_id, 'subscription_id', s.subscription_id, 'token_evco_id', s.evco_id, 'cpo_id', s.cpo_id,
      'cpo_session_id', case when s.source = 'charge_session' and jsonb_typeof(s.payload->'cpo_session_id') = 'string'
        and s.payload->>'cpo_session_id' <> '' then s.payload->>'cpo_session_id' else s.session_id end,
      'cpo_cdr_id', ${reported('cpo_cdr_id', 'charge_session')}, 'connector_standard', ${reported('connector_standard', 'both')},
      'connector_format', case when jsonb_typeof(s.payload->'connector_format') = 'string' then lower(s.payload->>'connector_format') end,
      'time_zone', s.time_zone,
      'address', json_build_object('street', ${textOf('a.address', 'street')}, 'city', ${textOf('a.address', 'city')},
        'postal_code', ${textOf('a.address', 'postal_code')}, 'country', coalesce(${textOf('a.address', 'country')}, '')),
      'evse_id', s.evse_id, 'evse_uid', s.evse_uid, 'start_date_time', ${iso('s.start_at')}, 'end_date_time', ${iso('s.end_at')},
      'total_energy_kwh', ${norm('s.energy_kwh')}, 'total_idle_seconds', s.idle_seconds,
      'total_roaming_amount_excl_vat', ${roamingAmount('total_roaming_amount_excl_vat', { charge_session: 'total_cost_excl_vat', cpo_charge_session: 'total_sales_amount_excl_vat' }, true)},
      'total_roaming_flat_amount_excl_vat', ${roamingAmount('total_roaming_flat_amount_excl_vat', {}, false)},
      'total_roaming_energy_amount_excl_vat', ${roamingAmount('total_roaming_energy_amount_excl_vat', {}, false)},
      'total_roaming_time_amount_excl_vat', ${roamingAmount('total_roaming_time_amount_excl_vat', {}, false)},
      'total_roaming_reservation_amount_excl_vat', ${roamingAmount('total_roaming_reservation_amount_excl_vat', {}, false)},
      'total_roaming_amount_incl_vat', ${roamingAmount('total_roaming_amount_incl_vat', { charge_session: 'total_cost_incl_vat' }, false)},
      'calculated_roaming_amount_excl_vat', s.roaming_cost_excl_vat::text, 'calculated_roaming_amount_incl_vat', s.roaming_cost_incl_vat::text,
      'roaming_agreement_id', s.roaming_agreement_id, 'remark', ${reported('remark', 'both')}, 'received_at', ${iso('s.received_at')},
      'pricing_version', s.pricing_version, 'dropout_case_id', s.dropout_case_id, 'dropout_reason', s.dropout_reason,
      'dropout_message', s.dropout_message, 'updated_at', ${iso('s.updated_at')}) as j
  from (select * from msp_charge_session where ${after('id', 'uuid')} order by id limit ${PAGE_SIZE + 1}) s
  cross join lateral (select case when jsonb_typeof(s.payload->'address') = 'object' then s.payload->'address' else '{}' end as address) a`);

/**
 * Boxes by id with their roll-ups (items counted and summed per roll-up; a roll-up without items is
 * not shown), volumes per unit, VAT breakdown per VAT category and rate (the category's taxable
 * amount, its VAT rounded once), totals, the VAT in the accounting currency, and documents.
 */
const BOXES = seekEnvelope('/main/v1/billing-box', `with page as (select * from billing_box where ${after('id', 'uuid')} order by id limit ${PAGE_SIZE + 1}),
  rollup as (select r.id, r.box_id, r.product_category, r.vat_kind, r.vat_percent, r.group_value, r.context,
      ${norm('r.vat_percent')} as vat_percentage, count(i.id)::int as item_count, round(sum(i.amount_excl_vat), 2) as net
    from billing_rollup r join billing_item i on i.rollup_id = r.id where r.box_id in (select id from page) group by r.id),
  volume as (select u.rollup_id, json_object_agg(u.unit, ${norm('u.volume')}) as volume, round(max(u.volume) filter (where u.unit = 'kWh'), 6) as kwh
    from (select i.rollup_id, e->>'unit' as unit, sum((e->>'volume')::numeric) as volume
      from billing_item i cross join jsonb_array_elements(i.sub_items) e
      where i.box_id in (select id from page) and e->>'unit' is not null and e->>'volume' is not null group by 1, 2) u
    group by u.rollup_id),
  rollups as (select r.box_id, json_agg(json_build_object('id', r.id, 'context', r.context, 'product_category', r.product_category,
        'vat_kind', r.vat_kind, 'vat_percentage', r.vat_percentage, 'group_value', r.group_value,
        'period_from', ${iso('b.period_from')}, 'period_until', ${iso('b.period_until')}, 'volume', coalesce(v.volume, '{}'),
        'item_count', r.item_count, 'subtotal_excl_vat', r.net::text, 'vat_amount', round(round(r.net * r.vat_percentage::numeric / 100, 6), 2)::text,
        'subtotal_incl_vat', (r.net + round(round(r.net * r.vat_percentage::numeric / 100, 6), 2))::text,
        'average_amount_per_kwh_excl_tax', case when v.kwh <> 0 then ${norm('r.net / v.kwh')} end)
      order by r.product_category, r.vat_kind, r.vat_percent, r.group_value nulls first, r.id) as rollups
    from rollup r join page b on b.id = r.box_id left join volume v on v.rollup_id = r.id group by r.box_id),
  vat_line as (select r.box_id, case when r.vat_kind = 'reverse_charge' then 'AE' when r.vat_kind = 'exempt' then 'E'
        when r.vat_percentage::numeric = 0 then 'Z' else 'S' end as category, r.vat_percentage,
      (array_agg(r.vat_kind order by r.product_category, r.vat_kind, r.vat_percent, r.group_value nulls first, r.id))[1] as vat_kind,
      sum(r.net) as taxable
    from rollup r group by 1, 2, 3),
  vat as (select box_id, json_agg(json_build_object('vat_kind', vat_kind, 'vat_category', category, 'vat_percentage', vat_percentage,
        'taxable_amount', taxable::text, 'vat_amount', round(round(taxable * vat_percentage::numeric / 100, 6), 2)::text)
      order by category collate "C", vat_percentage collate "C") as breakdown,
      sum(taxable) as total_excl, sum(round(round(taxable * vat_percentage::numeric / 100, 6), 2)) as total_vat
    from vat_line group by box_id),
  document as (select box_id, json_agg(json_build_object('filename', filename, 'content_type', content_type, 'size', size,
      'primary', "primary", 'draft', draft) order by "primary" desc, filename) as documents
    from billing_document_file where box_id in (select id from page) group by box_id)
  select row_number() over (order by b.id) as k, b.id::text as key,
    json_build_object('id', b.id, 'admin_id', b.admin_id, 'state', b.state, 'deferred', b.deferred, 'transferred', b.transferred,
      'party_kind', b.party_kind, 'party_id', b.party_id, 'party_external_reference', coalesce(c.external_reference, rp.external_reference),
      'period_from', ${iso('b.period_from')}, 'period_until', ${iso('b.period_until')}, 'vat_country', b.vat_country, 'currency_code', b.currency,
      'locale_id', b.locale_id, 'preferred_locale_ids', case when coalesce(b.locale_id, '') = '' then '[]'::json else json_build_array(b.locale_id) end,
      'billing_reference', b.billing_reference, 'payment_method', b.payment_method, 'payment_period', b.payment_period_days,
      'negate_document_amounts', b.negate_document_amounts, 'billing_series_code', s.code, 'billing_series_external_reference', s.external_reference,
      'billing_series_id', b.series_id, 'billing_reviewset_code', rs.code, 'billing_reviewset_id', b.review_set_id,
      'billing_box_reviewset_sequence', b.review_set_sequence, 'box_distinct_code', nullif(b.distinct_code, ''),
      'rollup_group_by', b.rollup_group_by, 'rollup_method', b.rollup_group_by, 'rollups', coalesce(r.rollups, '[]'),
      'total_amount_excl_vat', coalesce(vat.total_excl, 0)::numeric(20, 2)::text, 'total_vat_amount', coalesce(vat.total_vat, 0)::numeric(20, 2)::text,
      'total_amount_incl_vat', (coalesce(vat.total_excl, 0) + coalesce(vat.total_vat, 0))::numeric(20, 2)::text,
      'vat_breakdown', coalesce(vat.breakdown, '[]'),
      'foreign_currency_totals', case when bs.vat_accounting_currency is not null and bs.vat_accounting_currency <> b.currency and fx.rate is not null
        then json_build_object('currency', bs.vat_accounting_currency, 'rate', ${norm('fx.rate')},
          'total_vat_amount', round(round(coalesce(vat.total_vat, 0) * fx.rate, 6), 2)::text) end,
      'document_kind', b.document_kind, 'invoice_code', b.invoice_code, 'invoice_date', b.invoice_date,
      'documents', coalesce(d.documents, '[]'), 'created_at', ${iso('b.created_at')}, 'updated_at', ${iso('b.updated_at')}) as j
  from page b join billing_series s on s.id = b.series_id join billing_review_set rs on rs.id = b.review_set_id
  join administration a on a.id = b.admin_id
  left join customer c on b.party_kind = 'customer' and c.id = b.party_id
  left join roaming_partner rp on b.party_kind = 'roaming_partner' and rp.id = b.party_id
  left join billing_settings bs on bs.admin_id = b.admin_id
  left join lateral (select x.rate from billing_exchange_rate x where x.admin_id = b.admin_id and x.currency = bs.vat_accounting_currency
    and x.date <= coalesce(b.invoice_date, to_char(now() at time zone a.time_zone, 'YYYY-MM-DD')) order by x.date desc limit 1) fx on true
  left join rollups r on r.box_id = b.id left join vat on vat.box_id = b.id left join document d on d.box_id = b.id`);

/** Each list's path and the statement that answers a page's body (paged lists: $1 is the request's `after`, or null). */
export const PLAIN_LISTS: Record<string, { sql: string; paged: boolean }> = {
  '/main/v1/administration': { sql: ADMINISTRATIONS, paged: false },
  '/main/v1/customer': { sql: CUSTOMERS, paged: true },
  '/main/v1/msp-token': { sql: TOKENS, paged: true },
  '/main/v1/msp-charge-session': { sql: SESSIONS, paged: true },
  '/main/v1/billing-box': { sql: BOXES, paged: true },
};

/** The plain handler: the list's statement, its one text column sent as the body (of the query string only `after` is read). */
export function plainServer(pool: pg.Pool): http.Server {
  return http.createServer(async (request, response) => {
    const url = new URL(request.url ?? '/', 'http://plain');
    const list = PLAIN_LISTS[url.pathname];
    if (!list) {
      response.writeHead(404).end();
      return;
    }
    try {
      const { rows } = await pool.query({ text: list.sql, values: list.paged ? [url.searchParams.get('after')] : [], rowMode: 'array' });
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(rows[0][0]);
    } catch (error) {
      response.writeHead(500, { 'content-type': 'text/plain' });
      response.end(String(error));
    }
  });
}
