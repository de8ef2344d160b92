// POST /billing-custom-item: what a custom item may name and say. Found by probing (2026-11-29): a
// customer of another administration was billed by the administration named (and its end users then
// saw the box), a blank description or unit made a document line without a name, a date in the last
// period of year 9999 made a box whose period_until was no RFC 3339 timestamp, and a product category
// named like a member of every JavaScript object (constructor) passed as built in.
import test from 'ava';
import { startTestApp, type TestApp } from '../../helpers/app.ts';
import { boxesOf, boxInState, configureBilling, createSeries } from '../../helpers/billing-factories.ts';
import { createAdministration, createCustomer } from '../../helpers/factories.ts';
import { pdfPages } from '../../helpers/pdf-text.ts';
import { ensureVatRate } from '../../helpers/session-factories.ts';

let app: TestApp;
test.before(async () => {
  app = await startTestApp();
  await ensureVatRate(app);
});
test.after.always(async () => { await app?.close(); });

const itemBody = (adminId: string, partyId: string | null, fields: Record<string, unknown> = {}) => ({
  time_zone: 'Europe/Amsterdam', date: '2026-11-02', party_id: partyId, admin_id: adminId, description: 'Service', quantity: '1',
  unit: 'pcs', unit_price_excl_vat: '10.00', vat_kind: 'standard', ...fields,
});

const billItem = (body: Record<string, unknown>) => app.request('POST', '/main/v1/billing-custom-item', { body });

async function billingWorld(settings: Record<string, unknown> = {}) {
  const admin = await createAdministration(app);
  await configureBilling(app, admin.id, settings);
  const series = await createSeries(app, admin.id);
  return { adminId: admin.id, series };
}

test('a customer of another administration is 400 not_found at the party member, for a credential that sees both, and nothing is billed', async (t) => {
  const a = await billingWorld();
  const b = await billingWorld();
  const foreign = await createCustomer(app, b.adminId);
  const byId = await billItem(itemBody(a.adminId, foreign.id));
  t.like(byId.body, { code: 'not_found', param: '$.party_id' }, JSON.stringify(byId.body));
  const byReference = await billItem(itemBody(a.adminId, null, { party_external_reference: foreign.external_reference }));
  t.like(byReference.body, { code: 'not_found', param: '$.party_external_reference' }, JSON.stringify(byReference.body));
  t.deepEqual(await boxesOf(app, `?party_external_reference=${foreign.external_reference}`), [], 'no box for the customer');
  // Its own administration bills it.
  const own = await billItem(itemBody(b.adminId, foreign.id));
  t.is(own.status, 200, JSON.stringify(own.body));
});

test('a blank description or unit is 400 at the member, and nothing is billed', async (t) => {
  const w = await billingWorld();
  const customer = await createCustomer(app, w.adminId);
  const answers = [];
  for (const [fields, member] of [[{ description: '' }, 'description'], [{ description: '   ' }, 'description'], [{ description: '\u00a0\t' }, 'description'],
    [{ unit: '' }, 'unit'], [{ unit: ' ' }, 'unit']] as const) {
    const r = await billItem(itemBody(w.adminId, customer.id, fields));
    answers.push([member, r.status, r.body?.param]);
  }
  t.deepEqual(answers, answers.map(([member]) => [member, 400, `$.${member}`]));
  t.deepEqual(await boxesOf(app, `?series_external_reference=${w.series.external_reference}`), []);
});

test('a date whose billing period would end after 9999-12-31 is 400 at date; the last period that ends within 9999 is billed and reads back', async (t) => {
  const utc = await billingWorld({ time_zone: 'UTC', invoicing_period: 'year' });
  const utcCustomer = await createCustomer(app, utc.adminId);
  for (const [date, zone] of [['9999-12-31', 'UTC'], ['9999-01-01', 'UTC'], ['9999-12-31', 'Etc/GMT+12']]) {
    const r = await billItem(itemBody(utc.adminId, utcCustomer.id, { date, time_zone: zone }));
    t.like(r.body, { code: 'invalid_input', param: '$.date' }, `${date} ${zone}: ${JSON.stringify(r.body)}`);
  }
  const last = await billItem(itemBody(utc.adminId, utcCustomer.id, { date: '9998-12-31', time_zone: 'UTC' }));
  t.is(last.status, 200, JSON.stringify(last.body));
  // The test app checks each answer against the OpenAPI document: period_until is an RFC 3339 timestamp.
  t.like((await app.request('GET', `/main/v1/billing-box/${last.body.box_id}`)).body, { period_until: '9999-01-01T00:00:00.000Z' });

  // A zone ahead of UTC: December 9999 ends on 9999-12-31 at 23:00 UTC.
  const ahead = await billingWorld({ time_zone: 'Europe/Amsterdam' });
  const aheadCustomer = await createCustomer(app, ahead.adminId);
  const december = await billItem(itemBody(ahead.adminId, aheadCustomer.id, { date: '9999-12-31' }));
  t.is(december.status, 200, JSON.stringify(december.body));
  t.like((await app.request('GET', `/main/v1/billing-box/${december.body.box_id}`)).body, { period_until: '9999-12-31T23:00:00.000Z' });
  // ... unless the item's date, in its own zone, is already in 10000 there (the administration's zone is far ahead of the item's).
  const kiribati = await billingWorld({ time_zone: 'Pacific/Kiritimati' });
  const r = await billItem(itemBody(kiribati.adminId, await createCustomer(app, kiribati.adminId).then((c) => c.id), { date: '9999-12-31', time_zone: 'Etc/GMT+12' }));
  t.like(r.body, { code: 'invalid_input', param: '$.date' }, JSON.stringify(r.body));
  t.deepEqual(await boxesOf(app, `?series_external_reference=${kiribati.series.external_reference}`), []);
});

test('product categories named like members of every object (constructor, toString) are no built-in ones: unknown is 400, a created one bills and renders', async (t) => {
  const w = await billingWorld();
  const customer = await createCustomer(app, w.adminId);
  for (const category of ['constructor', 'toString', '__proto__', 'hasOwnProperty']) {
    const r = await billItem(itemBody(w.adminId, customer.id, { product_category: category }));
    t.like(r.body, { code: 'not_found', param: '$.product_category' }, `${category}: ${JSON.stringify(r.body)}`);
  }
  const created = await app.request('POST', '/main/v1/billing-product-category', { body: { admin_id: w.adminId, code: 'constructor', description: 'Parking' } });
  t.like(created.body, { code: 'constructor', built_in: false }, JSON.stringify(created.body));
  const item = await billItem(itemBody(w.adminId, customer.id, { product_category: 'constructor', description: 'Parking place 7' }));
  t.is(item.status, 200, JSON.stringify(item.body));
  t.is((await app.request('POST', `/main/v1/billing-box/${item.body.box_id}/close`)).status, 200);
  t.is((await app.request('POST', `/main/v1/billing-box/${item.body.box_id}/approve`)).status, 200);
  await boxInState(app, item.body.box_id, 'ready');
  const preview = await app.request('GET', `/main/v1/billing-box/${item.body.box_id}/primary-document-preview`);
  t.is(preview.status, 200);
  t.true((await pdfPages(preview.body)).join('\n').includes('Parking: Parking place 7'));
});
