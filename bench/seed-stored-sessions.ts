// Stored priced sessions for the growth benchmarks (bench/run.ts): what a database holds after a
// year of charging, beside what each benchmark seeds for itself. Four administrations of their own
// (stored-nl, -be, -de, -fr) with 1,000 customers each, one subscription, token and link per
// customer; sessions spread over the twelve months from November 2025 (the benchmarks' own periods
// are later: October 2026 and now), each with its pricing result (energy and a session fee), as the
// pipeline leaves them: status priced, pricing_version 1. Set-based SQL in chunks of 100,000, then
// vacuum (analyze) and a checkpoint, as a database that held them for a while would be: no
// autovacuum of the new rows, nor a checkpoint writing them, during the measurement that follows.
// Tops up: seedStoredSessions(url, n) adds what is missing to reach n.
// `node bench/seed-stored-sessions.ts <databaseUrl> <count>` seeds a database by hand.
import pg from 'pg';

export const STORED_ADMINS = [
  { id: 'stored-nl', country: 'NL', city: 'Utrecht', zone: 'Europe/Amsterdam', vat: '21.00' },
  { id: 'stored-be', country: 'BE', city: 'Gent', zone: 'Europe/Brussels', vat: '21.00' },
  { id: 'stored-de', country: 'DE', city: 'Köln', zone: 'Europe/Berlin', vat: '19.00' },
  { id: 'stored-fr', country: 'FR', city: 'Lyon', zone: 'Europe/Paris', vat: '20.00' },
];
const CUSTOMERS_PER_ADMIN = 1000;
const CHUNK = 100_000;
const ADMIN_IDS = `array[${STORED_ADMINS.map((a) => `'${a.id}'`).join(', ')}]::citext[]`;

/** Administrations, plans, customers, subscriptions, tokens and links, once. */
async function seedParties(client: pg.Client): Promise<void> {
  const { rows } = await client.query(`select count(*)::int as n from administration where id = any(${ADMIN_IDS})`);
  if (rows[0].n === STORED_ADMINS.length) return;
  await client.query('begin');
  for (const [i, a] of STORED_ADMINS.entries()) {
    await client.query(`insert into administration (id, name, currency, country, locale_id, time_zone, created_at, updated_at)
      values ($1, $2, 'EUR', $3, $4, $5, now(), now())`, [a.id, `Stored ${a.country}`, a.country, `${a.country.toLowerCase()}-${a.country}`, a.zone]);
    await client.query(`insert into msp_subscription_plan (id, admin_id, name, recurring_costs, credit_excluded_components, created_at, updated_at)
      values (svc_uuidv7(), $1, 'Stored plan', '[]', '[]', now(), now())`, [a.id]);
    await client.query(`with c as (
        insert into customer (id, admin_id, name, country, entity_type, external_reference, billing_email, reimbursement_vat, custom_fields,
            charge_auth_blocked, created_at, updated_at)
          select svc_uuidv7(), $1, 'Stored customer ' || $2 || '-' || n, $2, case when n % 5 = 0 then 'organisation' else 'person' end,
            'stored-' || $2 || '-' || n, 'billing+' || n || '@' || lower($2) || '.example', 'Unknown', jsonb_build_object('segment', n % 7),
            n % 97 = 0, now(), now()
          from generate_series(1, ${CUSTOMERS_PER_ADMIN}) n
          returning id, admin_id, (regexp_match(external_reference, '(\\d+)$'))[1]::int as n),
      s as (insert into msp_token_subscription (id, admin_id, customer_id, plan_id, valid_from, custom_fields, external_reference, created_at, updated_at)
          select svc_uuidv7(), c.admin_id, c.id, (select id from msp_subscription_plan where admin_id = $1), timestamptz '2025-01-01 00:00Z', '{}',
            'stored-sub-' || $2 || '-' || c.n, now(), now() from c
          returning id, admin_id, customer_id, (regexp_match(external_reference, '(\\d+)$'))[1]::int as n),
      t as (insert into msp_token (id, evco_id, initial_admin_id, current_admin_id, form_factor, charge_auth_blocked, first_linked_at, created_at, updated_at)
          select svc_uuidv7(), $2 || 'STO' || lpad(($3 * ${CUSTOMERS_PER_ADMIN} + n)::text, 9, '0'), $1, $1, 'card', false, timestamptz '2025-01-01 00:00Z', now(), now()
          from generate_series(1, ${CUSTOMERS_PER_ADMIN}) n
          returning id, (right(evco_id, 9)::int - $3 * ${CUSTOMERS_PER_ADMIN}) as n)
      insert into msp_token_link (id, admin_id, subscription_id, token_id, valid_from, defunct, created_at, updated_at)
        select svc_uuidv7(), s.admin_id, s.id, t.id, timestamptz '2025-01-01 00:00Z', false, now(), now() from s join t using (n)`,
    [a.id, a.country, i]);
  }
  await client.query('commit');
}

