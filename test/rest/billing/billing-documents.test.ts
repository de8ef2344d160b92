import test from 'ava';
import pg from 'pg';
import { scopedEm } from '../../../src/access/admin-scope.ts';
import { finalizeBox } from '../../../src/billing/finalize-box.service.ts';
import { startTestApp, type TestApp } from '../../helpers/app.ts';
import { lockWaits } from '../../helpers/db.ts';
import { boxInState, configureBilling, createSeries, SELLER } from '../../helpers/billing-factories.ts';
import { en16931Failures } from '../../helpers/en16931.ts';
import { createAdministration, createCustomer } from '../../helpers/factories.ts';
import { pdfPages } from '../../helpers/pdf-text.ts';
import { ensureVatRate } from '../../helpers/session-factories.ts';

let app: TestApp;
test.before(async () => {
  // 50 finalizations at once queue for the app's five request connections, each rendering its documents:
  // on a loaded machine that takes longer than the suite's 15 s bound, which is not what this file tests.
  app = await startTestApp({ requestDatabaseTimeoutMs: 60_000 });
  await ensureVatRate(app);
});
test.after.always(async () => { await app?.close(); });

async function customItem(adminId: string, partyId: string, fields: Record<string, unknown> = {}) {
  const r = await app.request('POST', '/main/v1/billing-custom-item', {
    body: {
      time_zone: 'Europe/Amsterdam', date: '2026-11-02', party_id: partyId, admin_id: adminId, description: 'Service', quantity: '1',
      unit: 'pcs', unit_price_excl_vat: '10.00', vat_kind: 'standard', ...fields,
    },
  });
  if (r.status !== 200) throw new Error(JSON.stringify(r.body));
  return r.body;
}

async function readyBox(boxId: string) {
  t_ok(await app.request('POST', `/main/v1/billing-box/${boxId}/close`));
  t_ok(await app.request('POST', `/main/v1/billing-box/${boxId}/approve`));
  return boxInState(app, boxId, 'ready');
}

function t_ok(r: { status: number; body: unknown }) {
  if (r.status !== 200) throw new Error(JSON.stringify(r.body));
}

test('50 boxes finalized at once get consecutive numbers of their series, none twice', async (t) => {
  const admin = await createAdministration(app);
  await configureBilling(app, admin.id);
  const series = await createSeries(app, admin.id);
  const boxIds: string[] = [];
  for (let i = 0; i < 50; i++) {
    const customer = await createCustomer(app, admin.id);
    boxIds.push((await customItem(admin.id, customer.id)).box_id);
  }
  for (const id of boxIds) {
    t_ok(await app.request('POST', `/main/v1/billing-box/${id}/close`));
    t_ok(await app.request('POST', `/main/v1/billing-box/${id}/approve`));
  }
  for (const id of boxIds) await boxInState(app, id, 'ready');
  const answers = await Promise.all(boxIds.map((id) => app.request('POST', `/main/v1/billing-box/${id}/finalize`)));
  t.true(answers.every((a) => a.status === 200), JSON.stringify(answers.find((a) => a.status !== 200)?.body));
  const numbers = answers.map((a) => Number(a.body.invoice_code.split('-').at(-1))).sort((a, b) => a - b);
  t.deepEqual(numbers, Array.from({ length: 50 }, (_, i) => i + 1));
  t.true(answers.every((a) => a.body.invoice_code.startsWith(`${series.code}-2026-`)));
  const again = await app.request('POST', `/main/v1/billing-box/${boxIds[0]}/finalize`);
  t.is(again.status, 400);
  t.is(again.body.code, 'invalid_state');
});

test('a box with a negative total is a credit note on the same number sequence, valid EN 16931', async (t) => {
  const admin = await createAdministration(app, { localeId: 'en-GB' });
  await configureBilling(app, admin.id);
  await createSeries(app, admin.id);
  const customer = await createCustomer(app, admin.id, { company_reg_num: '555' });
  const item = await customItem(admin.id, customer.id, { quantity: '-2', unit_price_excl_vat: '12.50', description: 'Goodwill refund' });
  await readyBox(item.box_id);
  const final = await app.request('POST', `/main/v1/billing-box/${item.box_id}/finalize`);
  t.is(final.status, 200);
  t.is(final.body.total_amount_incl_vat, '-30.25');
  t.is(final.body.document_kind, 'credit_note');
  const xml = await app.request('GET', `/main/v1/billing-box/${item.box_id}/document`, { headers: { accept: 'application/xml' } });
  t.regex(xml.body, /<CreditNote /);
  t.regex(xml.body, /<cbc:PayableAmount currencyID="EUR">30.25<\/cbc:PayableAmount>/);
  t.deepEqual(await en16931Failures(xml.body), []);
});

