// The baselines of bench/reads.ts: each list's page (default page size, the app's order, an
// administrator credential's scope: every row) as one SQL statement that does all the list's work
// (joins, the token's validity, a box's roll-ups and totals, decimals as the app writes them), its
// rows read as text (no type parsing) and written into the JSON body by string concatenation: no
// framework, no ORM, no row objects. bench/reads.ts checks once that the body equals the app's.
//
// Flat members are columns (JSON null for SQL null); nested ones (a session's address, a box's
// roll-ups, VAT breakdown and documents) are built as JSON by PostgreSQL. The app's derivations
// written as SQL: decimals as src/money/decimal.ts normalize() writes them (6 decimals rounded half
// up, trailing zeros dropped, at least 2), a token's is_currently_valid as
// src/msp/authorize-token.service.ts decides it, a session's reported fields as
// src/sessions/session-reported.ts reads them, and a box's roll-ups and totals as
// src/billing/billing-box.queries.ts and box-totals.ts compute them. Timestamps come as text in UTC
// (the pool's TimeZone) and are written as Date.toISOString() writes them (milliseconds, Z).
//
// (Building the whole body in SQL, with json_build_object and to_char, was tried first: for the
// customer list it cost PostgreSQL 10-20 ms a page, slower than the app, whose rows take 1 ms.)
import http from 'node:http';
import pg from 'pg';

const PAGE_SIZE = 500;

/** How a text column is written into JSON. */
type Kind = 'string' | 'number' | 'boolean' | 'json' | 'timestamp';
type Column = [name: string, kind: Kind, expression: string];

interface PlainList {
  sql: string;
  /** Seek-paged (the envelope with page_size and link_next; $1 is the request's `after`), else `{ items }`. */
  paged: boolean;
  /** The index of the list key's column (link_next's `after`). */
  key: number;
  /** `"name":` of each column, in order. */
  prefixes: string[];
  kinds: Kind[];
  path: string;
}

function list(path: string, columns: Column[], from: string, options: { paged?: boolean; key?: string } = {}): PlainList {
  return {
    sql: `select ${columns.map(([name, , expression]) => `${expression} as "${name}"`).join(',\n  ')}\n${from}`,
    paged: options.paged ?? true,
    key: columns.findIndex(([name]) => name === (options.key ?? 'id')),
    prefixes: columns.map(([name], i) => `${i ? ',' : ''}"${name}":`),
    kinds: columns.map(([, kind]) => kind),
    path,
  };
}

/** The page's bound: after the key $1 (the request's `after`), or from the first row when $1 is null. */
const after = (key: string, type: string) => `($1::text is null or ${key} > $1::${type})`;

/** normalize() of decimal.ts: rounded to 6 decimals, trailing zeros dropped, at least 2 decimals. */
const norm = (value: string) => `round(round(${value}, 6), greatest(2, scale(trim_scale(round(${value}, 6)))))::text`;