/** The parties a session is drawn from, numbered from 0 (a temporary table of this connection). */
async function partyTable(client: pg.Client): Promise<number> {
  await client.query(`create temp table if not exists stored_party as
    select row_number() over (order by c.external_reference) - 1 as k, c.admin_id, c.id as customer_id, s.id as subscription_id,
      t.id as token_id, t.evco_id, a.country, a.time_zone
    from customer c join administration a on a.id = c.admin_id
    join msp_token_subscription s on s.customer_id = c.id join msp_token_link l on l.subscription_id = s.id join msp_token t on t.id = l.token_id
    where c.admin_id = any(${ADMIN_IDS})`);
  await client.query('create unique index if not exists stored_party_k on stored_party (k)');
  const { rows } = await client.query('select count(*)::int as n from stored_party');
  return rows[0].n;
}

const vatOf = `case p.country ${STORED_ADMINS.map((a) => `when '${a.country}' then '${a.vat}'`).join(' ')} end`;
const cityOf = `case p.country ${STORED_ADMINS.map((a) => `when '${a.country}' then '${a.city}'`).join(' ')} end`;

/** Sessions numbered from+1 .. to: a minute of the year each (a prime stride spreads them), 5 to 45 kWh. */
function sessionsSql(from: number, to: number, parties: number): string {
  const subtotals = `jsonb_build_array(jsonb_build_object('kind', 'energy', 'volume', s.kwh::text, 'billed_volume', s.kwh::text, 'rate', '0.45',
    'rate_unit', 'kWh', 'rate_label', 'Energy', 'amount_excl_vat', round(s.kwh * 0.45, 2)::text, 'amount_excl_vat_unrounded', (s.kwh * 0.45)::text,
    'vat_kind', 'standard', 'vat_percent', s.vat, 'vat_country', s.country, 'vat_amount_unrounded', round(round(s.kwh * 0.45, 2) * s.vat::numeric / 100, 6)::text),
    jsonb_build_object('kind', 'flat', 'volume', '1', 'billed_volume', '1', 'rate', '0.35', 'rate_unit', 'session', 'rate_label', 'Session fee',
    'amount_excl_vat', '0.35', 'amount_excl_vat_unrounded', '0.35', 'vat_kind', 'standard', 'vat_percent', s.vat, 'vat_country', s.country,
    'vat_amount_unrounded', round(0.35 * s.vat::numeric / 100, 6)::text))`;
  return `with s as (
      select svc_uuidv7() as id, n, p.*, ${vatOf} as vat, ${cityOf} as city,
        round((5 + (n % 40))::numeric + (n % 1000) / 1000.0, 3) as kwh,
        timestamptz '2025-11-01 00:00Z' + (((n::bigint * 7919) % 525600) || ' minutes')::interval as start_at,
        'CPO' || (n % 17) as cpo, p.country || '*CPO' || (n % 17) || '*E' || (n % 4001) as evse_id
      from generate_series(${from + 1}, ${to}) n join stored_party p on p.k = n % ${parties}),
    ins as (insert into msp_charge_session (id, source, identity_key, session_id, cpo_id, evco_id, start_at, end_at, energy_kwh, idle_seconds,
        time_zone, country, evse_id, payload, received_at, status, admin_id, driver_admin_id, token_id, subscription_id, customer_id, bypass_checks, pricing_version,
        created_at, updated_at)
      select s.id, 'charge_session', 'charge_session:' || s.country || s.cpo || ':STORED-' || s.n, 'STORED-' || s.n, s.country || '*' || s.cpo,
        s.evco_id, s.start_at, s.start_at + ((20 + s.n % 180) || ' minutes')::interval, s.kwh, (s.n % 5) * 60, s.time_zone, s.country, s.evse_id,
        jsonb_build_object('session_id', 'STORED-' || s.n, 'cpo_id', s.country || '*' || s.cpo, 'evco_id', s.evco_id,
          'start_date_time', to_char(s.start_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"'),
          'end_date_time', to_char((s.start_at + ((20 + s.n % 180) || ' minutes')::interval) at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"'),
          'total_energy_kwh', s.kwh::text, 'total_idle_seconds', (s.n % 5) * 60, 'time_zone', s.time_zone, 'evse_id', s.evse_id,
          'power_type', case when s.n % 3 = 0 then 'dc' else 'ac_3phase' end, 'connector_standard', case when s.n % 3 = 0 then 'IEC_62196_T2_COMBO' else 'IEC_62196_T2' end,
          'address', jsonb_build_object('street', 'Laan ' || (s.n % 300), 'city', s.city, 'postal_code', lpad((s.n % 9000 + 1000)::text, 4, '0'), 'country', s.country)),
        s.start_at + interval '2 hours', 'priced', s.admin_id, s.admin_id, s.token_id, s.subscription_id, s.customer_id, '[]', 1,
        s.start_at + interval '2 hours', s.start_at + interval '2 hours'
      from s returning id)
    insert into msp_pricing_result (id, session_id, version, admin_id, customer_id, subscription_id, token_evco_id, currency, rate_plan_id,
        rate_plan_version_id, rule, subtotals, total_excl_vat, total_vat, total_incl_vat, credit_used, annotations, explanation, created_at)
      select svc_uuidv7(), s.id, 1, s.admin_id, s.customer_id, s.subscription_id, s.evco_id, 'EUR', s.subscription_id, s.subscription_id,
        '{}', ${subtotals}, round(s.kwh * 0.45, 2) + 0.35, round((round(s.kwh * 0.45, 2) + 0.35) * s.vat::numeric / 100, 2),
        round((round(s.kwh * 0.45, 2) + 0.35) * (1 + s.vat::numeric / 100), 2), 0, '{}', '[]', s.start_at + interval '2 hours'
      from s join ins using (id)`;
}

