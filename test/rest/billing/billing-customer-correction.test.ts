// A customer correction of a billed session (issue 22, item 1): the earlier line is reversed in the
// next open box of the party it was billed to, the new line goes to the party now responsible, and
// no finalized box or document changes (shared decisions, "Billing boxes and documents").
import test from 'ava';
import { startTestApp, type TestApp } from '../../helpers/app.ts';
import { boxesOf, boxInState, configureBilling, createSeries, reviewSetOperation } from '../../helpers/billing-factories.ts';
import { createAdministration, createCustomer, createSubscriptionPlan } from '../../helpers/factories.ts';
import { createRatePlan, ensureVatRate, pricedSubscription, pricingResults, processed, sessionBody, submitSession } from '../../helpers/session-factories.ts';

let app: TestApp;
test.before(async () => { app = await startTestApp(); });
test.after.always(async () => { await app?.close(); });

const api = (path: string) => `/main/v1${path}`;
const OCTOBER = '2026-09-30T22:00:00.000Z';
const NOVEMBER = '2026-10-31T23:00:00.000Z';

async function ok(method: string, path: string, body?: unknown) {
  const r = await app.request(method, api(path), body === undefined ? {} : { body });
  if (r.status !== 200) throw new Error(`${method} ${path}: ${r.status} ${JSON.stringify(r.body)}`);
  return r.body;
}

async function sessionLines(boxId: string) {
  const items = (await ok('GET', `/billing-box/${boxId}/msp-charge-session?limit=100`)).items as any[];
  return items.map((i) => [i.msp_charge_session_id, i.entry, i.amount_excl_vat]).sort();
}

/** An administration billing monthly, customer A with a 10.00 session on 10 October, customer B. */
async function billedToA() {
  const admin = await createAdministration(app);
  await configureBilling(app, admin.id);
  const series = await createSeries(app, admin.id);
  const a = await pricedSubscription(app, admin.id);
  // B reads its documents in German: a box of B's has B's locale, a box of A's A's (the administration's, nl-NL).
  const b = await createCustomer(app, admin.id, { locale_id: 'de-DE' });
  const session = await submitSession(app, sessionBody(a.evcoId, {
    start_date_time: '2026-10-10T10:00:00+02:00', end_date_time: '2026-10-10T11:00:00+02:00', total_energy_kwh: '20',
  }));
  if ((await processed(app, session.id)).status !== 'priced') throw new Error('not priced');
  const aRef = (await ok('GET', `/customer/${a.customerId}`)).external_reference as string;
  return { adminId: admin.id, series, a, aRef, b, sessionId: session.id };
}

