// A box of 500 sessions: the annex spans pages, lists every session once and adds up to its line;
// the UBL embeds it as CSV. And the number is taken last: a finalize of the same series is not held
// while another one's documents render.
import test from 'ava';
import { isCreditorReference } from '../../../src/billing/document/creditor-reference.ts';
import { finalizeBox } from '../../../src/billing/finalize-box.service.ts';
import { billUnbilledSessions } from '../../../src/billing/sources/msp-session.source.ts';
import { scopedEm } from '../../../src/platform/orm.ts';
import { startTestApp, type TestApp } from '../../helpers/app.ts';
import { boxInState, configureBilling, createSeries } from '../../helpers/billing-factories.ts';
import { en16931Failures } from '../../helpers/en16931.ts';
import { createAdministration, createCustomer } from '../../helpers/factories.ts';
import { paymentReferenceIn, readInvoice, textLines } from '../../helpers/invoice-reading.ts';
import { ensureVatRate } from '../../helpers/session-factories.ts';

let app: TestApp;
test.before(async () => {
  app = await startTestApp();
  await ensureVatRate(app);
});
test.after.always(async () => { await app?.close(); });

async function ok(method: string, path: string, body?: unknown) {
  const r = await app.request(method, `/main/v1${path}`, body === undefined ? {} : { body });
  if (r.status !== 200) throw new Error(`${method} ${path}: ${r.status} ${JSON.stringify(r.body)}`);
  return r.body;
}

const SUBTOTALS = `jsonb_build_array(jsonb_build_object('kind', 'energy', 'volume', kwh::text, 'billed_volume', kwh::text, 'rate', '0.45',
  'rate_unit', 'kWh', 'rate_label', 'Energy', 'amount_excl_vat', round(kwh * 0.45, 2)::text, 'amount_excl_vat_unrounded', (kwh * 0.45)::text,
  'vat_kind', 'standard', 'vat_percent', '21', 'vat_country', 'NL', 'vat_amount_unrounded', (round(kwh * 0.45, 2) * 0.21)::text))`;

/** `count` priced sessions of one customer in October 2026, billed into its box. */
async function sessionsBilled(adminId: string, customerId: string, count: number, tag: string) {
  await app.orm.em.fork().getConnection().execute(`with s as (
      select svc_uuidv7() as id, n, round((5 + (n % 40))::numeric + (n % 1000) / 1000.0, 3) as kwh,
        timestamptz '2026-10-01 08:00+02' + ((n % 30) || ' days')::interval + ((n % 600) || ' minutes')::interval as start_at
      from generate_series(1, ${count}) n),
    ins as (insert into msp_charge_session (id, source, identity_key, session_id, evco_id, start_at, end_at, energy_kwh, idle_seconds,
        time_zone, country, evse_id, payload, received_at, status, admin_id, customer_id, bypass_checks, pricing_version, created_at, updated_at)
      select s.id, 'charge_session', '${tag}:' || s.n, '${tag}-' || s.n, 'NL-TST-C' || lpad((s.n % 7)::text, 8, '0'), s.start_at,
        s.start_at + ((30 + s.n % 200) || ' minutes')::interval, s.kwh, 0, 'Europe/Amsterdam', 'NL', 'NL*TST*E' || (s.n % 12),
        jsonb_build_object('address', jsonb_build_object('street', 'Laan ' || (s.n % 50), 'city', 'Utrecht', 'country', 'NL')), now(), 'priced',
        '${adminId}', '${customerId}', '[]', 1, now(), now()
      from s returning id, energy_kwh as kwh)
    insert into msp_pricing_result (id, session_id, version, admin_id, customer_id, subscription_id, token_evco_id, currency, rate_plan_id,
        rate_plan_version_id, rule, subtotals, total_excl_vat, total_vat, total_incl_vat, credit_used, annotations, explanation, created_at)
      select svc_uuidv7(), ins.id, 1, '${adminId}', '${customerId}', '${customerId}', 'NL-TST', 'EUR', '${customerId}', '${customerId}',
        '{}', ${SUBTOTALS}, round(kwh * 0.45, 2), 0, 0, 0, '{}', '[]', now() from ins`);
  await billUnbilledSessions(scopedEm(app.orm), adminId);
}

async function readyBoxOf(adminId: string, customerId: string) {
  const box = (await ok('GET', `/billing-box?party_external_reference=${(await ok('GET', `/customer/${customerId}`)).external_reference}`)).items[0];
  await ok('POST', `/billing-box/${box.id}/close`, { billing_reference: 'FLEET-2026-10' });
  await ok('POST', `/billing-box/${box.id}/approve`);
  return boxInState(app, box.id, 'ready', 60_000);
}

