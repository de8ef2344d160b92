// Recurring fees of periods a contract reaches into after they started (decisions "MSP contracts"
// and "CPO side", since 2026-11-28, found by probing): an MSP subscription created into a closed
// month, a CPO subscription whose valid_from moves back into a closed month, an EVSE link created or
// back-dated after its month closed were never billed for it (the period start never comes again for
// a closed period). Now the change bills every started period (one with a review-set) its validity
// covers that holds no fee of it yet, in its transaction, whatever `recurring_cost_correction` says:
// into the period's box while open, else the party's next open box. Periods without a review-set are
// left to the period start. Never twice: one line per subject and period, also after the same change
// again, the period start and the review-set close. Serial: a period start bills every
// administration of this file's database.
import test from 'ava';
import { startTestApp, type TestApp } from '../../helpers/app.ts';
import { configureBilling, createSeries, reviewSetDone } from '../../helpers/billing-factories.ts';
import { createEvse } from '../../helpers/cpo-factories.ts';
import { createAdministration, createCustomer, createSubscriptionPlan, createTokenSubscription, okCall } from '../../helpers/factories.ts';
import { ensureVatRate } from '../../helpers/session-factories.ts';
import { scopedEm } from '../../../src/access/admin-scope.ts';
import { startCurrentPeriods } from '../../../src/billing/period-start.service.ts';

let app: TestApp;
test.before(async () => { app = await startTestApp(); await ensureVatRate(app); });
test.after.always(async () => { await app?.close(); });
const ok = (method: string, path: string, body?: unknown) => okCall(app, method, path, body);
const start = (at: string) => startCurrentPeriods(scopedEm(app.orm), new Date(at));

const SEPTEMBER = '2026-08-31T22:00:00.000Z';
const OCTOBER = '2026-09-30T22:00:00.000Z';

async function billedAdmin() {
  const admin = await createAdministration(app);
  await configureBilling(app, admin.id);
  const series = await createSeries(app, admin.id);
  return { admin, series };
}

async function closeSet(seriesId: string, periodFrom: string) {
  const set = ((await ok('GET', `/billing-review-set?limit=1000`)).items as any[])
    .find((s) => s.billing_series_id === seriesId && s.period_from === periodFrom);
  if (!set) throw new Error(`no review-set of ${periodFrom}`);
  await reviewSetDone(app, set.id, 'close');
}

/**
 * The fee items of a subscription or link (its subjects `<owner>/<period>/<cost>`), in period order:
 * `<period> <entry> <amount> <own|later> <box state>`, `own` when the item is in its own period's box.
 */
async function linesOf(ownerId: string): Promise<string[]> {
  const rows = await app.orm.em.getConnection().execute<{ period: string; entry: string; amount: string; own: boolean; state: string }[]>(
    `select split_part(i.subject_id, '/', 2) as period, i.entry, i.amount_excl_vat::text as amount, b.period_from = i.occurred_at as own, b.state
     from billing_item i join billing_box b on b.id = i.box_id
     where split_part(i.subject_id, '/', 1) = ? and not i.superseded
     order by i.occurred_at, split_part(i.subject_id, '/', 3), i.entry, i.amount_excl_vat`, [ownerId]);
  return rows.map((r) => `${r.period} ${r.entry} ${r.amount} ${r.own ? 'own' : 'later'} ${r.state}`);
}

/** Items per subject and period, however many (superseded ones included): a line billed twice shows as 2. */
async function itemCounts(ownerId: string): Promise<number[]> {
  const rows = await app.orm.em.getConnection().execute<{ n: number }[]>(
    `select count(*)::int as n from billing_item where split_part(subject_id, '/', 1) = ? group by subject_id order by subject_id`, [ownerId]);
  return rows.map((r) => r.n);
}

// --- MSP token subscriptions ---

async function mspWorld(costs = [{ description: 'Card fee', amount_excl_vat: '10.00', period: 'month' }]) {
  const { admin, series } = await billedAdmin();
  const plan = await createSubscriptionPlan(app, admin.id, { recurring_costs: costs });
  const customer = await createCustomer(app, admin.id);
  return { admin, series, plan, customer };
}

