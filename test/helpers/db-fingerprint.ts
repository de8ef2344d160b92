import pg from 'pg';

/**
 * A digest of every application table's content: equal digests mean no row was added, removed or
 * changed. One statement, so it is cheap enough to take after every rejected write of a fuzz run.
 */
export async function databaseFingerprint(client: pg.Client): Promise<string> {
  // The tables are read once per client (no request creates one): on the empty test database the catalog
  // query took a third of the digests' time (1 against 3 ms).
  let statement = fingerprintStatements.get(client);
  if (statement === undefined) {
    const { rows: tables } = await client.query<{ name: string }>(
      `select quote_ident(table_name) as name from information_schema.tables
        where table_schema = 'public' and table_type = 'BASE TABLE' and table_name not like 'mikro_orm%' order by table_name`,
    );
    statement = tables.filter(({ name }) => !CLOCK_BOOKKEEPING.has(name)).map(({ name }) => `select '${name}' as t, md5(coalesce(string_agg(x::text, '|' order by x::text), '')) as d from ${name} x`).join(' union all ');
    fingerprintStatements.set(client, statement);
  }
  if (statement === '') return '';
  // Prepared once per client: planning the union of every table took longer than running it.
  const { rows } = await client.query<{ t: string; d: string }>({ name: 'svc-test-fingerprint', text: statement });
  return rows.map((row) => `${row.t}:${row.d}`).join(',');
}

const fingerprintStatements = new WeakMap<pg.Client, string>();

/** What the worker's clock writes every minute, whatever requests do: the moment the token bounds job has passed. */
const CLOCK_BOOKKEEPING = new Set(['msp_token_bound_watermark']);

/**
 * Rows of `table` that belong to an administration `$1` (the caller), as a SQL condition on alias
 * `x`: legit changes inside the caller's own administration. Tables not named here and without an
 * `admin_id` column belong to no administration (instance-wide: VAT rates, roaming setup, OCPI
 * peers and tariffs, token brands, instance settings, credentials) and are compared whole.
 */
/** A session not processed yet (no administration) belongs to its token's (MSP) or EVSE's (CPO) administration. */
const sessionOwned = (s: string) => `(${s}.admin_id = $1::citext or (${s}.admin_id is null and case ${s}.source
  when 'cpo_charge_session' then exists (select 1 from cpo_evse e where e.evse_uid = ${s}.evse_uid and e.admin_id = $1::citext)
  else exists (select 1 from msp_token k where k.evco_id = ${s}.evco_id and k.current_admin_id = $1::citext) end))`;

const OWNED_BY: Record<string, string> = {
  msp_charge_session: sessionOwned('x'),
  svc_event: `lower(x.admin_id) = lower($1::text) or (x.admin_id is null and x.resource_id in (select s.id::text from msp_charge_session s where ${sessionOwned('s')}))`,
  administration: 'x.id = $1::citext',
  seller: 'x.id in (select seller_id from administration where id = $1::citext)',
  msp_token: 'x.current_admin_id = $1::citext',
  cpo_evse_id_assignment: 'x.evse_id in (select id from cpo_evse where admin_id = $1::citext)',
  cpo_subscription_plan_version: 'x.plan_id in (select id from cpo_subscription_plan where admin_id = $1::citext)',
  pricing_rate_plan: 'x.admin_ids = jsonb_build_array($1::text)',
  pricing_rate_plan_version: 'x.rate_plan_id in (select id from pricing_rate_plan where admin_ids = jsonb_build_array($1::text))',
  billing_number_counter: 'x.series_id in (select id from billing_series where admin_id = $1::citext)',
  webhook_subscription: 'x.admin_ids = jsonb_build_array($1::text)',
};

/** Bookkeeping every transaction writes, whoever's: no data of an administration. */
const BOOKKEEPING = new Set(['svc_event_commit', 'webhook_attempt', ...CLOCK_BOOKKEEPING]);

const statements = new WeakMap<pg.Client, Map<string, { name: string; text: string }>>();

/**
 * A digest per table of every row that does not belong to `callerAdminId`'s administration: the
 * other administrations' data and the instance-wide tables. A caller limited to one administration
 * may change its own rows; any other change shows here. One statement.
 */
export async function fingerprintOutside(client: pg.Client, callerAdminId: string): Promise<Record<string, string>> {
  let ofClient = statements.get(client);
  if (!ofClient) statements.set(client, ofClient = new Map());
  let statement = ofClient.get(callerAdminId);
  if (!statement) {
    const { rows } = await client.query<{ name: string; has_admin: boolean }>(
      `select t.table_name as name, exists (select 1 from information_schema.columns c
         where c.table_schema = 'public' and c.table_name = t.table_name and c.column_name = 'admin_id') as has_admin
       from information_schema.tables t
       where t.table_schema = 'public' and t.table_type = 'BASE TABLE' and t.table_name not like 'mikro_orm%' order by t.table_name`,
    );
    // The caller is written into the statement, prepared once per client and caller: planning the union of
    // every table took longer than running it, and a parameter would be planned again on each of the first runs.
    const caller = client.escapeLiteral(callerAdminId);
    const text = rows.filter(({ name }) => !BOOKKEEPING.has(name)).map(({ name, has_admin }) => {
      const owned = (OWNED_BY[name] ?? (has_admin ? 'lower(x.admin_id::text) = lower($1::text)' : 'false')).replaceAll('$1', caller);
      return `select '${name}' as t, md5(coalesce(string_agg(x::text, '|' order by x::text), '')) as d from ${name} x where not coalesce(${owned}, false)`;
    }).join(' union all ');
    ofClient.set(callerAdminId, statement = { name: `svc-test-fingerprint-outside-${ofClient.size}`, text });
  }
  const { rows } = await client.query<{ t: string; d: string }>(statement);
  return Object.fromEntries(rows.map((row) => [row.t, row.d]));
}

/** The tables whose digests differ. */
export function changedTables(before: Record<string, string>, after: Record<string, string>): string[] {
  return Object.keys({ ...before, ...after }).filter((table) => before[table] !== after[table]).sort();
}