test('documents of an external system: finalize from approved with the upload, then add and remove other documents', async (t) => {
  const admin = await createAdministration(app);
  const series = await createSeries(app, admin.id, { document_source: 'external' });
  const customer = await createCustomer(app, admin.id);
  const item = await customItem(admin.id, customer.id);
  t_ok(await app.request('POST', `/main/v1/billing-box/${item.box_id}/close`));
  const approved = await app.request('POST', `/main/v1/billing-box/${item.box_id}/approve`);
  t.is(approved.body.state, 'approved');
  const pdf = Buffer.from('%PDF-1.4 external invoice');
  const missing = await app.request('POST', `/main/v1/billing-box/${item.box_id}/finalize`);
  t.is(missing.status, 400);
  const noCode = await app.request('POST', `/main/v1/billing-box/${item.box_id}/finalize`, { raw: pdf, headers: { 'content-type': 'application/pdf' } });
  t.is(noCode.status, 400);
  t.is(noCode.body.query_param, 'invoice_code');
  for (const date of ['2026-02-31', '2026-13-01', '2026-1-01']) {
    const impossible = await app.request('POST', `/main/v1/billing-box/${item.box_id}/finalize?invoice_code=EXT-77&invoice_date=${date}`, {
      raw: pdf, headers: { 'content-type': 'application/pdf' },
    });
    t.is(impossible.status, 400, date);
    t.is(impossible.body.query_param, 'invoice_date', date);
  }
  // The service itself refuses a date that is no real day, whichever transport calls it (found by probing, 2026-11-29: GraphQL finalized with 2026-02-30).
  for (const invoiceDate of ['2026-02-30', '0000-00-00']) {
    const refused = await t.throwsAsync(finalizeBox(scopedEm(app.orm), item.box_id, { upload: { bytes: pdf, contentType: 'application/pdf', invoiceCode: 'EXT-77', invoiceDate } }));
    t.like(refused, { code: 'invalid_input', fieldPath: ['invoice_date'] }, invoiceDate);
  }
  t.is((await app.request('GET', `/main/v1/billing-box/${item.box_id}`)).body.state, 'approved');
  const final = await app.request('POST', `/main/v1/billing-box/${item.box_id}/finalize?invoice_code=EXT-77&invoice_date=2026-11-20`, {
    raw: pdf, headers: { 'content-type': 'application/pdf' },
  });
  t.is(final.status, 200, JSON.stringify(final.body));
  t.is(final.body.invoice_code, 'EXT-77');
  t.is(final.body.invoice_date, '2026-11-20');
  t.false(final.body.transferred);
  // Found by probing: switched to the service's numbers, every finalize drew an external code and failed (500).
  const switched = await app.request('POST', `/main/v1/billing-series/${series.id}`, { body: { document_source: 'service' } });
  t.like(switched.body, { code: 'invalid_state', param: '$.document_source' });
  const doc = await app.request('GET', `/main/v1/billing-box/${item.box_id}/document`);
  t.deepEqual(doc.body, pdf);

  const extra = await app.request('POST', `/main/v1/billing-box/${item.box_id}/document/reminder.pdf`, { raw: Buffer.from('%PDF reminder'), headers: { 'content-type': 'application/pdf' } });
  t.is(extra.status, 200);
  t.deepEqual(extra.body.documents.map((d: any) => [d.filename, d.primary]), [['EXT-77.pdf', true], ['reminder.pdf', false]]);
  const replacePrimary = await app.request('POST', `/main/v1/billing-box/${item.box_id}/document/EXT-77.pdf`, { raw: Buffer.from('%PDF x'), headers: { 'content-type': 'application/pdf' } });
  t.is(replacePrimary.status, 400);
  t.is(replacePrimary.body.code, 'invalid_state');
  const wrongType = await app.request('POST', `/main/v1/billing-box/${item.box_id}/document/x.pdf`, { raw: 'text', headers: { 'content-type': 'text/plain' } });
  t.is(wrongType.status, 400);
  // A document named after the invoice code, added afterwards, is not what the box's document is.
  const lookalike = await app.request('POST', `/main/v1/billing-box/${item.box_id}/document/EXT-77.a.xml`, { raw: '<Invoice>fake</Invoice>', headers: { 'content-type': 'application/xml' } });
  t.is(lookalike.status, 200);
  // An uploaded XML could be XHTML with script (found by probing): it is a download in a sandbox; a PDF is shown.
  t.like(Object.fromEntries((await app.request('GET', `/main/v1/billing-box/${item.box_id}/document/EXT-77.a.xml`)).headers), {
    'content-disposition': 'attachment; filename="EXT-77.a.xml"', 'content-security-policy': "default-src 'none'; sandbox", 'x-content-type-options': 'nosniff',
  });
  const shown = Object.fromEntries((await app.request('GET', `/main/v1/billing-box/${item.box_id}/document/reminder.pdf`)).headers);
  t.like(shown, { 'content-disposition': 'inline; filename="reminder.pdf"', 'x-content-type-options': 'nosniff' });
  t.deepEqual((await app.request('GET', `/main/v1/billing-box/${item.box_id}/document`)).body, pdf);
  t.is((await app.request('GET', `/main/v1/billing-box/${item.box_id}/document`, { headers: { accept: 'application/xml' } })).body.code, 'document_missing');
  t.is((await app.request('DELETE', `/main/v1/billing-box/${item.box_id}/document/EXT-77.a.xml`)).status, 400, 'named after the code: the finalized box keeps it');
  const removed = await app.request('DELETE', `/main/v1/billing-box/${item.box_id}/document/reminder.pdf`);
  t.is(removed.status, 200);
  t.deepEqual(removed.body.documents.map((d: any) => d.filename), ['EXT-77.pdf', 'EXT-77.a.xml'], 'the primary first');
  const transferred = await app.request('POST', `/main/v1/billing-box/${item.box_id}/transferred`);
  t.true(transferred.body.transferred);
});