test.serial('MSP: a subscription created into a closed month is billed for it in the next open box; only started periods, once', async (t) => {
  const w = await mspWorld();
  await start('2026-09-10T12:00:00Z');
  await closeSet(w.series.id, SEPTEMBER);
  await start('2026-10-10T12:00:00Z');
  // Back to 2020: only September (closed) and October (open) were ever started.
  const sub = await createTokenSubscription(app, w.admin.id, { plan_id: w.plan.id, customer_id: w.customer.id, valid_from: '2020-01-01T00:00:00+01:00' });
  t.deepEqual(await linesOf(sub.id), ['2026-09 original 10.00 later open', '2026-10 original 10.00 own open']);

  // A change of bounds again, twice, with and without the correction: nothing more.
  await ok('POST', `/msp-token-subscription/${sub.id}`, { valid_from: '2020-02-01T00:00:00+01:00' });
  await ok('POST', `/msp-token-subscription/${sub.id}`, { valid_from: '2020-02-01T00:00:00+01:00' });
  await ok('POST', `/msp-token-subscription/${sub.id}`, { valid_from: '2020-03-01T00:00:00+01:00', recurring_cost_correction: true });
  t.deepEqual(await linesOf(sub.id), ['2026-09 original 10.00 later open', '2026-10 original 10.00 own open']);

  // October's close and November's start bill what is due, September and October once.
  await closeSet(w.series.id, OCTOBER);
  await start('2026-11-10T12:00:00Z');
  const lines = await linesOf(sub.id);
  t.deepEqual(lines.filter((l) => !l.startsWith('2026-11')), ['2026-09 original 10.00 later closed', '2026-10 original 10.00 own closed'], JSON.stringify(lines));
  t.deepEqual(lines.filter((l) => l.startsWith('2026-11')).map((l) => l.split(' ').slice(0, 3).join(' ')), ['2026-11 original 10.00']);
  t.deepEqual(await itemCounts(sub.id), [1, 1, 1]);
});

test.serial('MSP: a subscription back-dated into an open started month is billed at once (prorated), and its close bills it no more', async (t) => {
  const w = await mspWorld();
  await start('2026-10-10T12:00:00Z');
  // From November, which has not started for this administration: left to the period start.
  const sub = await createTokenSubscription(app, w.admin.id, { plan_id: w.plan.id, customer_id: w.customer.id, valid_from: '2026-11-01T00:00:00+01:00' });
  t.deepEqual(await linesOf(sub.id), []);
  await ok('PUT', `/msp-token-subscription/${sub.id}`, { valid_from: '2026-10-16T00:00:00+02:00' });
  // 16/31 of 10.00.
  t.deepEqual(await linesOf(sub.id), ['2026-10 original 5.16 own open']);
  await ok('PUT', `/msp-token-subscription/${sub.id}`, { valid_from: '2026-10-16T00:00:00+02:00', valid_until: '2027-01-01T00:00:00+01:00' });
  await closeSet(w.series.id, OCTOBER);
  t.deepEqual(await linesOf(sub.id), ['2026-10 original 5.16 own closed']);
  t.deepEqual(await itemCounts(sub.id), [1]);
});

test.serial('MSP: a correction without recurring_cost_correction bills its successor only where the old subscription held no fee', async (t) => {
  const w = await mspWorld();
  const free = await createSubscriptionPlan(app, w.admin.id, { recurring_costs: [] });
  const paying = await createTokenSubscription(app, w.admin.id, { plan_id: w.plan.id, customer_id: w.customer.id, valid_from: '2026-01-01T00:00:00+01:00' });
  const freeSub = await createTokenSubscription(app, w.admin.id, { plan_id: free.id, customer_id: w.customer.id, valid_from: '2026-01-01T00:00:00+01:00' });
  await start('2026-10-10T12:00:00Z');
  await closeSet(w.series.id, OCTOBER);
  t.deepEqual(await linesOf(paying.id), ['2026-10 original 10.00 own closed']);

  // Another customer from 16 October: October stays as billed (the old customer's whole month).
  const other = await createCustomer(app, w.admin.id);
  const moved = await ok('POST', `/msp-token-subscription/${paying.id}/plan-or-customer-correction`, { valid_from: '2026-10-16T00:00:00+02:00', new_customer_id: other.id });
  t.deepEqual(await linesOf(moved.new_subscription.id), []);
  t.deepEqual(await linesOf(paying.id), ['2026-10 original 10.00 own closed']);

  // A free plan switched to a paying one from 16 October: October never held a fee, 16/31 of 10.00 is billed.
  const upgraded = await ok('POST', `/msp-token-subscription/${freeSub.id}/plan-or-customer-correction`, { valid_from: '2026-10-16T00:00:00+02:00', new_plan_id: w.plan.id });
  t.deepEqual(await linesOf(upgraded.new_subscription.id), ['2026-10 original 5.16 later open']);
});

// --- CPO subscriptions and EVSE links ---

async function cpoWorld(versionFrom: string) {
  const { admin, series } = await billedAdmin();
  const host = await createCustomer(app, admin.id);
  const plan = await ok('POST', '/cpo-subscription-plan', { admin_id: admin.id, name: 'Hosting' });
  await ok('POST', `/cpo-subscription-plan/${plan.id}/${versionFrom}`, {
    recurring_costs: [
      { description: 'Service', amount_excl_vat: '10.00', period: 'month' },
      { description: 'Hosting', amount_excl_vat: '31.00', period: 'month', per: 'evse' },
    ],
  });
  const evse = await createEvse(app, admin.id);
  return { admin, series, host, plan, evse };
}

