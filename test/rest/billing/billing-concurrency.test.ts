// Billing collections side by side: custom items of many customers sent at once, and the backfill
// of sessions priced before the first series (in batches of two here, billed by parallel lanes).
// Both create boxes in one review-set from several transactions at once.
import test from 'ava';
import { startTestApp, type TestApp } from '../../helpers/app.ts';
import { boxesOf, configureBilling, createSeries } from '../../helpers/billing-factories.ts';
import { createAdministration, createCustomer } from '../../helpers/factories.ts';
import { ensureVatRate, pricedSubscription, processed, sessionBody, submitSession } from '../../helpers/session-factories.ts';

process.env.SVC_BILLING_BACKFILL_BATCH = '2';

let app: TestApp;
test.before(async () => { app = await startTestApp(); });
test.after.always(async () => { await app?.close(); });

const DAYS = ['2026-09-03', '2026-09-21', '2026-10-04'];

test('the backfill bills every session priced before the first series once (batches of two, two at a time), into boxes numbered 1 to n per review-set', async (t) => {
  const admin = await createAdministration(app);
  await configureBilling(app, admin.id);
  const customers = [];
  for (let i = 0; i < 6; i++) customers.push(await pricedSubscription(app, admin.id));
  const sessions: string[] = [];
  for (const day of DAYS) {
    for (const customer of customers) {
      const s = await submitSession(app, sessionBody(customer.evcoId, { start_date_time: `${day}T10:00:00+02:00`, end_date_time: `${day}T11:00:00+02:00` }));
      t.is((await processed(app, s.id)).status, 'priced');
      sessions.push(s.id);
    }
  }
  const series = await createSeries(app, admin.id);

  const query = `?series_external_reference=${series.external_reference}&limit=100`;
  const until = Date.now() + 20_000;
  let boxes = await boxesOf(app, query);
  const itemCount = (list: any[]) => list.reduce((n, b) => n + b.rollups.reduce((m: number, r: any) => m + r.item_count, 0), 0);
  while (itemCount(boxes) < sessions.length && Date.now() < until) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    boxes = await boxesOf(app, query);
  }
  // Six customers in two months.
  t.is(boxes.length, 12);
  t.is(itemCount(boxes), sessions.length);

  const billed: string[] = [];
  for (const box of boxes) {
    const r = await app.request('GET', `/main/v1/billing-box/${box.id}/msp-charge-session?limit=100`);
    t.is(r.status, 200);
    billed.push(...r.body.items.map((i: any) => i.msp_charge_session_id));
    t.is(box.total_amount_excl_vat, (5 * r.body.items.length).toFixed(2), 'each session costs 5.00');
  }
  t.deepEqual([...billed].sort(), [...sessions].sort(), 'every session once');

  // Box numbers within each review-set are 1..n, none twice.
  const perSet = new Map<string, number[]>();
  for (const box of boxes) perSet.set(box.billing_reviewset_code, [...(perSet.get(box.billing_reviewset_code) ?? []), box.billing_box_reviewset_sequence]);
  t.is(perSet.size, 2);
  for (const numbers of perSet.values()) t.deepEqual(numbers.sort((a, b) => a - b), [1, 2, 3, 4, 5, 6]);
});

test('custom items of twelve customers sent at once all land, each in its own box, numbered 1 to 12 in the review-set', async (t) => {
  const admin = await createAdministration(app);
  await configureBilling(app, admin.id);
  await ensureVatRate(app);
  const series = await createSeries(app, admin.id);
  const customers = await Promise.all(Array.from({ length: 12 }, () => createCustomer(app, admin.id)));
  const answers = await Promise.all(customers.map((c) => app.request('POST', '/main/v1/billing-custom-item', {
    body: {
      time_zone: 'Europe/Amsterdam', date: '2026-11-02', party_id: c.id, admin_id: admin.id, description: 'Service', quantity: '1',
      unit: 'pcs', unit_price_excl_vat: '10.00', vat_kind: 'standard',
    },
  })));
  t.deepEqual(answers.map((a) => a.status), customers.map(() => 200), JSON.stringify(answers.find((a) => a.status !== 200)?.body));
  const boxes = await boxesOf(app, `?series_external_reference=${series.external_reference}&limit=100`);
  t.is(boxes.length, 12);
  t.deepEqual(boxes.map((b) => b.billing_box_reviewset_sequence).sort((a, b) => a - b), Array.from({ length: 12 }, (_, i) => i + 1));
  t.true(boxes.every((b) => b.total_amount_excl_vat === '10.00'));
});

// Found by probing (2026-11-29): collections that kept opening boxes in the set held its close off for as
// long as they came (row locks let new FOR SHARE holders in ahead of a waiting FOR UPDATE).
test('a review-set close is not held off by collections that keep opening boxes in it', async (t) => {
  const admin = await createAdministration(app);
  await configureBilling(app, admin.id);
  await ensureVatRate(app);
  await createSeries(app, admin.id);
  const customer = await createCustomer(app, admin.id);
  const item = (code: string) => app.request('POST', '/main/v1/billing-custom-item', {
    body: {
      time_zone: 'Europe/Amsterdam', date: '2026-11-02', party_id: customer.id, admin_id: admin.id, description: 'Service', quantity: '1',
      unit: 'pcs', unit_price_excl_vat: '10.00', vat_kind: 'standard', box_distinct_code: code,
    },
  });
  const first = await item('first');
  const setId = (await app.request('GET', `/main/v1/billing-box/${first.body.box_id}`)).body.billing_reviewset_id;
  let closed = false;
  let sent = 0;
  const CAP = 150;
  const lanes = [0, 1, 2, 3].map(async (lane) => {
    for (let i = 0; !closed && i < CAP; i++) {
      await item(`L${lane}-${i}`);
      sent++;
    }
  });
  while (sent < 8) await new Promise((resolve) => setTimeout(resolve, 10));
  const sentBefore = sent;
  const asked = await app.request('POST', `/main/v1/billing-review-set/${setId}/close`);
  t.is(asked.status, 202);
  let state = 'pending';
  while (state === 'pending' && sent < 4 * CAP) {
    await new Promise((resolve) => setTimeout(resolve, 20));
    state = (await app.request('GET', `/main/v1/billing-review-set-operation/${asked.body.id}`)).body.state;
  }
  const waited = sent - sentBefore;
  closed = true;
  await Promise.all(lanes);
  t.is(state, 'done');
  // Its turn comes after the collections under way when it asked (a few items), not after all that keep coming (~600 before).
  t.true(waited < CAP, `${waited} items were sent while the close waited`);
});