/** A reported decimal: the text of a JSON string, normalized; null for anything else. */
const reportedDecimal = (value: string) => `case when jsonb_typeof(${value}) = 'string' then ${norm(`(${value} #>> '{}')::numeric`)} end`;

/** A string member of a JSON object, else null. */
const textOf = (object: string, name: string) => `case when jsonb_typeof(${object}->'${name}') = 'string' then ${object}->>'${name}' end`;

/** Date.toISOString() of PostgreSQL's text of a timestamptz in UTC ('2026-10-01 08:00:00.123456+00'). */
function isoOf(text: string): string {
  const end = text.length - 3;
  const ms = text.charCodeAt(19) === 46 ? text.slice(20, Math.min(23, end)).padEnd(3, '0') : '000';
  return `${text.slice(0, 10)}T${text.slice(11, 19)}.${ms}Z`;
}

function write(kind: Kind, value: string | null): string {
  if (value === null) return 'null';
  switch (kind) {
    case 'string': return JSON.stringify(value);
    case 'boolean': return value === 't' ? 'true' : 'false';
    case 'timestamp': return `"${isoOf(value)}"`;
    default: return value;
  }
}

const ADMINISTRATIONS = list('/main/v1/administration', [
  ['id', 'string', 'a.id'], ['name', 'string', 'a.name'], ['currency', 'string', 'a.currency'], ['country', 'string', 'a.country'],
  ['locale_id', 'string', 'a.locale_id'], ['seller_id', 'string', 's.id'], ['seller_name', 'string', 's.name'],
  ['seller_county', 'string', 's.country'], ['created_at', 'timestamp', 'a.created_at'], ['updated_at', 'timestamp', 'a.updated_at'],
], 'from administration a left join seller s on s.id = a.seller_id order by a.id', { paged: false });

const CUSTOMERS = list('/main/v1/customer', [
  ['id', 'string', 'id'], ['admin_id', 'string', 'admin_id'], ['name', 'string', 'name'], ['country', 'string', 'country'],
  ['entity_type', 'string', 'entity_type'], ['external_reference', 'string', 'external_reference'], ['company_reg_num', 'string', 'company_reg_num'],
  ['locale_id', 'string', 'locale_id'], ['billing_email', 'string', 'billing_email'], ['billing_phone', 'string', 'billing_phone'],
  ['reimbursement_vat', 'string', 'reimbursement_vat'], ['billing_rollup_group_by', 'string', 'billing_rollup_group_by'],
  ['billing_rollup_method', 'string', 'billing_rollup_group_by'], ['custom_fields', 'json', 'custom_fields'],
  ['charge_auth_requests_blocked', 'boolean', 'charge_auth_blocked'], ['external_updated_at', 'timestamp', 'external_updated_at'],
  ['created_at', 'timestamp', 'created_at'], ['updated_at', 'timestamp', 'updated_at'],
], `from customer where ${after('id', 'uuid')} order by id limit ${PAGE_SIZE + 1}`);

/**
 * Tokens by evco_id. is_currently_valid: the token's oldest non-defunct link valid now in its own
 * interval (from its valid_from, else the subscription's) whose subscription is valid now and not
 * defunct, and neither the token nor that subscription's customer blocked. evco_id_formatted: a
 * stored (compact) eMA ID as CC-PPP-IIIIIIIII[-D], upper case; anything else as stored.
 */
const TOKENS = list('/main/v1/msp-token', [
  ['evco_id', 'string', 't.evco_id'],
  ['evco_id_formatted', 'string', `case when t.evco_id ~ '^[A-Za-z]{2}[A-Za-z0-9]{12,13}$'
    then upper(substr(t.evco_id, 1, 2) || '-' || substr(t.evco_id, 3, 3) || '-' || substr(t.evco_id, 6, 9)
      || case when length(t.evco_id) = 15 then '-' || substr(t.evco_id, 15, 1) else '' end) else t.evco_id::text end`],
  ['uid', 'string', 't.uid'], ['token_uid_type_id', 'string', 't.uid_type'], ['brand_code', 'string', 't.brand_code'],
  ['form_factor', 'string', 't.form_factor'], ['token_series_id', 'string', 't.series_id'],
  ['is_currently_valid', 'boolean', 'coalesce(not t.charge_auth_blocked and v.allowed, false)'],
  ['current_admin_id', 'string', 't.current_admin_id'], ['initial_admin_id', 'string', 't.initial_admin_id'],
  ['charge_auth_requests_blocked', 'boolean', 't.charge_auth_blocked'], ['fulfilment', 'string', 't.fulfilment'],
  ['activated_at', 'timestamp', 't.activated_at'], ['vehicle_vin', 'string', 't.vehicle_vin'], ['used', 'boolean', 't.first_linked_at is not null'],
  ['external_updated_at', 'timestamp', 't.external_updated_at'], ['created_at', 'timestamp', 't.created_at'], ['updated_at', 'timestamp', 't.updated_at'],
], `from (select * from msp_token where ${after('evco_id', 'citext')} order by evco_id limit ${PAGE_SIZE + 1}) t
  left join lateral (select not c.charge_auth_blocked as allowed
    from msp_token_link l join msp_token_subscription s on s.id = l.subscription_id join customer c on c.id = s.customer_id
    where l.token_id = t.id and not l.defunct and coalesce(l.valid_from, s.valid_from) <= now() and (l.valid_until is null or l.valid_until > now())
      and not s.defunct and s.valid_from <= now() and (s.valid_until is null or s.valid_until > now())
    order by l.created_at, l.id limit 1) v on true
  order by t.evco_id`, { key: 'evco_id' });

/** A field the session's endpoint knows (session-content.ts), as reported; null when absent. */
const reported = (name: string, sources: 'both' | 'charge_session') => (sources === 'both'
  ? `s.payload->'${name}'` : `case when s.source = 'charge_session' then s.payload->'${name}' end`);

/** A reported roaming amount: its name, else its deprecated name on the session's endpoint (the v3.50.0 aliases). */
function roamingAmount(name: string, deprecated: { charge_session?: string; cpo_charge_session?: string }, onCpo: boolean): string {
  const value = (source: 'charge_session' | 'cpo_charge_session', own: boolean) => {
    const alias = deprecated[source];
    const current = own ? `nullif(s.payload->'${name}', 'null')` : 'null::jsonb';
    return alias ? `coalesce(${current}, nullif(s.payload->'${alias}', 'null'))` : current;
  };
  return reportedDecimal(`case when s.source = 'charge_session' then ${value('charge_session', true)} else ${value('cpo_charge_session', onCpo)} end`);
}

const SESSIONS = list('/main/v1/msp-charge-session', [
  ['id', 'string', 's.id'], ['source', 'string', 's.source'], ['session_id', 'string', 's.session_id'], ['status', 'string', 's.status'],
  ['admin_id', 'string', 's.admin_id'], ['customer_id', 'string', 's.customer_id'], ['subscription_id', 'string', 's.subscription_id'],
  ['token_evco_id', 'string', 's.evco_id'], ['cpo_id', 'string', 's.cpo_id'],
  ['cpo_session_id', 'string', `case when s.source = 'charge_session' and jsonb_typeof(s.payload->'cpo_session_id') = 'string'
    and s.payload->>'cpo_session_id' <> '' then s.payload->>'cpo_session_id' else s.session_id end`],
  ['cpo_cdr_id', 'json', reported('cpo_cdr_id', 'charge_session')], ['connector_standard', 'json', reported('connector_standard', 'both')],
  ['connector_format', 'string', `case when jsonb_typeof(s.payload->'connector_format') = 'string' then lower(s.payload->>'connector_format') end`],
  ['time_zone', 'string', 's.time_zone'],
  ['address', 'json', `json_build_object('street', ${textOf('a.address', 'street')}, 'city', ${textOf('a.address', 'city')},
    'postal_code', ${textOf('a.address', 'postal_code')}, 'country', coalesce(${textOf('a.address', 'country')}, ''))`],
  ['evse_id', 'string', 's.evse_id'], ['evse_uid', 'string', 's.evse_uid'], ['start_date_time', 'timestamp', 's.start_at'],
  ['end_date_time', 'timestamp', 's.end_at'], ['total_energy_kwh', 'string', norm('s.energy_kwh')], ['total_idle_seconds', 'number', 's.idle_seconds'],
  ['total_roaming_amount_excl_vat', 'string',
    roamingAmount('total_roaming_amount_excl_vat', { charge_session: 'total_cost_excl_vat', cpo_charge_session: 'total_sales_amount_excl_vat' }, true)],
  ['total_roaming_flat_amount_excl_vat', 'string', roamingAmount('total_roaming_flat_amount_excl_vat', {}, false)],
  ['total_roaming_energy_amount_excl_vat', 'string', roamingAmount('total_roaming_energy_amount_excl_vat', {}, false)],
  ['total_roaming_time_amount_excl_vat', 'string', roamingAmount('total_roaming_time_amount_excl_vat', {}, false)],
  ['total_roaming_reservation_amount_excl_vat', 'string', roamingAmount('total_roaming_reservation_amount_excl_vat', {}, false)],
  ['total_roaming_amount_incl_vat', 'string', roamingAmount('total_roaming_amount_incl_vat', { charge_session: 'total_cost_incl_vat' }, false)],
  ['calculated_roaming_amount_excl_vat', 'string', 's.roaming_cost_excl_vat'], ['calculated_roaming_amount_incl_vat', 'string', 's.roaming_cost_incl_vat'],
  ['roaming_agreement_id', 'string', 's.roaming_agreement_id'], ['remark', 'json', reported('remark', 'both')],
  ['received_at', 'timestamp', 's.received_at'], ['pricing_version', 'number', 's.pricing_version'],
  ['dropout_case_id', 'string', 's.dropout_case_id'], ['dropout_reason', 'string', 's.dropout_reason'],
  ['dropout_message', 'string', 's.dropout_message'], ['updated_at', 'timestamp', 's.updated_at'],
], `from (select * from msp_charge_session where ${after('id', 'uuid')} order by id limit ${PAGE_SIZE + 1}) s
  cross join lateral (select case when jsonb_typeof(s.payload->'address') = 'object' then s.payload->'address' else '{}' end as address) a
  order by s.id`);

const isoSql = (column: string) => `to_char(${column} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

/**
 * Boxes by id with their roll-ups (items counted and summed per roll-up; a roll-up without items is
 * not shown), volumes per unit, VAT breakdown per VAT category and rate (the category's taxable
 * amount, its VAT rounded once), totals, the VAT in the accounting currency, and documents.
 */
const BOXES = list('/main/v1/billing-box', [
  ['id', 'string', 'b.id'], ['admin_id', 'string', 'b.admin_id'], ['state', 'string', 'b.state'], ['deferred', 'boolean', 'b.deferred'],
  ['transferred', 'boolean', 'b.transferred'], ['party_kind', 'string', 'b.party_kind'], ['party_id', 'string', 'b.party_id'],
  ['party_external_reference', 'string', 'coalesce(c.external_reference, rp.external_reference)'],
  ['period_from', 'timestamp', 'b.period_from'], ['period_until', 'timestamp', 'b.period_until'], ['vat_country', 'string', 'b.vat_country'],
  ['currency_code', 'string', 'b.currency'], ['locale_id', 'string', 'b.locale_id'],
  ['preferred_locale_ids', 'json', `case when coalesce(b.locale_id, '') = '' then '[]'::json else json_build_array(b.locale_id) end`],
  ['billing_reference', 'string', 'b.billing_reference'], ['payment_method', 'string', 'b.payment_method'],
  ['payment_period', 'number', 'b.payment_period_days'], ['negate_document_amounts', 'boolean', 'b.negate_document_amounts'],
  ['billing_series_code', 'string', 's.code'], ['billing_series_external_reference', 'string', 's.external_reference'],
  ['billing_series_id', 'string', 'b.series_id'], ['billing_reviewset_code', 'string', 'rs.code'], ['billing_reviewset_id', 'string', 'b.review_set_id'],
  ['billing_box_reviewset_sequence', 'number', 'b.review_set_sequence'], ['box_distinct_code', 'string', `nullif(b.distinct_code, '')`],
  ['rollup_group_by', 'string', 'b.rollup_group_by'], ['rollup_method', 'string', 'b.rollup_group_by'],
  ['rollups', 'json', `coalesce(r.rollups, '[]')`],
  ['total_amount_excl_vat', 'string', 'coalesce(r.total_excl, 0)::numeric(20, 2)'],
  ['total_vat_amount', 'string', 'coalesce(r.total_vat, 0)::numeric(20, 2)'],
  ['total_amount_incl_vat', 'string', '(coalesce(r.total_excl, 0) + coalesce(r.total_vat, 0))::numeric(20, 2)'],
  ['vat_breakdown', 'json', `coalesce(r.breakdown, '[]')`],
  ['foreign_currency_totals', 'json', `case when bs.vat_accounting_currency is not null and bs.vat_accounting_currency <> b.currency and fx.rate is not null
    then json_build_object('currency', bs.vat_accounting_currency, 'rate', ${norm('fx.rate')},
      'total_vat_amount', round(round(coalesce(r.total_vat, 0) * fx.rate, 6), 2)::text) end`],
  ['document_kind', 'string', 'b.document_kind'], ['invoice_code', 'string', 'b.invoice_code'], ['invoice_date', 'string', 'b.invoice_date'],
  ['documents', 'json', `coalesce(d.documents, '[]')`], ['created_at', 'timestamp', 'b.created_at'], ['updated_at', 'timestamp', 'b.updated_at'],
], `from (select * from billing_box where ${after('id', 'uuid')} order by id limit ${PAGE_SIZE + 1}) b
  join billing_series s on s.id = b.series_id join billing_review_set rs on rs.id = b.review_set_id
  join administration a on a.id = b.admin_id
  left join customer c on b.party_kind = 'customer' and c.id = b.party_id
  left join roaming_partner rp on b.party_kind = 'roaming_partner' and rp.id = b.party_id
  left join billing_settings bs on bs.admin_id = b.admin_id
  left join lateral (select x.rate from billing_exchange_rate x where x.admin_id = b.admin_id and x.currency = bs.vat_accounting_currency
    and x.date <= coalesce(b.invoice_date, to_char(now() at time zone a.time_zone, 'YYYY-MM-DD')) order by x.date desc limit 1) fx on true
  -- The box's roll-ups (their items' count and sum, the volume of each unit of the items' sub-items) and its VAT breakdown: per
  -- VAT category and rate, the first roll-up's VAT kind, the taxable amount and its VAT rounded once.
  left join lateral (with rollup_row as (select r.*, round(round(r.net * r.vat_percentage::numeric / 100, 6), 2) as vat, u.volume, u.kwh
      from (select r.id, r.product_category, r.vat_kind, r.vat_percent, r.group_value, r.context, ${norm('r.vat_percent')} as vat_percentage,
          count(i.id)::int as item_count, round(sum(i.amount_excl_vat), 2) as net
        from billing_rollup r join billing_item i on i.rollup_id = r.id where r.box_id = b.id group by r.id) r
      left join lateral (select json_object_agg(u.unit, ${norm('u.volume')}) as volume, round(max(u.volume) filter (where u.unit = 'kWh'), 6) as kwh
        from (select e->>'unit' as unit, sum((e->>'volume')::numeric) as volume
          from billing_item i cross join jsonb_array_elements(i.sub_items) e
          where i.box_id = b.id and i.rollup_id = r.id and e->>'unit' is not null and e->>'volume' is not null group by 1) u) u on true),
    vat_line as (select l.*, round(round(l.taxable * l.vat_percentage::numeric / 100, 6), 2) as vat
      from (select case when r.vat_kind = 'reverse_charge' then 'AE' when r.vat_kind = 'exempt' then 'E' when r.vat_percent = 0 then 'Z' else 'S' end
          as category, r.vat_percentage,
          (array_agg(r.vat_kind order by r.product_category, r.vat_kind, r.vat_percent, r.group_value nulls first, r.id))[1] as vat_kind,
          sum(r.net) as taxable
        from rollup_row r group by 1, 2) l)
    select (select json_agg(json_build_object('id', r.id, 'context', r.context, 'product_category', r.product_category,
          'vat_kind', r.vat_kind, 'vat_percentage', r.vat_percentage, 'group_value', r.group_value,
          'period_from', ${isoSql('b.period_from')}, 'period_until', ${isoSql('b.period_until')}, 'volume', coalesce(r.volume, '{}'),
          'item_count', r.item_count, 'subtotal_excl_vat', r.net::text, 'vat_amount', r.vat::text, 'subtotal_incl_vat', (r.net + r.vat)::text,
          'average_amount_per_kwh_excl_tax', case when r.kwh <> 0 then ${norm('r.net / r.kwh')} end)
        order by r.product_category, r.vat_kind, r.vat_percent, r.group_value nulls first, r.id) from rollup_row r) as rollups,
      (select json_agg(json_build_object('vat_kind', l.vat_kind, 'vat_category', l.category, 'vat_percentage', l.vat_percentage,
          'taxable_amount', l.taxable::text, 'vat_amount', l.vat::text) order by l.category collate "C", l.vat_percentage collate "C") from vat_line l) as breakdown,
      (select sum(l.taxable) from vat_line l) as total_excl, (select sum(l.vat) from vat_line l) as total_vat) r on true
  left join lateral (select json_agg(json_build_object('filename', f.filename, 'content_type', f.content_type, 'size', f.size,
      'primary', f."primary", 'draft', f.draft) order by f."primary" desc, f.filename) as documents
    from billing_document_file f where f.box_id = b.id) d on true
  order by b.id`);

/** Each list's path and its statement. */
export const PLAIN_LISTS: Record<string, PlainList> = Object.fromEntries(
  [ADMINISTRATIONS, CUSTOMERS, TOKENS, SESSIONS, BOXES].map((plain) => [plain.path, plain]));

/** Every column as the text PostgreSQL sends. */
const TEXT_TYPES = { getTypeParser: () => (value: string) => value };

/** The body of a page: the rows written as JSON, in the seek-paged envelope (rest/rails/pagination.ts) or as `{ items }`. */
function body(plain: PlainList, rows: (string | null)[][]): string {
  const count = plain.paged ? Math.min(rows.length, PAGE_SIZE) : rows.length;
  let text = '{"items":[';
  for (let r = 0; r < count; r++) {
    const row = rows[r];
    text += r ? ',{' : '{';
    for (let c = 0; c < row.length; c++) text += plain.prefixes[c] + write(plain.kinds[c], row[c]);
    text += '}';
  }
  text += ']';
  if (!plain.paged) return `${text}}`;
  text += `,"page_size":${PAGE_SIZE}`;
  if (rows.length > PAGE_SIZE) text += `,"link_next":${JSON.stringify(`${plain.path}?after=${encodeURIComponent(rows[PAGE_SIZE - 1][plain.key]!)}&page_size=${PAGE_SIZE}`)}`;
  return `${text}}`;
}

/** The plain handler on its own pool (timestamps as text in UTC); of the query string only `after` is read. */
export function plainServer(databaseUrl: string, poolSize: number): { server: http.Server; pool: pg.Pool } {
  const pool = new pg.Pool({ connectionString: databaseUrl, max: poolSize, options: '-c TimeZone=UTC' });
  // Idle clients see the embedded PostgreSQL stop after the run (57P01); that is no failure.
  pool.on('error', () => {});
  const server = http.createServer(async (request, response) => {
    const url = new URL(request.url ?? '/', 'http://plain');
    const plain = PLAIN_LISTS[url.pathname];
    if (!plain) {
      response.writeHead(404).end();
      return;
    }
    try {
      const { rows } = await pool.query({
        text: plain.sql, values: plain.paged ? [url.searchParams.get('after')] : [], rowMode: 'array', types: TEXT_TYPES,
      } as pg.QueryArrayConfig);
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(body(plain, rows));
    } catch (error) {
      response.writeHead(500, { 'content-type': 'text/plain' });
      response.end(String(error));
    }
  });
  return { server, pool };
}