/** The stored sessions there are now. */
export async function storedSessions(client: pg.Client): Promise<number> {
  const { rows } = await client.query(`select count(*)::int as n from msp_charge_session where admin_id = any(${ADMIN_IDS})`);
  return rows[0].n;
}

/** Tops the stored sessions up to `target` (none removed when there are more); answers how many there are. */
export async function seedStoredSessions(databaseUrl: string, target: number, progress: (line: string) => void = () => {}): Promise<number> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    await seedParties(client);
    const parties = await partyTable(client);
    let stored = await storedSessions(client);
    while (stored < target) {
      const to = Math.min(target, stored + CHUNK);
      await client.query(sessionsSql(stored, to, parties));
      stored = to;
      progress(`  stored ${stored.toLocaleString('en-US')} sessions`);
    }
    await client.query('vacuum (analyze)');
    await client.query('checkpoint');
    return stored;
  } finally {
    await client.end();
  }
}

if (process.argv[1] && import.meta.filename === process.argv[1]) {
  const [url, target] = process.argv.slice(2);
  if (!url || !Number.isInteger(Number(target))) {
    console.error('usage: node bench/seed-stored-sessions.ts <databaseUrl> <count>');
    process.exit(2);
  }
  const started = performance.now();
  const stored = await seedStoredSessions(url, Number(target), console.log);
  console.log(`${stored} stored sessions (${((performance.now() - started) / 1000).toFixed(1)} s)`);
}