test('an external system\'s invoice code is taken once per series, in any casing, also by finalizes at once; another series may use it', async (t) => {
  // Found by probing (2026-11-29): two boxes of one series were finalized with the same invoice code.
  const admin = await createAdministration(app);
  await configureBilling(app, admin.id);
  const series = await createSeries(app, admin.id, { document_source: 'external' });
  const approvedBox = async (adminId: string, fields: Record<string, unknown> = {}) => {
    const item = await customItem(adminId, (await createCustomer(app, adminId)).id, fields);
    t_ok(await app.request('POST', `/main/v1/billing-box/${item.box_id}/close`));
    t_ok(await app.request('POST', `/main/v1/billing-box/${item.box_id}/approve`));
    return item.box_id as string;
  };
  const ids = [await approvedBox(admin.id), await approvedBox(admin.id), await approvedBox(admin.id), await approvedBox(admin.id)];
  const pdf = { raw: Buffer.from('%PDF-1.4\n%%EOF\n'), headers: { 'content-type': 'application/pdf' } };
  const finalize = (id: string, code: string) => app.request('POST', `/main/v1/billing-box/${id}/finalize?invoice_code=${code}&invoice_date=2026-11-20`, pdf);
  t.is((await finalize(ids[0], 'EXT-1')).status, 200);
  const again = await finalize(ids[1], 'ext-1');
  t.like(again.body, { code: 'duplicate', query_param: 'invoice_code' }, JSON.stringify(again.body));
  const together = await Promise.all([finalize(ids[2], 'EXT-2'), finalize(ids[3], 'EXT-2')]);
  t.deepEqual(together.map((r) => r.status).sort(), [200, 400], JSON.stringify(together.map((r) => r.body)));
  t.like(together.find((r) => r.status === 400)!.body, { code: 'duplicate', query_param: 'invoice_code' });
  const states = await Promise.all(ids.map(async (id) => (await app.request('GET', `/main/v1/billing-box/${id}`)).body));
  t.deepEqual(states.map((b) => b.state).sort(), ['approved', 'approved', 'finalized', 'finalized'], 'a refused box stays approved, without a document');
  t.is((await app.request('GET', `/main/v1/billing-box/${ids[1]}/document`)).body.code, 'document_missing');
  // Another series of the administration has numbers of its own.
  const other = await createSeries(app, admin.id, { document_source: 'external', code: `X${series.code}` });
  const otherBox = await approvedBox(admin.id, { series_indicator_code: other.code });
  t.is((await finalize(otherBox, 'EXT-1')).status, 200);
});

test('an upload sent while the box finalizes, under the name finalize gives its invoice, waits and is refused; the invoice stays', async (t) => {
  const admin = await createAdministration(app);
  await configureBilling(app, admin.id);
  await createSeries(app, admin.id);
  const customer = await createCustomer(app, admin.id);
  const item = await customItem(admin.id, customer.id);
  await readyBox(item.box_id);
  // The test finalizes as finalize does, in a transaction that holds the box's row: the state, the
  // number and its primary document; the upload of that name arrives before the commit.
  const db = new pg.Client({ connectionString: app.databaseUrl });
  await db.connect();
  t.teardown(() => db.end());
  await db.query('begin');
  const [box] = (await db.query('select admin_id from billing_box where id = $1 for update', [item.box_id])).rows;
  await db.query(`update billing_box set state = 'finalized', invoice_code = 'RACE-1', invoice_date = '2026-11-30' where id = $1`, [item.box_id]);
  await db.query(`insert into billing_document_file (id, admin_id, box_id, filename, content_type, size, bytes, "primary", draft, created_at)
    values (gen_random_uuid(), $1, $2, 'RACE-1.pdf', 'application/pdf', 4, '\\x25504446'::bytea, true, false, now())`, [box.admin_id, item.box_id]);
  const upload = app.request('POST', `/main/v1/billing-box/${item.box_id}/document/RACE-1.pdf`, { raw: Buffer.from('%PDF forged'), headers: { 'content-type': 'application/pdf' } });
  let waiting = 0;
  for (const until = Date.now() + 10_000; waiting === 0 && Date.now() < until; await new Promise((resolve) => setTimeout(resolve, 20))) {
    waiting = await lockWaits(db);
  }
  t.true(waiting > 0, 'the upload waits for the box');
  await db.query('commit');
  const answered = await upload;
  t.is(answered.status, 400);
  t.is(answered.body.code, 'invalid_state');
  const stored = await app.request('GET', `/main/v1/billing-box/${item.box_id}`);
  t.deepEqual(stored.body.documents.filter((d: { draft: boolean }) => !d.draft).map((d: { filename: string; primary: boolean }) => [d.filename, d.primary]), [['RACE-1.pdf', true]]);
  t.deepEqual((await app.request('GET', `/main/v1/billing-box/${item.box_id}/document`)).body, Buffer.from('%PDF'));
});

