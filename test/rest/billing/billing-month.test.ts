// A whole month over HTTP: sessions (one repriced after close), a subscription fee prorated from
// the 10th, an idempotent custom item sent twice; close the review-set, defer one box, approve the
// rest, finalize. Roll-ups equal the sums of their items; the repricing shows as reversal + new
// line in the next period's box.
import test from 'ava';
import { startTestApp, type TestApp } from '../../helpers/app.ts';
import { en16931Failures } from '../../helpers/en16931.ts';
import { pdfPages } from '../../helpers/pdf-text.ts';
import { boxesOf, boxInState, configureBilling, createSeries, reviewSetOperation } from '../../helpers/billing-factories.ts';
import { createAdministration, createCustomer, createSubscriptionPlan, createTokenSubscription } from '../../helpers/factories.ts';
import { pricedSubscription, processed, sessionBody, submitSession } from '../../helpers/session-factories.ts';

let app: TestApp;
test.before(async () => { app = await startTestApp(); });
test.after.always(async () => { await app?.close(); });

const cents = (amount: string) => BigInt(amount.replace('.', ''));
const sum = (amounts: string[]) => {
  const total = amounts.reduce((acc, a) => acc + cents(a), 0n);
  const sign = total < 0n ? '-' : '';
  const abs = total < 0n ? -total : total;
  return `${sign}${abs / 100n}.${String(abs % 100n).padStart(2, '0')}`;
};

async function items(boxId: string, path: string) {
  const r = await app.request('GET', `/main/v1/billing-box/${boxId}/${path}`);
  if (r.status !== 200) throw new Error(JSON.stringify(r.body));
  return r.body.items as any[];
}

