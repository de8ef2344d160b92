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
import { boxesOf, configureBilling, createSeries, reviewSetDone } from '../../helpers/billing-factories.ts';
import { createEvse } from '../../helpers/cpo-factories.ts';
import { createAdministration, createCustomer, createSubscriptionPlan, createTokenSubscription, okCall } from '../../helpers/factories.ts';
import { ensureVatRate, pricedSubscription, processed, sessionBody, submitSession } from '../../helpers/session-factories.ts';
import { scopedEm } from '../../../src/access/admin-scope.ts';
import { startCurrentPeriods } from '../../../src/billing/period-start.service.ts';
import { periodOfSql } from '../../../src/billing/period-bounds.ts';

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

// --- period bounds: PostgreSQL's, for the period start and the items alike (src/billing/period-bounds.ts) ---

test.serial('the period start and the items cut one period: Havana, where midnight happens twice, and Casablanca, whose zone data Node has otherwise', async (t) => {
  // America/Havana, 2026-11-01: 01:00 back to 00:00, so November starts at 04:00Z, not at the second midnight (05:00Z).
  // Africa/Casablanca: Node answered another offset than PostgreSQL, and its period start another November.
  const cases = [
    { zone: 'America/Havana', start: '2026-11-01T00:30:00-04:00', end: '2026-11-01T01:20:00-04:00', from: '2026-11-01T04:00:00.000Z' },
    { zone: 'Africa/Casablanca', start: '2026-11-10T10:00:00+01:00', end: '2026-11-10T11:00:00+01:00', from: null },
  ];
  const worlds = [];
  for (const c of cases) {
    const admin = await createAdministration(app, { country: 'NL' });
    await configureBilling(app, admin.id, { time_zone: c.zone });
    const series = await createSeries(app, admin.id);
    const sub = await pricedSubscription(app, admin.id, { plan: { recurring_costs: [{ description: 'Card fee', amount_excl_vat: '10.00', period: 'month' }] } });
    worlds.push({ ...c, series, sub });
  }
  // The hourly period start in November, then a session of each.
  await start('2026-11-10T12:00:00Z');
  const sessions = await Promise.all(worlds.map((w) => submitSession(app, sessionBody(w.sub.evcoId, { start_date_time: w.start, end_date_time: w.end, time_zone: w.zone }))));
  for (const s of sessions) t.is((await processed(app, s.id)).status, 'priced');
  const sets = (await ok('GET', '/billing-review-set?limit=1000')).items as any[];
  for (const w of worlds) {
    const november = sets.filter((s) => s.billing_series_id === w.series.id && s.code.endsWith('-2026-11'));
    t.is(november.length, 1, `${w.zone}: one November review-set: ${JSON.stringify(november)}`);
    if (w.from) t.is(november[0].period_from, w.from, w.zone);
    const customer = await ok('GET', `/customer/${w.sub.customerId}`);
    const boxes = (await boxesOf(app, `?party_external_reference=${customer.external_reference}`)).filter((b) => b.billing_reviewset_id === november[0].id);
    t.is(boxes.length, 1, `${w.zone}: one November box`);
    // The session's moment lies in its box's period; the fee is the whole month's.
    const at = Date.parse(w.start);
    t.true(Date.parse(boxes[0].period_from) <= at && at < Date.parse(boxes[0].period_until), `${w.zone}: ${w.start} in ${boxes[0].period_from}..${boxes[0].period_until}`);
    t.deepEqual(boxes[0].rollups.map((r: any) => `${r.product_category} ${r.subtotal_excl_vat}`).sort(), ['charging 5.00', 'subscription_fee 10.00'], w.zone);
  }
});

test('every region zone PostgreSQL knows: a month\'s period starts at the first instant of its first day and ends where the next one starts', async (t) => {
  const wrong = await app.orm.em.getConnection().execute<{ zone: string; month: string; period_from: Date }[]>(
    `select z.name as zone, m.at::date::text as month, p.period_from from pg_timezone_names z
       cross join generate_series(timestamp '2024-01-01', timestamp '2031-12-01', interval '1 month') m(at)
       cross join lateral (${periodOfSql('(m.at + interval \'36 hours\') at time zone z.name', 'z.name', "'month'")}) p
       cross join lateral (${periodOfSql('p.period_until', 'z.name', "'month'")}) n
     where z.name ~ '/' and z.name !~ '^(posix|Etc)/' and ((p.period_from at time zone z.name)::date <> m.at::date
       or ((p.period_from - interval '1 microsecond') at time zone z.name)::date >= m.at::date
       or p.first <> m.at::date::text or n.period_from <> p.period_until)
     limit 20`);
  t.deepEqual(wrong, []);
});