test('a series keeps the code it numbered documents with, and no two codes read alike in payment references', async (t) => {
  const admin = await createAdministration(app);
  await configureBilling(app, admin.id);
  const series = await createSeries(app, admin.id, { code: 'FAC' });
  const customer = await createCustomer(app, admin.id);
  // An unused series may be renamed; codes that read alike without separators are refused.
  const unused = await createSeries(app, admin.id, { code: 'SPARE', item_sources: ['roaming'] });
  t.is((await app.request('POST', `/main/v1/billing-series/${unused.id}`, { body: { code: 'SPARE2' } })).status, 200);
  for (const code of ['F-A-C', 'fa.c', 'SPARE_2']) {
    const alike = await app.request('POST', '/main/v1/billing-series', { body: { admin_id: admin.id, code } });
    t.like(alike.body, { code: 'duplicate', param: '$.code' }, code);
  }
  const item = await customItem(admin.id, customer.id);
  await readyBox(item.box_id);
  const final = await app.request('POST', `/main/v1/billing-box/${item.box_id}/finalize`);
  t.regex(final.body.invoice_code, /^FAC-\d{4}-000001$/);
  // Renamed, another series could take FAC and issue FAC-…-000001 again.
  const renamed = await app.request('POST', `/main/v1/billing-series/${series.id}`, { body: { code: 'OLD' } });
  t.like(renamed.body, { code: 'invalid_state', param: '$.code' });
  t.is((await app.request('GET', `/main/v1/billing-series/${series.id}`)).body.code, 'FAC');
  t.is((await app.request('POST', `/main/v1/billing-series/${series.id}`, { body: { name: 'Invoices' } })).status, 200, 'other fields still change');
});

test('invoices of two series never share a payment reference: a code too long for one uses the series\' short form, which no other code may read as', async (t) => {
  // Found by probing (2026-11-29): series 1 with code LONGSERIESCODEX (reference body 1 2026 000001, its
  // short number, year and number) and a series with code 1 (body 1 2026 000001) gave one reference.
  const admin = await createAdministration(app);
  await configureBilling(app, admin.id);
  const long = await createSeries(app, admin.id, { code: 'LONGSERIESCODEX' });
  const short = await createSeries(app, admin.id, { code: '1' });
  const customer = await createCustomer(app, admin.id);
  const references = [];
  for (const series of [long, short]) {
    const item = await customItem(admin.id, customer.id, { series_indicator_code: series.code });
    await readyBox(item.box_id);
    t_ok(await app.request('POST', `/main/v1/billing-box/${item.box_id}/finalize`));
    const xml = await app.request('GET', `/main/v1/billing-box/${item.box_id}/document`, { headers: { accept: 'application/xml' } });
    references.push(/<cbc:PaymentID>([^<]+)<\/cbc:PaymentID>/.exec(xml.body)?.[1]?.slice(4));
  }
  t.deepEqual(references, [`S1Y${new Date().getFullYear()}000001`, `1${new Date().getFullYear()}000001`]);
  // A code whose references could equal another series': the short form itself, or a code that continues
  // another's with digits (1 2026 … of code 12 against 12026 … of code 1 from number 1 000 000 on).
  for (const code of ['S1Y', 's-1-y', 'S1Y7', '12', '1-2026']) {
    const clash = await app.request('POST', '/main/v1/billing-series', { body: { admin_id: admin.id, code } });
    t.like(clash.body, { code: 'duplicate', param: '$.code' }, code);
  }
  for (const code of ['1A', 'S1', 'SY1']) {
    t.is((await app.request('POST', '/main/v1/billing-series', { body: { admin_id: admin.id, code, item_sources: ['roaming'] } })).status, 200, code);
  }
});

test('a reverse-charge invoice needs the buyer\'s VAT number or registration: without, finalize is refused and takes no number', async (t) => {
  const admin = await createAdministration(app);
  await configureBilling(app, admin.id);
  await createSeries(app, admin.id);
  await ensureVatRate(app, 'NL', '0', 'reverse_charge');
  const anonymous = await createCustomer(app, admin.id);
  const item = await customItem(admin.id, anonymous.id, { vat_kind: 'reverse_charge' });
  await readyBox(item.box_id);
  const refused = await app.request('POST', `/main/v1/billing-box/${item.box_id}/finalize`);
  t.like(refused.body, { code: 'invalid_input' });
  t.regex(refused.body.message, /reverse-charge/);
  t.like((await app.request('GET', `/main/v1/billing-box/${item.box_id}`)).body, { state: 'ready', invoice_code: null });
  // A buyer with a registration number is invoiced, as the first number of the series.
  const registered = await createCustomer(app, admin.id, { company_reg_num: '12345678' });
  const other = await customItem(admin.id, registered.id, { vat_kind: 'reverse_charge' });
  await readyBox(other.box_id);
  const final = await app.request('POST', `/main/v1/billing-box/${other.box_id}/finalize`);
  t.is(final.status, 200, JSON.stringify(final.body));
  t.regex(final.body.invoice_code, /-000001$/);
  const xml = (await app.request('GET', `/main/v1/billing-box/${other.box_id}/document`, { headers: { accept: 'application/xml' } })).body as string;
  t.deepEqual(await en16931Failures(xml), []);
});