test('a month of billing from sessions to finalized documents', async (t) => {
  const admin = await createAdministration(app);
  await configureBilling(app, admin.id);
  const series = await createSeries(app, admin.id);
  const sub = await pricedSubscription(app, admin.id);
  const october = (day: number) => {
    const d = String(day).padStart(2, '0');
    return { start_date_time: `2026-10-${d}T10:00:00+02:00`, end_date_time: `2026-10-${d}T11:00:00+02:00` };
  };

  // Two sessions of the first customer, one of a second customer.
  const s1 = await submitSession(app, sessionBody(sub.evcoId, october(3)));
  const s2 = await submitSession(app, sessionBody(sub.evcoId, { ...october(12), total_energy_kwh: '20' }));
  const other = await pricedSubscription(app, admin.id, { ratePlanId: sub.ratePlanId });
  const s3 = await submitSession(app, sessionBody(other.evcoId, october(20)));
  for (const s of [s1, s2, s3]) t.is((await processed(app, s.id)).status, 'priced');

  // A monthly fee of 10.00 from 10 October: 22/31 days.
  const feePlan = await createSubscriptionPlan(app, admin.id, { recurring_costs: [{ description: 'Card fee', amount_excl_vat: '10.00', period: 'month' }] });
  await createTokenSubscription(app, admin.id, { plan_id: feePlan.id, customer_id: sub.customerId, valid_from: '2026-10-10T00:00:00+02:00' });

  // A custom item sent twice with the same external reference is billed once.
  const customBody = {
    time_zone: 'Europe/Amsterdam', date: '2026-10-15', party_id: sub.customerId, admin_id: admin.id, description: 'Parking pass',
    quantity: '3', unit: 'pcs', unit_price_excl_vat: '2.50', vat_kind: 'standard',
  };
  const c1 = await app.request('POST', '/main/v1/billing-custom-item/PASS-1', { body: customBody });
  t.is(c1.status, 200, JSON.stringify(c1.body));
  t.is(c1.body.amount_excl_vat, '7.50');
  const c2 = await app.request('POST', '/main/v1/billing-custom-item/PASS-1', { body: { ...customBody, quantity: '3.000' } });
  t.is(c2.status, 200);
  t.true(c2.body.duplicate);
  t.is(c2.body.item_id, c1.body.item_id);
  const conflict = await app.request('POST', '/main/v1/billing-custom-item/PASS-1', { body: { ...customBody, quantity: '4' } });
  t.is(conflict.status, 400);
  t.is(conflict.body.code, 'conflicting_resubmission');
  t.is(conflict.body.param, '$.quantity');

  // The October review-set: close it (the fee is billed), defer the second customer's box, approve the rest.
  const sets = await app.request('GET', '/main/v1/billing-review-set');
  const set = sets.body.items.find((s: any) => s.billing_series_id === series.id && s.period_from === '2026-09-30T22:00:00.000Z');
  t.truthy(set);
  // Close and approve run as jobs (202 and an operation to follow): the expectations are of the finished work.
  const closing = await reviewSetOperation(app, set.id, 'close');
  t.is(closing.state, 'done', JSON.stringify(closing));
  t.is((await app.request('GET', `/main/v1/billing-review-set/${set.id}`)).body.state, 'closed');
  const boxes = await boxesOf(app, `?reviewset_id=${set.id}`);
  t.is(boxes.length, 2);
  t.true(boxes.every((b) => b.state === 'closed'));
  const mine = boxes.find((b) => b.party_id === sub.customerId);
  const theirs = boxes.find((b) => b.party_id === other.customerId);
  t.is((await app.request('POST', `/main/v1/billing-box/${theirs.id}/defer`)).status, 200);
  const approved = await reviewSetOperation(app, set.id, 'approve', { payment_method: 'bank_transfer' });
  t.is(approved.state, 'done', JSON.stringify(approved));
  t.is((await app.request('GET', `/main/v1/billing-box/${theirs.id}`)).body.state, 'closed');

  // My box: 2 sessions (5.00 + 10.00), the fee 7.10, the custom item 7.50.
  const ready = await boxInState(app, mine.id, 'ready');
  const byCategory = Object.fromEntries(ready.rollups.map((r: any) => [r.product_category, r]));
  t.is(byCategory.charging.subtotal_excl_vat, '15.00');
  t.is(byCategory.charging.item_count, 2);
  t.deepEqual(byCategory.charging.volume, { kWh: '30.00' });
  t.is(byCategory.charging.average_amount_per_kwh_excl_tax, '0.50');
  t.is(byCategory.subscription_fee.subtotal_excl_vat, '7.10');
  t.is(byCategory.custom.subtotal_excl_vat, '7.50');
  t.is(ready.total_amount_excl_vat, '29.60');
  t.is(ready.total_vat_amount, '6.22');
  t.is(ready.total_amount_incl_vat, '35.82');
  t.is(ready.payment_method, 'bank_transfer');
  const custom = await items(mine.id, 'custom-billing-input');
  t.is(custom.length, 1);
  t.is(custom[0].rollup_id, byCategory.custom.id);

  // Roll-ups equal the sums of their items, to the cent.
  const sessionItems = await items(mine.id, 'msp-charge-session');
  t.is(sum(sessionItems.map((i) => i.amount_excl_vat)), byCategory.charging.subtotal_excl_vat);

  // A session repriced after the close: reversal + new line in the next open box (November).
  await app.request('POST', `/main/v1/rate-plan/${sub.ratePlanId}/version`, {
    body: { valid_from: '2026-10-01T00:00:00Z', definition: { rates: { energy: { price: '0.60' } }, rules: [] } },
  });
  const repriced = await app.request('POST', `/main/v1/msp-charge-session/${s1.id}/reprice`);
  t.is(repriced.status, 200, JSON.stringify(repriced.body));
  await processed(app, s1.id);
  let next: any;
  for (let i = 0; i < 100 && !next; i++) {
    next = (await boxesOf(app, `?series_external_reference=${series.external_reference}`))
      .find((b) => b.party_id === sub.customerId && b.period_from === '2026-10-31T23:00:00.000Z');
    if (!next) await new Promise((resolve) => setTimeout(resolve, 50));
  }
  t.truthy(next, 'a November box');
  const lines = await items(next.id, 'msp-charge-session');
  t.deepEqual(lines.map((l) => [l.msp_charge_session_id, l.entry, l.amount_excl_vat]).sort(),
    [[s1.id, 'original', '6.00'], [s1.id, 'reversal', '-5.00']].sort());
  t.is(next.rollups.find((r: any) => r.product_category === 'charging').subtotal_excl_vat, '1.00');
  // The October box is untouched by the repricing.
  t.is((await app.request('GET', `/main/v1/billing-box/${mine.id}`)).body.total_amount_excl_vat, '29.60');

  // Finalize: a number of the series, documents stored and fixed.
  const final = await app.request('POST', `/main/v1/billing-box/${mine.id}/finalize?mark_transferred=true`);
  t.is(final.status, 200, JSON.stringify(final.body));
  t.is(final.body.state, 'finalized');
  t.true(final.body.transferred);
  t.is(final.body.invoice_code, `${series.code}-2026-000001`);
  const pdf1 = await app.request('GET', `/main/v1/billing-box/${mine.id}/document`);
  const pdf2 = await app.request('GET', `/main/v1/billing-box/${mine.id}/document`);
  t.is(pdf1.status, 200);
  t.deepEqual(pdf1.body, pdf2.body);
  const xml = await app.request('GET', `/main/v1/billing-box/${mine.id}/document`, { headers: { accept: 'application/xml' } });
  t.is(xml.status, 200);
  t.is(xml.headers.get('content-type'), 'application/xml');

  // The PDF and the UBL show the same lines and totals as the API, and the UBL is EN 16931 valid.
  const text = (await pdfPages(pdf1.body)).join('\n');
  // The administration's locale is nl-NL: a Dutch document.
  for (const expected of [final.body.invoice_code, 'Factuur', '15,00', '7,10', '7,50', '29,60 EUR', '6,22 EUR', '35,82 EUR', 'Charge Co B.V.', 'Betaling binnen 14 dagen']) {
    t.true(text.includes(expected), `${expected} in the PDF:\n${text}`);
  }
  t.deepEqual(await en16931Failures(xml.body), []);
  t.regex(xml.body, new RegExp(`<cbc:ID>${final.body.invoice_code}</cbc:ID>`));
  t.regex(xml.body, /<cbc:PayableAmount currencyID="EUR">35.82<\/cbc:PayableAmount>/);
  for (const rollup of final.body.rollups) t.true(xml.body.includes(`<cbc:LineExtensionAmount currencyID="EUR">${rollup.subtotal_excl_vat}</cbc:LineExtensionAmount>`));

  // The deferred box is approved on its own later; nothing leaves finalized.
  t.is((await app.request('POST', `/main/v1/billing-box/${theirs.id}/undefer`)).status, 200);
  t.is((await app.request('POST', `/main/v1/billing-box/${theirs.id}/approve`)).status, 200);
  const reopen = await app.request('POST', `/main/v1/billing-box/${mine.id}/reopen`);
  t.is(reopen.status, 400);
  t.is(reopen.body.code, 'invalid_state');
  t.regex(reopen.body.message, /finalized/);
});