test('a box of 500 sessions: the annex spans pages with "page n of m", lists each session once, adds up to its line; the UBL embeds it', async (t) => {
  t.timeout(120_000);
  const admin = await createAdministration(app, { localeId: 'en-GB' });
  await configureBilling(app, admin.id);
  await createSeries(app, admin.id);
  const customer = await createCustomer(app, admin.id, { external_reference: `FLEET-${admin.id.slice(-6)}` });
  await sessionsBilled(admin.id, customer.id, 500, `big-${admin.id}`);
  const box = await readyBoxOf(admin.id, customer.id);
  t.is(box.rollups.length, 1);
  const final = await ok('POST', `/billing-box/${box.id}/finalize`);
  const { pages, text, xml, sessionItems } = await readInvoice(app, box.id);
  t.is(sessionItems.length, 500);
  t.true(pages.length >= 8, `${pages.length} pages`);
  pages.forEach((page, i) => t.true(page.includes(`Page ${i + 1} of ${pages.length}`), `page ${i + 1}`));
  const line = final.rollups[0];
  t.true(text.includes(`Charging sessions (500 sessions, ${Number(line.volume.kWh).toLocaleString('en-US', { maximumFractionDigits: 6 })} kWh)`), text.slice(0, 2000));
  // Every session once: its row ends with its amount, and the rows' amounts add up to the line.
  const rows = textLines(pages).filter((l) => /^2026-10-\d\d \d\d:\d\d /.test(l));
  t.is(rows.length, 500);
  const cents = (a: string) => BigInt(a.replace(/,/g, '').replace('.', ''));
  t.is(rows.reduce((acc, r) => acc + cents(r.split(' ').at(-1)!), 0n), cents(line.subtotal_excl_vat));
  t.is(sessionItems.reduce((acc, i) => acc + cents(i.amount_excl_vat), 0n), cents(line.subtotal_excl_vat));
  t.true(text.includes(`Subtotal 1 ${Number(line.subtotal_excl_vat).toLocaleString('en-US', { minimumFractionDigits: 2 })}`));
  const reference = paymentReferenceIn(text);
  t.true(isCreditorReference(reference));
  t.regex(xml, new RegExp(`<cbc:PaymentID>${reference}</cbc:PaymentID>`));
  const csv = Buffer.from(/mimeCode="text\/csv"[^>]*>([^<]+)</.exec(xml)![1], 'base64').toString('utf8').trim().split('\r\n');
  t.is(csv.length, 501);
  t.is(csv[0], 'line,session_id,start_local,location,evse_id,token,energy_kwh,duration_minutes,amount_excl_vat,entry');
  t.deepEqual(await en16931Failures(xml), []);
});

test('the number is taken last: while one finalize of a series renders, another of the series finalizes and takes the next number', async (t) => {
  const admin = await createAdministration(app);
  await configureBilling(app, admin.id);
  const series = await createSeries(app, admin.id);
  const [a, b] = [await createCustomer(app, admin.id, { external_reference: `A-${admin.id}` }), await createCustomer(app, admin.id, { external_reference: `B-${admin.id}` })];
  await sessionsBilled(admin.id, a.id, 50, `a-${admin.id}`);
  await sessionsBilled(admin.id, b.id, 5, `b-${admin.id}`);
  const [boxA, boxB] = [await readyBoxOf(admin.id, a.id), await readyBoxOf(admin.id, b.id)];
  let laidOut!: () => void;
  const rendered = new Promise<void>((resolve) => { laidOut = resolve; });
  let release!: () => void;
  const held = new Promise<void>((resolve) => { release = resolve; });
  // A lays out its documents and waits there (its box locked, the series' number not yet taken).
  const first = finalizeBox(scopedEm(app.orm), boxA.id, { beforeNumber: async () => { laidOut(); await held; } });
  await Promise.race([rendered, first]);
  const second = await finalizeBox(scopedEm(app.orm), boxB.id);
  t.is(second.invoiceCode, `${series.code}-2026-000001`);
  release();
  t.is((await first).invoiceCode, `${series.code}-2026-000002`);
  // Gap-free: the two numbers of the series, each once.
  const numbers = (await ok('GET', `/billing-box?reviewset_id=${boxA.billing_reviewset_id}`)).items.map((x: any) => x.invoice_code).sort();
  t.deepEqual(numbers, [`${series.code}-2026-000001`, `${series.code}-2026-000002`]);
});