test('a reopened box has no draft left: its next approval renders one of what it holds then', async (t) => {
  const admin = await createAdministration(app);
  await configureBilling(app, admin.id);
  await createSeries(app, admin.id);
  const customer = await createCustomer(app, admin.id);
  const item = await customItem(admin.id, customer.id);
  const ready = await readyBox(item.box_id);
  t.true(ready.documents.some((d: { draft: boolean }) => d.draft));
  const reopened = await app.request('POST', `/main/v1/billing-box/${item.box_id}/reopen`);
  t.is(reopened.status, 200);
  t.deepEqual(reopened.body.documents, []);
  t.is((await app.request('GET', `/main/v1/billing-box/${item.box_id}/document/draft.pdf`)).body.code, 'document_missing');
});

test('delivery states: create, merge-update, list by box; bad channel is 400', async (t) => {
  const admin = await createAdministration(app);
  await createSeries(app, admin.id);
  const customer = await createCustomer(app, admin.id);
  const item = await customItem(admin.id, customer.id);
  const created = await app.request('POST', '/main/v1/billing-box-delivery-state', { body: { box_id: item.box_id, channel: 'email', external_reference: `mail-${item.box_id}` } });
  t.is(created.status, 200);
  t.is(created.body.state, 'pending');
  const updated = await app.request('POST', `/main/v1/billing-box-delivery-state/${created.body.id}`, { body: { state: 'delivered', detail: 'opened' } });
  t.is(updated.body.state, 'delivered');
  t.is(updated.body.channel, 'email');
  const list = await app.request('GET', `/main/v1/billing-box-delivery-state?box_id=${item.box_id}`);
  t.deepEqual(list.body.items.map((d: any) => d.id), [created.body.id]);
  const bad = await app.request('POST', '/main/v1/billing-box-delivery-state', { body: { box_id: item.box_id, channel: 'pigeon' } });
  t.is(bad.status, 400);
  t.is(bad.body.param, '$.channel');
});

test("roll-ups follow the customer's billing_rollup_group_by; box_distinct_code asks for a box of its own", async (t) => {
  const admin = await createAdministration(app);
  await createSeries(app, admin.id);
  const customer = await createCustomer(app, admin.id, { billing_rollup_group_by: 'product' });
  const a = await customItem(admin.id, customer.id, { product_category: 'custom' });
  const b = await customItem(admin.id, customer.id, { vat_kind: 'exempt' });
  t.is(a.box_id, b.box_id);
  const box = (await app.request('GET', `/main/v1/billing-box/${a.box_id}`)).body;
  t.deepEqual(box.rollups.map((r: any) => [r.vat_kind, r.subtotal_excl_vat]).sort(), [['exempt', '10.00'], ['standard', '10.00']]);
  t.deepEqual(box.vat_breakdown.map((v: any) => [v.vat_category, v.taxable_amount, v.vat_amount]).sort(), [['E', '10.00', '0.00'], ['S', '10.00', '2.10']]);
  const own = await customItem(admin.id, customer.id, { box_distinct_code: 'project-x' });
  t.not(own.box_id, a.box_id);
  t.is((await app.request('GET', `/main/v1/billing-box/${own.box_id}`)).body.box_distinct_code, 'project-x');
});

test('a VAT accounting currency: the box answers its VAT total in that currency at the rate of its date, and the UBL carries it', async (t) => {
  const admin = await createAdministration(app, { localeId: 'en-GB' });
  await configureBilling(app, admin.id, { vat_accounting_currency: 'SEK' });
  await createSeries(app, admin.id);
  const badRate = await app.request('POST', `/main/v1/administration/${admin.id}/billing-exchange-rate`, { body: { currency: 'SEK', date: '2026-11-01', rate: '-1' } });
  t.is(badRate.status, 400);
  t.is(badRate.body.param, '$.rate');
  for (const [date, rate] of [['2026-10-01', '11.2'], ['2026-11-01', '11.5']]) {
    t_ok(await app.request('POST', `/main/v1/administration/${admin.id}/billing-exchange-rate`, { body: { currency: 'SEK', date, rate } }));
  }
  const customer = await createCustomer(app, admin.id);
  const item = await customItem(admin.id, customer.id, { quantity: '10' });
  const box = (await app.request('GET', `/main/v1/billing-box/${item.box_id}`)).body;
  t.is(box.total_vat_amount, '21.00');
  t.deepEqual(box.foreign_currency_totals, { currency: 'SEK', rate: '11.50', total_vat_amount: '241.50' });
  await readyBox(item.box_id);
  const final = await app.request('POST', `/main/v1/billing-box/${item.box_id}/finalize`);
  t.is(final.status, 200);
  const xml = (await app.request('GET', `/main/v1/billing-box/${item.box_id}/document`, { headers: { accept: 'application/xml' } })).body;
  t.regex(xml, /<cbc:TaxCurrencyCode>SEK<\/cbc:TaxCurrencyCode>/);
  t.regex(xml, /<cbc:TaxAmount currencyID="SEK">241.50<\/cbc:TaxAmount>/);
  t.deepEqual(await en16931Failures(xml), []);

  // Finalized, the box keeps the rate its documents were issued with: a rate set for its invoice date
  // afterwards, or a corrected earlier one, changes no finalized box; a box not finalized takes it.
  const rate = async (date: string, value: string) => t_ok(await app.request('POST', `/main/v1/administration/${admin.id}/billing-exchange-rate`, { body: { currency: 'SEK', date, rate: value } }));
  await rate(final.body.invoice_date, '12');
  await rate('2026-11-01', '10');
  const kept = (await app.request('GET', `/main/v1/billing-box/${item.box_id}`)).body;
  t.deepEqual(kept.foreign_currency_totals, { currency: 'SEK', rate: '11.50', total_vat_amount: '241.50' });
  const other = await customItem(admin.id, (await createCustomer(app, admin.id)).id, { quantity: '10' });
  t.like((await app.request('GET', `/main/v1/billing-box/${other.box_id}`)).body.foreign_currency_totals, { rate: '12.00', total_vat_amount: '252.00' });

  // A box finalized with an external system's document keeps the rate of the invoice date it was given.
  const externalSeries = await createSeries(app, admin.id, { document_source: 'external' });
  const external = await customItem(admin.id, customer.id, { quantity: '10', series_indicator_code: externalSeries.code });
  t_ok(await app.request('POST', `/main/v1/billing-box/${external.box_id}/close`));
  t_ok(await app.request('POST', `/main/v1/billing-box/${external.box_id}/approve`));
  const uploaded = await app.request('POST', `/main/v1/billing-box/${external.box_id}/finalize?invoice_code=EXT-SEK-1&invoice_date=2026-10-15`, {
    raw: Buffer.from('%PDF-1.4 external invoice'), headers: { 'content-type': 'application/pdf' },
  });
  t.like(uploaded.body.foreign_currency_totals, { rate: '11.20', total_vat_amount: '235.20' });
  await rate('2026-10-15', '13');
  t.deepEqual((await app.request('GET', `/main/v1/billing-box/${external.box_id}`)).body.foreign_currency_totals, uploaded.body.foreign_currency_totals);
});