/** Moves the subscription to B from 1 October and waits until the session is priced for B. */
async function correctToB(subscriptionId: string, customerId: string, sessionId: string) {
  await ok('POST', `/msp-token-subscription/${subscriptionId}/plan-or-customer-correction`, {
    valid_from: '2026-10-01T00:00:00+02:00', new_customer_id: customerId,
  });
  for (let i = 0; i < 400; i++) {
    const results = await pricingResults(app, sessionId);
    const session = await ok('GET', `/msp-charge-session/${sessionId}`);
    if (results.length >= 2 && session.status === 'priced') return results.at(-1);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error('the correction did not reprice the session');
}

test('a customer correction after finalize credits the old customer in its next box and bills the new one; the finalized box stays as it was', async (t) => {
  const { series, a, aRef, b, sessionId } = await billedToA();
  const [october] = await boxesOf(app, `?party_external_reference=${aRef}`);
  t.is(october.period_from, OCTOBER);
  t.is(october.total_amount_excl_vat, '10.00');

  // Month end: the October review-set closes; A's box is approved and finalized.
  t.is((await reviewSetOperation(app, october.billing_reviewset_id, 'close')).state, 'done');
  await ok('POST', `/billing-box/${october.id}/approve`);
  await boxInState(app, october.id, 'ready');
  const finalized = await ok('POST', `/billing-box/${october.id}/finalize`);
  t.is(finalized.invoice_code, `${series.code}-2026-000001`);
  const pdf = (await app.request('GET', api(`/billing-box/${october.id}/document`))).body;
  const xml = (await app.request('GET', api(`/billing-box/${october.id}/document`), { headers: { accept: 'application/xml' } })).body;

  const result = await correctToB(a.subscriptionId, b.id, sessionId);
  t.is(result.customer_id, b.id);
  t.is(result.total_excl_vat, '10.00');

  // A: the finalized October box unchanged, the reversal in A's next box (November).
  const aBoxes = await boxesOf(app, `?party_external_reference=${aRef}`);
  t.deepEqual(aBoxes.map((box) => box.period_from).sort(), [OCTOBER, NOVEMBER]);
  const aOctober = aBoxes.find((box) => box.period_from === OCTOBER);
  const aNovember = aBoxes.find((box) => box.period_from === NOVEMBER);
  t.is(aOctober.state, 'finalized');
  t.is(aOctober.total_amount_excl_vat, '10.00');
  t.is(aOctober.invoice_code, finalized.invoice_code);
  t.deepEqual(aOctober.rollups, finalized.rollups);
  t.deepEqual(await sessionLines(october.id), [[sessionId, 'original', '10.00']]);
  t.deepEqual((await app.request('GET', api(`/billing-box/${october.id}/document`))).body, pdf);
  t.is((await app.request('GET', api(`/billing-box/${october.id}/document`), { headers: { accept: 'application/xml' } })).body, xml);
  t.deepEqual(await sessionLines(aNovember.id), [[sessionId, 'reversal', '-10.00']]);
  t.is(aNovember.total_amount_excl_vat, '-10.00');
  t.is(aNovember.billing_series_id, october.billing_series_id);
  t.is(aNovember.currency_code, october.currency_code);
  t.is(aNovember.vat_country, october.vat_country);
  t.is(aNovember.locale_id, october.locale_id);
  t.not(aNovember.locale_id, 'de-DE');

  // B: the new line, no reversal (the October review-set is closed: B's next open box is November's).
  const bBoxes = await boxesOf(app, `?party_external_reference=${b.external_reference}`);
  t.is(bBoxes.length, 1);
  t.is(bBoxes[0].period_from, NOVEMBER);
  t.is(bBoxes[0].locale_id, 'de-DE');
  t.deepEqual(await sessionLines(bBoxes[0].id), [[sessionId, 'original', '10.00']]);
  t.is(bBoxes[0].total_amount_excl_vat, '10.00');
});

test('a customer correction while the box is still open moves the line: the old customer is no longer billed, the new one is, no reversal', async (t) => {
  const { a, aRef, b, sessionId } = await billedToA();
  const [october] = await boxesOf(app, `?party_external_reference=${aRef}`);
  t.is(october.state, 'open');

  await correctToB(a.subscriptionId, b.id, sessionId);

  const aBoxes = await boxesOf(app, `?party_external_reference=${aRef}`);
  t.deepEqual(aBoxes.map((box) => [box.period_from, box.total_amount_excl_vat]), [[OCTOBER, '0.00']]);
  t.deepEqual(await sessionLines(october.id), []);
  // A's box, left without lines, is not issued: no document, no number taken.
  await ok('POST', `/billing-box/${october.id}/close`);
  await ok('POST', `/billing-box/${october.id}/approve`);
  await boxInState(app, october.id, 'ready');
  const finalized = await app.request('POST', api(`/billing-box/${october.id}/finalize`));
  t.like(finalized.body, { code: 'invalid_state' });
  t.like(await ok('GET', `/billing-box/${october.id}`), { state: 'ready', invoice_code: null });
  const bBoxes = await boxesOf(app, `?party_external_reference=${b.external_reference}`);
  t.deepEqual(bBoxes.map((box) => [box.period_from, box.state, box.total_amount_excl_vat]), [[OCTOBER, 'open', '10.00']]);
  t.deepEqual(await sessionLines(bBoxes[0].id), [[sessionId, 'original', '10.00']]);
});

test('a customer correction after a box close (its review-set still open) reverses in the old customer\'s next box and bills the new one in its own period', async (t) => {
  const { a, aRef, b, sessionId } = await billedToA();
  const [october] = await boxesOf(app, `?party_external_reference=${aRef}`);
  await ok('POST', `/billing-box/${october.id}/close`);

  await correctToB(a.subscriptionId, b.id, sessionId);

  const aBoxes = await boxesOf(app, `?party_external_reference=${aRef}`);
  t.deepEqual(aBoxes.map((box) => [box.period_from, box.state, box.total_amount_excl_vat]).sort((x, y) => x[0].localeCompare(y[0])),
    [[OCTOBER, 'closed', '10.00'], [NOVEMBER, 'open', '-10.00']]);
  const bBoxes = await boxesOf(app, `?party_external_reference=${b.external_reference}`);
  t.deepEqual(bBoxes.map((box) => [box.period_from, box.state, box.total_amount_excl_vat]), [[OCTOBER, 'open', '10.00']]);
  t.deepEqual(await sessionLines(bBoxes[0].id), [[sessionId, 'original', '10.00']]);
});

test('a repricing after close billed by another series now: the reversal stays in the series the line was billed in, the new line goes to the new series', async (t) => {
  const { adminId, series, a, aRef, sessionId } = await billedToA();
  const [october] = await boxesOf(app, `?party_external_reference=${aRef}`);
  t.is((await reviewSetOperation(app, october.billing_reviewset_id, 'close')).state, 'done');
  // A series naming msp_session takes sessions over from the default series (which names no source).
  const sessions = await createSeries(app, adminId, { item_sources: ['msp_session'] });
  await ok('POST', `/rate-plan/${a.ratePlanId}/version`, {
    valid_from: '2026-10-01T00:00:00Z', definition: { rates: { energy: { price: '0.60' } }, rules: [] },
  });
  await ok('POST', `/msp-charge-session/${sessionId}/reprice`);
  for (let i = 0; i < 400 && (await pricingResults(app, sessionId)).length < 2; i++) await new Promise((resolve) => setTimeout(resolve, 25));
  await processed(app, sessionId);

  const boxes = await boxesOf(app, `?party_external_reference=${aRef}`);
  const view = boxes.map((box) => [box.billing_series_id, box.period_from, box.state, box.total_amount_excl_vat])
    .sort((x, y) => `${x[0]}${x[1]}`.localeCompare(`${y[0]}${y[1]}`));
  t.deepEqual(view, [
    [series.id, OCTOBER, 'closed', '10.00'],
    [series.id, NOVEMBER, 'open', '-10.00'],
    [sessions.id, OCTOBER, 'open', '12.00'],
  ].sort((x, y) => `${x[0]}${x[1]}`.localeCompare(`${y[0]}${y[1]}`)));
  const reversalBox = boxes.find((box) => box.billing_series_id === series.id && box.period_from === NOVEMBER);
  t.deepEqual(await sessionLines(reversalBox.id), [[sessionId, 'reversal', '-10.00']]);
});

test('a line the new pricing no longer has (another VAT rate) is reversed in the old customer\'s next box after close; the new customer gets the new line', async (t) => {
  const { adminId, a, aRef, b, sessionId } = await billedToA();
  // A plan whose energy is billed at the reduced rate: the session's line standard:21 is withdrawn, reduced:9 is new.
  await ensureVatRate(app, 'NL', '9', 'reduced');
  const reduced = await createRatePlan(app, [{ valid_from: '2025-01-01T00:00:00Z', definition: { rates: { energy: { price: '0.40', vat_kind: 'reduced' } }, rules: [] } }]);
  const plan = await createSubscriptionPlan(app, adminId, { rate_plan_id: reduced });
  const [october] = await boxesOf(app, `?party_external_reference=${aRef}`);
  t.is((await reviewSetOperation(app, october.billing_reviewset_id, 'close')).state, 'done');

  await ok('POST', `/msp-token-subscription/${a.subscriptionId}/plan-or-customer-correction`, {
    valid_from: '2026-10-01T00:00:00+02:00', new_customer_id: b.id, new_plan_id: plan.id,
  });
  for (let i = 0; i < 400 && (await pricingResults(app, sessionId)).length < 2; i++) await new Promise((resolve) => setTimeout(resolve, 25));
  t.is((await processed(app, sessionId)).status, 'priced');

  const aBoxes = await boxesOf(app, `?party_external_reference=${aRef}`);
  t.deepEqual(aBoxes.map((box) => [box.period_from, box.state, box.total_amount_excl_vat]).sort((x, y) => x[0].localeCompare(y[0])),
    [[OCTOBER, 'closed', '10.00'], [NOVEMBER, 'open', '-10.00']]);
  const aNovember = aBoxes.find((box) => box.period_from === NOVEMBER);
  t.deepEqual(aNovember.rollups.map((r: any) => [r.vat_kind, r.vat_percentage, r.subtotal_excl_vat]), [['standard', '21.00', '-10.00']]);
  const bBoxes = await boxesOf(app, `?party_external_reference=${b.external_reference}`);
  t.deepEqual(bBoxes.map((box) => [box.period_from, box.total_amount_excl_vat]), [[NOVEMBER, '8.00']]);
  t.deepEqual(bBoxes[0].rollups.map((r: any) => [r.vat_kind, r.vat_percentage, r.subtotal_excl_vat]), [['reduced', '9.00', '8.00']]);
  t.deepEqual(await sessionLines(bBoxes[0].id), [[sessionId, 'original', '8.00']]);
});

/** A rate plan version from 1 October that prices nothing (free charging): a result without lines. */
const FREE = { valid_from: '2026-10-01T00:00:00Z', definition: { rates: {}, rules: [] } };

test('a session repriced to a result without lines (free charging) while its box is open is billed no more', async (t) => {
  const { a, aRef, sessionId } = await billedToA();
  const [october] = await boxesOf(app, `?party_external_reference=${aRef}`);
  await ok('POST', `/rate-plan/${a.ratePlanId}/version`, FREE);
  await ok('POST', `/msp-charge-session/${sessionId}/reprice`);
  for (let i = 0; i < 400 && (await pricingResults(app, sessionId)).length < 2; i++) await new Promise((resolve) => setTimeout(resolve, 25));
  t.is((await processed(app, sessionId)).status, 'priced');
  t.like((await pricingResults(app, sessionId)).at(-1), { total_excl_vat: '0.00', subtotals: [] });

  t.deepEqual(await sessionLines(october.id), []);
  t.deepEqual((await boxesOf(app, `?party_external_reference=${aRef}`)).map((box) => [box.period_from, box.total_amount_excl_vat]), [[OCTOBER, '0.00']]);
});

test('a correction to a plan that prices nothing, after the box closed, reverses the line in the customer\'s next box', async (t) => {
  const { adminId, a, aRef, sessionId } = await billedToA();
  const [october] = await boxesOf(app, `?party_external_reference=${aRef}`);
  t.is((await reviewSetOperation(app, october.billing_reviewset_id, 'close')).state, 'done');
  const free = await createRatePlan(app, [FREE]);
  const plan = await createSubscriptionPlan(app, adminId, { rate_plan_id: free });

  await ok('POST', `/msp-token-subscription/${a.subscriptionId}/plan-or-customer-correction`, { valid_from: '2026-10-01T00:00:00+02:00', new_plan_id: plan.id });
  for (let i = 0; i < 400 && (await pricingResults(app, sessionId)).length < 2; i++) await new Promise((resolve) => setTimeout(resolve, 25));
  t.is((await processed(app, sessionId)).status, 'priced');

  const boxes = (await boxesOf(app, `?party_external_reference=${aRef}`)).sort((x, y) => x.period_from.localeCompare(y.period_from));
  t.deepEqual(boxes.map((box) => [box.period_from, box.state, box.total_amount_excl_vat]), [[OCTOBER, 'closed', '10.00'], [NOVEMBER, 'open', '-10.00']]);
  t.deepEqual(await sessionLines(boxes[1].id), [[sessionId, 'reversal', '-10.00']]);
});
