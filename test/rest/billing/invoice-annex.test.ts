// A box of 500 sessions: the annex spans pages, lists every session once and adds up to its line;
// the UBL embeds it as CSV. And the number is taken last: a finalize of the same series is not held
// while another one's documents render.
import test from 'ava';
import { isCreditorReference } from '../../../src/billing/document/creditor-reference.ts';
import { finalizeBox } from '../../../src/billing/finalize-box.service.ts';
import { billUnbilledSessions } from '../../../src/billing/sources/msp-session.source.ts';
import { scopedEm } from '../../../src/access/admin-scope.ts';
import { startTestApp, type TestApp } from '../../helpers/app.ts';
import { boxInState, configureBilling, createSeries } from '../../helpers/billing-factories.ts';
import { en16931Failures } from '../../helpers/en16931.ts';
import { createAdministration, createCustomer, okCall } from '../../helpers/factories.ts';
import { paymentReferenceIn, readInvoice, textLines } from '../../helpers/invoice-reading.ts';
import { ensureVatRate } from '../../helpers/session-factories.ts';
import { pricedSessionsSql } from '../../helpers/priced-sessions.ts';

let app: TestApp;
test.before(async () => {
  app = await startTestApp();
  await ensureVatRate(app);
});
test.after.always(async () => { await app?.close(); });

const ok = (method: string, path: string, body?: unknown) => okCall(app, method, path, body);

/** `count` priced sessions of one customer in October 2026, billed into its box. */
async function sessionsBilled(adminId: string, customerId: string, count: number, tag: string) {
  await app.orm.em.fork().getConnection().execute(pricedSessionsSql({ adminId, customerId, count, tag }));
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