test('a self-billing series: expenses stay negative in the API, the document shows them positive as an EN 16931 invoice of type 389', async (t) => {
  const admin = await createAdministration(app, { localeId: 'en-GB' });
  await configureBilling(app, admin.id);
  await createSeries(app, admin.id, { primary_document_type: 'self_billing_invoice', item_sources: ['custom'] });
  // The owner is the seller of a self-billing invoice: it needs a VAT number (EN 16931 BR-S-02).
  const owner = await createCustomer(app, admin.id, { company_reg_num: '777', custom_fields: { vat_number: 'NL000099998B57' } });
  const item = await customItem(admin.id, owner.id, { quantity: '-3', unit_price_excl_vat: '4.00', description: 'Charger reimbursement' });
  const box = (await app.request('GET', `/main/v1/billing-box/${item.box_id}`)).body;
  t.true(box.negate_document_amounts);
  t.is(box.total_amount_excl_vat, '-12.00');
  t.is(box.total_amount_incl_vat, '-14.52');
  await readyBox(item.box_id);
  const final = await app.request('POST', `/main/v1/billing-box/${item.box_id}/finalize`);
  t.is(final.body.document_kind, 'self_billing_invoice');
  t.is(final.body.total_amount_incl_vat, '-14.52');
  const xml = (await app.request('GET', `/main/v1/billing-box/${item.box_id}/document`, { headers: { accept: 'application/xml' } })).body;
  t.regex(xml, /<cbc:InvoiceTypeCode>389<\/cbc:InvoiceTypeCode>/);
  t.regex(xml, /<cbc:PayableAmount currencyID="EUR">14.52<\/cbc:PayableAmount>/);
  t.deepEqual(await en16931Failures(xml), []);
});