test.serial('CPO: valid_from moved back into a closed month bills that month (subscription and deferring link) in the next open box, once', async (t) => {
  const w = await cpoWorld('2026-09-01');
  await start('2026-09-10T12:00:00Z');
  await closeSet(w.series.id, SEPTEMBER);
  const subscription = await ok('POST', '/cpo-subscription', { customer_id: w.host.id, plan_id: w.plan.id, valid_from: '2026-10-01T00:00:00+02:00' });
  const link = await ok('POST', '/cpo-subscription-evse-link', { subscription_id: subscription.id, evse_uid: w.evse.evse_uid });
  await start('2026-10-15T12:00:00Z');
  t.deepEqual(await linesOf(subscription.id), ['2026-10 original 10.00 own open']);
  t.deepEqual(await linesOf(link.id), ['2026-10 original 31.00 own open']);

  // From 16 September, without the correction: 15/30 of September, into October's open box.
  await ok('POST', `/cpo-subscription/${subscription.id}`, { valid_from: '2026-09-16T00:00:00+02:00' });
  t.deepEqual(await linesOf(subscription.id), ['2026-09 original 5.00 later open', '2026-10 original 10.00 own open']);
  t.deepEqual(await linesOf(link.id), ['2026-09 original 15.50 later open', '2026-10 original 31.00 own open']);

  // The same again, another bound, the single-field path: September holds its fees now.
  await ok('POST', `/cpo-subscription/${subscription.id}`, { valid_from: '2026-09-16T00:00:00+02:00', recurring_cost_correction: false });
  await ok('PUT', `/cpo-subscription/${subscription.id}/valid-from`, { valid_from: '2026-09-20T00:00:00+02:00' });
  await ok('PUT', `/cpo-subscription/${subscription.id}/valid-from`, { valid_from: '2026-09-16T00:00:00+02:00' });
  await closeSet(w.series.id, OCTOBER);
  await start('2026-11-10T12:00:00Z');
  const subscriptionLines = await linesOf(subscription.id);
  t.deepEqual(subscriptionLines.slice(0, 2), ['2026-09 original 5.00 later closed', '2026-10 original 10.00 own closed']);
  t.deepEqual(subscriptionLines.slice(2).map((l) => l.split(' ').slice(0, 3).join(' ')), ['2026-11 original 10.00']);
  t.deepEqual(await itemCounts(subscription.id), [1, 1, 1]);
  t.deepEqual(await itemCounts(link.id), [1, 1, 1]);
});

test.serial('CPO: an EVSE link created after its month closed is billed for it; the subscription\'s own fee not again', async (t) => {
  const w = await cpoWorld('2026-10-01');
  const subscription = await ok('POST', '/cpo-subscription', { customer_id: w.host.id, plan_id: w.plan.id, valid_from: '2026-10-01T00:00:00+02:00' });
  await start('2026-10-15T12:00:00Z');
  await closeSet(w.series.id, OCTOBER);
  t.deepEqual(await linesOf(subscription.id), ['2026-10 original 10.00 own closed']);

  const link = await ok('POST', '/cpo-subscription-evse-link', { subscription_id: subscription.id, evse_uid: w.evse.evse_uid });
  t.deepEqual(await linesOf(link.id), ['2026-10 original 31.00 later open']);
  t.deepEqual(await linesOf(subscription.id), ['2026-10 original 10.00 own closed']);
  // Its bounds changed again (and back): October holds its fee. (The box it went to started its period
  // for the administration: that period, where the link is valid too, is billed by these changes.)
  await ok('POST', `/cpo-subscription-evse-link/${link.id}`, { valid_from: '2026-10-05T00:00:00+02:00' });
  await ok('POST', `/cpo-subscription-evse-link/${link.id}`, { valid_from: null });
  t.deepEqual((await linesOf(link.id)).filter((l) => l.startsWith('2026-10')), ['2026-10 original 31.00 later open']);
  t.true((await itemCounts(link.id)).every((n) => n === 1));
  t.true((await itemCounts(subscription.id)).every((n) => n === 1));
});

test.serial('CPO: an EVSE link back-dated into a closed month is billed its days of it', async (t) => {
  const w = await cpoWorld('2026-10-01');
  const subscription = await ok('POST', '/cpo-subscription', { customer_id: w.host.id, plan_id: w.plan.id, valid_from: '2026-10-01T00:00:00+02:00' });
  await start('2026-10-15T12:00:00Z');
  await closeSet(w.series.id, OCTOBER);
  const link = await ok('POST', '/cpo-subscription-evse-link', { subscription_id: subscription.id, evse_uid: w.evse.evse_uid, valid_from: '2026-11-01T00:00:00+01:00' });
  t.deepEqual(await linesOf(link.id), [], 'November has not started for this administration');
  await ok('PUT', `/cpo-subscription-evse-link/${link.id}/valid-from`, { valid_from: '2026-10-11T00:00:00+02:00' });
  // 21/31 of 31.00.
  t.deepEqual(await linesOf(link.id), ['2026-10 original 21.00 later open']);
  t.deepEqual(await linesOf(subscription.id), ['2026-10 original 10.00 own closed']);
});