test('bad input changes nothing: wrong states, foreign boxes, foreign parties, malformed amounts', async (t) => {
  const a = await createAdministration(app);
  const b = await createAdministration(app);
  await createSeries(app, a.id);
  await createSeries(app, b.id);
  const foreignCustomer = await createCustomer(app, b.id);
  const limited = await app.credential({ role: 'admin', adminIds: [a.id] });
  const mineCustomer = await createCustomer(app, a.id);
  const body = {
    time_zone: 'Europe/Amsterdam', date: '2026-11-02', party_id: foreignCustomer.id, admin_id: a.id, description: 'x',
    quantity: '1', unit: 'pcs', unit_price_excl_vat: '1.00', vat_kind: 'standard',
  };
  const foreign = await app.request('POST', '/main/v1/billing-custom-item', { body, auth: limited });
  t.is(foreign.status, 400);
  t.is(foreign.body.code, 'not_found');
  t.is(foreign.body.param, '$.party_id');
  const malformed = await app.request('POST', '/main/v1/billing-custom-item', { body: { ...body, party_id: mineCustomer.id, unit_price_excl_vat: '1,00' }, auth: limited });
  t.is(malformed.status, 400);
  t.is(malformed.body.param, '$.unit_price_excl_vat');
  const badDate = await app.request('POST', '/main/v1/billing-custom-item', { body: { ...body, party_id: mineCustomer.id, date: '2026-02-30' }, auth: limited });
  t.is(badDate.status, 400);
  t.is(badDate.body.param, '$.date');
  t.deepEqual(await boxesOf(app, `?party_external_reference=${mineCustomer.external_reference}`), []);

  const item = await app.request('POST', '/main/v1/billing-custom-item', { body: { ...body, party_id: foreignCustomer.id, admin_id: b.id } });
  t.is(item.status, 200, JSON.stringify(item.body));
  const boxId = item.body.box_id;
  const seen = await app.request('GET', `/main/v1/billing-box/${boxId}`, { auth: limited });
  t.is(seen.status, 400);
  t.is(seen.body.code, 'not_found');
  const close = await app.request('POST', `/main/v1/billing-box/${boxId}/close`, { auth: limited });
  t.is(close.status, 400);
  t.is(close.body.code, 'not_found');
  t.is((await app.request('GET', `/main/v1/billing-box/${boxId}`)).body.state, 'open');
  const approveOpen = await app.request('POST', `/main/v1/billing-box/${boxId}/approve`);
  t.is(approveOpen.status, 400);
  t.is(approveOpen.body.code, 'invalid_state');
  const finalizeOpen = await app.request('POST', `/main/v1/billing-box/${boxId}/finalize`);
  t.is(finalizeOpen.body.code, 'invalid_state');
  const doc = await app.request('GET', `/main/v1/billing-box/${boxId}/document`);
  t.is(doc.status, 400);
  t.is(doc.body.code, 'document_missing');
  const preview = await app.request('GET', `/main/v1/billing-box/${boxId}/primary-document-preview`);
  t.is(preview.status, 200);
  t.is(preview.headers.get('content-type'), 'application/pdf');
  const badSize = await app.request('POST', `/main/v1/billing-box/${boxId}/close`, { body: { payment_period: 'soon' } });
  t.is(badSize.status, 400);
  t.is(badSize.body.param, '$.payment_period');
  t.is((await app.request('GET', `/main/v1/billing-box/${boxId}`)).body.state, 'open');
});

test('two clients closing the same box at once: one wins, the other gets 400', async (t) => {
  const admin = await createAdministration(app);
  await createSeries(app, admin.id);
  const customer = await createCustomer(app, admin.id);
  const item = await app.request('POST', '/main/v1/billing-custom-item', {
    body: {
      time_zone: 'UTC', date: '2026-11-03', party_id: customer.id, admin_id: admin.id, description: 'x', quantity: '1', unit: 'pcs',
      unit_price_excl_vat: '1.00', vat_kind: 'exempt',
    },
  });
  t.is(item.status, 200, JSON.stringify(item.body));
  const answers = await Promise.all([1, 2, 3].map(() => app.request('POST', `/main/v1/billing-box/${item.body.box_id}/close`)));
  t.deepEqual(answers.map((a) => a.status).sort(), [200, 400, 400]);
  t.true(answers.filter((a) => a.status === 400).every((a) => a.body.code === 'invalid_state'));
});
