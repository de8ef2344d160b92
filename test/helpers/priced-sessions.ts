// Priced MSP sessions of one customer written straight into the database (no pipeline): October
// 2026, a few EVSEs and tokens, one energy line at 0.45/kWh and 21 % VAT each. For documents of
// many sessions (the 500-session test, `npm run bench -- finalize`); bill them with
// billUnbilledSessions.
const SUBTOTALS = `jsonb_build_array(jsonb_build_object('kind', 'energy', 'volume', kwh::text, 'billed_volume', kwh::text, 'rate', '0.45',
  'rate_unit', 'kWh', 'rate_label', 'Energy', 'amount_excl_vat', round(kwh * 0.45, 2)::text, 'amount_excl_vat_unrounded', (kwh * 0.45)::text,
  'vat_kind', 'standard', 'vat_percent', '21', 'vat_country', 'NL', 'vat_amount_unrounded', (round(kwh * 0.45, 2) * 0.21)::text))`;

export function pricedSessionsSql(o: { adminId: string; customerId: string; count: number; tag: string }): string {
  const quote = (s: string) => `'${s.replace(/'/g, "''")}'`;
  const [admin, customer, tag] = [quote(o.adminId), quote(o.customerId), o.tag.replace(/'/g, "''")];
  return `with s as (
      select svc_uuidv7() as id, n, round((5 + (n % 40))::numeric + (n % 1000) / 1000.0, 3) as kwh,
        timestamptz '2026-10-01 08:00+02' + ((n % 30) || ' days')::interval + ((n % 600) || ' minutes')::interval as start_at
      from generate_series(1, ${Math.trunc(o.count)}) n),
    ins as (insert into msp_charge_session (id, source, identity_key, session_id, evco_id, start_at, end_at, energy_kwh, idle_seconds,
        time_zone, country, evse_id, payload, received_at, status, admin_id, driver_admin_id, customer_id, bypass_checks, pricing_version, created_at, updated_at)
      select s.id, 'charge_session', '${tag}:' || s.n, '${tag}-' || s.n, 'NL-TST-C' || lpad((s.n % 7)::text, 8, '0'), s.start_at,
        s.start_at + ((30 + s.n % 200) || ' minutes')::interval, s.kwh, 0, 'Europe/Amsterdam', 'NL', 'NL*TST*E' || (s.n % 12),
        jsonb_build_object('address', jsonb_build_object('street', 'Laan ' || (s.n % 50), 'city', 'Utrecht', 'country', 'NL')), now(), 'priced',
        ${admin}, ${admin}, ${customer}, '[]', 1, now(), now()
      from s returning id, energy_kwh as kwh)
    insert into msp_pricing_result (id, session_id, version, admin_id, customer_id, subscription_id, token_evco_id, currency, rate_plan_id,
        rate_plan_version_id, rule, subtotals, total_excl_vat, total_vat, total_incl_vat, credit_used, annotations, explanation, created_at)
      select svc_uuidv7(), ins.id, 1, ${admin}, ${customer}, ${customer}, 'NL-TST', 'EUR', ${customer}, ${customer},
        '{}', ${SUBTOTALS}, round(kwh * 0.45, 2), 0, 0, 0, '{}', '[]', now() from ins`;
}