test('a self-billing invoice with a 21 % and an exempt expense: the owner (with its billing address) sells, the administration buys; PDF and UBL agree, EN 16931 valid', async (t) => {
  const admin = await createAdministration(app, { localeId: 'en-GB' });
  await configureBilling(app, admin.id);
  await createSeries(app, admin.id, { primary_document_type: 'self_billing_invoice', item_sources: ['custom'] });
  const owner = await createCustomer(app, admin.id, { name: 'Owner Account', custom_fields: { vat_number: 'NL000099998B57' } });
  const address = await app.request('POST', `/main/v1/billing-address/ext_ref.addr-${owner.id}`, {
    body: { party_id: owner.id, addressee: 'Laadpaal Eigenaar B.V.', address_line1: 'Dorpsstraat 7', postal_code: '1234 AB', city: 'Zwolle', country: 'BE' },
  });
  t.is(address.status, 200, JSON.stringify(address.body));
  const a = await customItem(admin.id, owner.id, { quantity: '-3', unit_price_excl_vat: '4.00', description: 'Charger reimbursement' });
  const b = await customItem(admin.id, owner.id, { quantity: '-1', unit_price_excl_vat: '5.00', vat_kind: 'exempt', description: 'Exempt fee' });
  t.is(a.box_id, b.box_id);
  const box = (await app.request('GET', `/main/v1/billing-box/${a.box_id}`)).body;
  t.deepEqual([box.total_amount_excl_vat, box.total_vat_amount, box.total_amount_incl_vat], ['-17.00', '-2.52', '-19.52']);
  await readyBox(a.box_id);
  const final = await app.request('POST', `/main/v1/billing-box/${a.box_id}/finalize`);
  t.is(final.status, 200, JSON.stringify(final.body));
  const xml = (await app.request('GET', `/main/v1/billing-box/${a.box_id}/document`, { headers: { accept: 'application/xml' } })).body as string;
  t.regex(xml, /<cbc:InvoiceTypeCode>389<\/cbc:InvoiceTypeCode>/);
  const supplier = /<cac:AccountingSupplierParty>([\s\S]*)<\/cac:AccountingSupplierParty>/.exec(xml)![1];
  const customer = /<cac:AccountingCustomerParty>([\s\S]*)<\/cac:AccountingCustomerParty>/.exec(xml)![1];
  for (const s of ['Laadpaal Eigenaar B.V.', 'Dorpsstraat 7', 'Zwolle', '<cbc:IdentificationCode>BE<', 'NL000099998B57']) t.true(supplier.includes(s), `${s} in ${supplier}`);
  for (const s of [SELLER.name, SELLER.street, SELLER.vat_number]) t.true(customer.includes(s), `${s} in ${customer}`);
  t.regex(xml, /<cbc:TaxAmount currencyID="EUR">2.52<\/cbc:TaxAmount>/);
  t.regex(xml, /<cbc:PayableAmount currencyID="EUR">19.52<\/cbc:PayableAmount>/);
  t.regex(xml, /<cbc:ID>E<\/cbc:ID>/);
  t.notRegex(xml, /currencyID="EUR">-/);
  t.deepEqual(await en16931Failures(xml), [], xml);

  const pdf = await app.request('GET', `/main/v1/billing-box/${a.box_id}/document`);
  const text = (await pdfPages(pdf.body)).join('\n');
  const at = (s: string) => text.indexOf(s);
  const order = ['Self-billing invoice', 'Self-billing: issued by the buyer', 'Seller (supplier)', 'Laadpaal Eigenaar B.V.', 'Buyer (issuer of this invoice)', SELLER.name];
  t.true(order.every((s, i) => at(s) >= 0 && (i === 0 || at(order[i - 1]) < at(s))), text);
  for (const s of ['17.00 EUR', '2.52 EUR', '19.52 EUR']) t.true(text.includes(s), `${s} in\n${text}`);
  t.notRegex(text, /(^|\s)-\d/, 'no negative amount');
});

test('a self-billing box whose customer has no VAT number is not finalized (no number taken)', async (t) => {
  const admin = await createAdministration(app, { localeId: 'en-GB' });
  await configureBilling(app, admin.id);
  const series = await createSeries(app, admin.id, { primary_document_type: 'self_billing_invoice', item_sources: ['custom'] });
  const owner = await createCustomer(app, admin.id);
  const item = await customItem(admin.id, owner.id, { quantity: '-1', unit_price_excl_vat: '4.00' });
  await readyBox(item.box_id);
  const refused = await app.request('POST', `/main/v1/billing-box/${item.box_id}/finalize`);
  t.is(refused.status, 400);
  t.is(refused.body.code, 'invalid_input');
  t.regex(refused.body.message, /VAT number/);
  t.is((await app.request('GET', `/main/v1/billing-box/${item.box_id}`)).body.state, 'ready');
  t_ok(await app.request('POST', `/main/v1/customer/${owner.id}`, { body: { custom_fields: { vat_number: 'NL000099998B57' } } }));
  const final = await app.request('POST', `/main/v1/billing-box/${item.box_id}/finalize`);
  t.is(final.status, 200, JSON.stringify(final.body));
  t.is(final.body.invoice_code, `${series.code}-2026-000001`);
});

test('a private owner without VAT number paid exempt amounts only: not subject to VAT (O), no VAT identifiers, EN 16931 valid', async (t) => {
  const admin = await createAdministration(app, { localeId: 'en-GB' });
  await configureBilling(app, admin.id);
  await createSeries(app, admin.id, { primary_document_type: 'self_billing_invoice', item_sources: ['custom'] });
  const owner = await createCustomer(app, admin.id, { name: 'Jan Private', entity_type: 'person' });
  const item = await customItem(admin.id, owner.id, { quantity: '-2', unit_price_excl_vat: '3.10', vat_kind: 'exempt', description: 'Home charger reimbursement' });
  await readyBox(item.box_id);
  const final = await app.request('POST', `/main/v1/billing-box/${item.box_id}/finalize`);
  t.is(final.status, 200, JSON.stringify(final.body));
  const xml = (await app.request('GET', `/main/v1/billing-box/${item.box_id}/document`, { headers: { accept: 'application/xml' } })).body as string;
  t.regex(xml, /<cbc:InvoiceTypeCode>389<\/cbc:InvoiceTypeCode>/);
  t.regex(xml, /<cbc:ID>O<\/cbc:ID>/);
  t.notRegex(xml, /<cac:PartyTaxScheme>/, 'no party carries a VAT identifier');
  t.regex(xml, /<cbc:PayableAmount currencyID="EUR">6.20<\/cbc:PayableAmount>/);
  t.deepEqual(await en16931Failures(xml), [], xml);
});

