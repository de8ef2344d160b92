// The recurring cost correction of MSP subscriptions (decisions "Subscriptions"): with
// `recurring_cost_correction: true`, an update of valid_from/valid_until or a plan-or-customer
// correction bills the periods already billed again, in its transaction. Found by probing: after the
// period's review-set closed, the closed box kept the whole month and nothing followed; a corrected
// customer kept the month and the new one was never billed. Serial: a period start bills every
// administration of this file's database.
import test from 'ava';
import { startTestApp, type TestApp } from '../../helpers/app.ts';
import { boxesOf, configureBilling, createSeries, reviewSetOperation } from '../../helpers/billing-factories.ts';
import { createAdministration, createCustomer, createSubscriptionPlan, createTokenSubscription, okCall } from '../../helpers/factories.ts';
import { ensureVatRate } from '../../helpers/session-factories.ts';
import { scopedEm } from '../../../src/access/admin-scope.ts';
import { startCurrentPeriods } from '../../../src/billing/period-start.service.ts';

let app: TestApp;
test.before(async () => { app = await startTestApp(); await ensureVatRate(app); });
test.after.always(async () => { await app?.close(); });
const ok = (method: string, path: string, body?: unknown) => okCall(app, method, path, body);
const start = (at: string) => startCurrentPeriods(scopedEm(app.orm), new Date(at));

async function world(settings: Record<string, unknown> = {}, costs = [{ description: 'Card fee', amount_excl_vat: '10.00', period: 'month' }]) {
  const admin = await createAdministration(app);
  await configureBilling(app, admin.id, settings);
  const series = await createSeries(app, admin.id);
  const plan = await createSubscriptionPlan(app, admin.id, { recurring_costs: costs });
  const customer = await createCustomer(app, admin.id);
  return { admin, series, plan, customer };
}

async function fees(ref: string) {
  return (await boxesOf(app, `?party_external_reference=${ref}`)).map((b) => ({
    period_from: b.period_from, state: b.state,
    fee: b.rollups.filter((r: any) => r.product_category === 'subscription_fee').map((r: any) => r.subtotal_excl_vat).join(','),
  })).sort((a, b) => a.period_from.localeCompare(b.period_from));
}

async function closeSet(seriesId: string, periodFrom: string) {
  const set = ((await ok('GET', '/billing-review-set')).items as any[]).find((s) => s.billing_series_id === seriesId && s.period_from === periodFrom);
  const done = await reviewSetOperation(app, set.id, 'close');
  if (done.state !== 'done') throw new Error(JSON.stringify(done));
}

const OCT = '2026-09-30T22:00:00.000Z';

test.serial('valid_until moved into a closed October with the correction: the reversal and the prorated fee land in the next open box', async (t) => {
  const w = await world();
  const sub = await createTokenSubscription(app, w.admin.id, { plan_id: w.plan.id, customer_id: w.customer.id, valid_from: '2026-01-01T00:00:00+01:00' });
  await start('2026-10-10T12:00:00Z');
  await closeSet(w.series.id, OCT);
  // Without the correction, billed fees stay as billed.
  await ok('POST', `/msp-token-subscription/${sub.id}`, { valid_until: '2026-10-20T00:00:00+02:00' });
  t.deepEqual((await fees(w.customer.external_reference)).map((f) => f.fee), ['10.00']);
  await ok('POST', `/msp-token-subscription/${sub.id}`, { valid_until: '2026-10-16T00:00:00+02:00', recurring_cost_correction: true });
  const after = await fees(w.customer.external_reference);
  t.is(after[0].fee, '10.00', 'the closed box keeps its line');
  // Ended 16 October: 15/31 of 10.00 = 4.84 due, 10.00 billed: -10.00 and 4.84 in the next open box.
  t.deepEqual(after.slice(1).map((f) => [f.state, f.fee]), [['open', '-5.16']], JSON.stringify(after));
});

test.serial('a customer correction inside a closed October with the correction: the old customer is credited, the new one billed', async (t) => {
  const w = await world();
  const sub = await createTokenSubscription(app, w.admin.id, { plan_id: w.plan.id, customer_id: w.customer.id, valid_from: '2026-01-01T00:00:00+01:00' });
  await start('2026-10-10T12:00:00Z');
  await closeSet(w.series.id, OCT);
  const other = await createCustomer(app, w.admin.id);
  await ok('POST', `/msp-token-subscription/${sub.id}/plan-or-customer-correction`,
    { valid_from: '2026-10-16T00:00:00+02:00', new_customer_id: other.id, recurring_cost_correction: true });
  const old = await fees(w.customer.external_reference);
  const mine = await fees(other.external_reference);
  // Old: 15/31 = 4.84 due, 10.00 billed: -5.16; new: 16/31 of October = 5.16, in its next open box,
  // with the fee of that box's period (started: its review-set exists, and it has begun), which the old
  // subscription was never billed (unbilled-fee-periods.test.ts): 10.00.
  t.deepEqual(old.slice(1).map((f) => f.fee), ['-5.16'], JSON.stringify({ old, mine }));
  t.deepEqual(mine.map((f) => [f.state, f.fee]), [['open', '15.16']], JSON.stringify(mine));
});