test('an invoice needs the seller\'s VAT number: without it (a company registration does not stand in), finalize is refused and takes no number', async (t) => {
  // Found by probing (2026-11-29): billing settings without seller.vat_number issued and numbered UBLs
  // that failed EN 16931 BR-S-02 and BR-CO-26 (a standard line), BR-E-02 and BR-AE-02 (exempt and
  // reverse-charge lines of a seller with a company registration only).
  await ensureVatRate(app, 'NL', '0', 'exempt');
  await ensureVatRate(app, 'NL', '0', 'reverse_charge');
  for (const { seller, kinds } of [
    { seller: { vat_number: null, company_reg_num: null }, kinds: ['standard'] },
    { seller: { vat_number: null }, kinds: ['exempt', 'reverse_charge'] },
  ]) {
    const admin = await createAdministration(app, { localeId: 'en-GB' });
    await configureBilling(app, admin.id, { seller: { ...SELLER, ...seller } });
    const series = await createSeries(app, admin.id);
    const customer = await createCustomer(app, admin.id, { custom_fields: { vat_number: 'NL000099998B57' } });
    let boxId = '';
    for (const vat_kind of kinds) boxId = (await customItem(admin.id, customer.id, { vat_kind })).box_id;
    await readyBox(boxId);
    const refused = await app.request('POST', `/main/v1/billing-box/${boxId}/finalize`);
    t.like(refused, { status: 400, body: { code: 'invalid_input', param: '$' } }, kinds.join());
    t.regex(refused.body.message, /seller\.vat_number/);
    t.like((await app.request('GET', `/main/v1/billing-box/${boxId}`)).body, { state: 'ready', invoice_code: null });
    if (kinds[0] !== 'standard') continue;
    // Once: with the VAT number set the box takes the series' first number: the refusal took none (valid
    // EN 16931 documents of such boxes, and previews, are the other tests' matter).
    await configureBilling(app, admin.id, { seller: { ...SELLER, ...seller, vat_number: SELLER.vat_number } });
    const final = await app.request('POST', `/main/v1/billing-box/${boxId}/finalize`);
    t.is(final.status, 200, JSON.stringify(final.body));
    t.is(final.body.invoice_code, `${series.code}-2026-000001`);
  }
});

/** A series `code` of a new administration and a ready box of it. */
async function seriesWithReadyBox(code: string) {
  const admin = await createAdministration(app);
  await configureBilling(app, admin.id);
  const series = await createSeries(app, admin.id, { code });
  const item = await customItem(admin.id, (await createCustomer(app, admin.id)).id, { series_indicator_code: code });
  await readyBox(item.box_id);
  return { admin, series, boxId: item.box_id as string };
}

/** Resolves once `hook` is reached; `release` lets the waiting finalize go on. */
function pause() {
  let reached!: () => void;
  let release!: () => void;
  const at = new Promise<void>((resolve) => { reached = resolve; });
  const held = new Promise<void>((resolve) => { release = resolve; });
  return { at, release, hook: async () => { reached(); await held; } };
}

test('a series renamed while its box finalizes: renamed before the number, the number carries the new code', async (t) => {
  // Found by probing (2026-11-29): a rename committed while the finalize laid out its documents, and
  // the box was numbered under the old code, which another series could then take and number again.
  const { series, boxId } = await seriesWithReadyBox('RENA');
  const paused = pause();
  const finalizing = finalizeBox(scopedEm(app.orm), boxId, { beforeNumber: paused.hook });
  await Promise.race([paused.at, finalizing]);
  const renamed = await app.request('POST', `/main/v1/billing-series/${series.id}`, { body: { code: 'RENB' } });
  t.is(renamed.status, 200, JSON.stringify(renamed.body));
  paused.release();
  t.is((await finalizing).invoiceCode, 'RENB-2026-000001');
  const xml = (await app.request('GET', `/main/v1/billing-box/${boxId}/document`, { headers: { accept: 'application/xml' } })).body as string;
  t.regex(xml, /<cbc:PaymentID>RF\d\dRENB2026000001<\/cbc:PaymentID>/);
});

test('a series renamed while its box holds its first number: the rename waits and is refused, the code stays; a new series cannot take it', async (t) => {
  const { admin, series, boxId } = await seriesWithReadyBox('HELDA');
  const paused = pause();
  const finalizing = finalizeBox(scopedEm(app.orm), boxId, { numbered: paused.hook });
  await Promise.race([paused.at, finalizing]);
  const rename = app.request('POST', `/main/v1/billing-series/${series.id}`, { body: { code: 'HELDB' } });
  const db = new pg.Client({ connectionString: app.databaseUrl });
  await db.connect();
  t.teardown(() => db.end());
  let waiting = 0;
  for (const until = Date.now() + 10_000; waiting === 0 && Date.now() < until; await new Promise((resolve) => setTimeout(resolve, 20))) {
    waiting = await lockWaits(db);
  }
  t.true(waiting > 0, 'the rename waits for the number');
  paused.release();
  t.is((await finalizing).invoiceCode, 'HELDA-2026-000001');
  t.like((await rename).body, { code: 'invalid_state', param: '$.code' });
  t.is((await app.request('GET', `/main/v1/billing-series/${series.id}`)).body.code, 'HELDA');
  t.like((await app.request('POST', '/main/v1/billing-series', { body: { admin_id: admin.id, code: 'HELDA' } })).body, { code: 'duplicate', param: '$.code' });
});
