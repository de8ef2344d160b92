// The recurring cost correction of CPO subscriptions over HTTP: October's fees (10.00 per
// subscription, 31.00 per linked EVSE, both monthly) are billed by the period start; a changed
// validity with recurring_cost_correction: true changes them in place in an open box, or brings a
// reversal and the new line into the next open box (November) when October is closed; false leaves
// billed fees as they are. Serial: the period start bills every administration of this file's database.
import test from 'ava';
import { startCurrentPeriods } from '../../../src/billing/period-start.service.ts';
import { scopedEm } from '../../../src/access/admin-scope.ts';
import { startTestApp, type TestApp } from '../../helpers/app.ts';
import { boxesOf, configureBilling, createSeries, reviewSetDone } from '../../helpers/billing-factories.ts';
import { createEvse } from '../../helpers/cpo-factories.ts';
import { createAdministration, createCustomer, okCall } from '../../helpers/factories.ts';
import { ensureVatRate } from '../../helpers/session-factories.ts';

let app: TestApp;
test.before(async () => {
  app = await startTestApp();
  await ensureVatRate(app);
});
test.after.always(async () => { await app?.close(); });

const ok = (method: string, path: string, body?: unknown) => okCall(app, method, path, body);

const OCTOBER = '2026-09-30T22:00:00.000Z';
const NOVEMBER = '2026-10-31T23:00:00.000Z';

/** A subscription for October 2026 with one linked EVSE, its October fees billed into an open box. */
async function billedOctober() {
  const admin = await createAdministration(app);
  await configureBilling(app, admin.id);
  const series = await createSeries(app, admin.id);
  const host = await createCustomer(app, admin.id);
  const plan = await ok('POST', '/cpo-subscription-plan', { admin_id: admin.id, name: 'Hosting' });
  await ok('POST', `/cpo-subscription-plan/${plan.id}/2026-10-01`, {
    recurring_costs: [
      { description: 'Service', amount_excl_vat: '10.00', period: 'month' },
      { description: 'Hosting', amount_excl_vat: '31.00', period: 'month', per: 'evse' },
    ],
  });
  const subscription = await ok('POST', '/cpo-subscription', {
    customer_id: host.id, plan_id: plan.id, valid_from: '2026-10-01T00:00:00+02:00', valid_until: '2026-11-01T00:00:00+01:00',
  });
  const evse = await createEvse(app, admin.id);
  const link = await ok('POST', '/cpo-subscription-evse-link', { subscription_id: subscription.id, evse_uid: evse.evse_uid });
  await startCurrentPeriods(scopedEm(app.orm), new Date('2026-10-15T12:00:00Z'));
  const box = await boxOf(series, host.id, OCTOBER);
  const fees = feesOf(box);
  if (box.state !== 'open' || fees.subtotal_excl_vat !== '41.00' || fees.item_count !== 2) throw new Error(`October not billed: ${JSON.stringify(box)}`);
  return { admin, series, host, subscription, link, box };
}

async function boxOf(series: Record<string, any>, partyId: string, periodFrom: string) {
  const boxes = await boxesOf(app, `?series_external_reference=${series.external_reference}`);
  return boxes.find((b) => b.party_id === partyId && b.period_from === periodFrom);
}

const feesOf = (box: any) => box.rollups.find((r: any) => r.product_category === 'cpo_subscription_fee');

async function itemsOf(boxId: string) {
  const rows = await app.orm.em.getConnection().execute<{ entry: string; amount_excl_vat: string; superseded: boolean }[]>(
    `select entry, amount_excl_vat::text, superseded from billing_item where box_id = ? and source_kind = 'cpo_subscription_fee'
     order by entry, amount_excl_vat`, [boxId]);
  return rows.map((r) => [r.entry, r.amount_excl_vat, r.superseded]);
}

test.serial('open box: a shortened validity with the correction changes the fees in place (prorated); links and PUT too', async (t) => {
  const { series, host, subscription, link, box } = await billedOctober();
  const updated = await ok('POST', `/cpo-subscription/${subscription.id}`, { valid_until: '2026-10-20T00:00:00+02:00', recurring_cost_correction: true });
  t.is(updated.valid_until, '2026-10-19T22:00:00.000Z');
  // 19/31 days: 10.00 → 6.13, 31.00 → 19.00.
  const shortened = await ok('GET', `/billing-box/${box.id}`);
  t.is(shortened.state, 'open');
  t.like(feesOf(shortened), { subtotal_excl_vat: '25.13', item_count: 2, vat_amount: '5.28', subtotal_incl_vat: '30.41', volume: { day: '38.00' } });
  t.is(shortened.total_amount_excl_vat, '25.13');
  t.is(shortened.total_vat_amount, '5.28');
  t.is(shortened.total_amount_incl_vat, '30.41');
  t.deepEqual(await itemsOf(box.id), [['original', '19.00', false], ['original', '6.13', false]], 'updated in place, no reversal');

  // The EVSE link ends on the 10th: 9 days of 31.00.
  await ok('POST', `/cpo-subscription-evse-link/${link.id}`, { valid_until: '2026-10-10T00:00:00+02:00', recurring_cost_correction: true });
  t.is(feesOf(await ok('GET', `/billing-box/${box.id}`)).subtotal_excl_vat, '15.13');

  // The deprecated PUT extends the subscription back to the whole month: 10.00 + 9.00.
  await ok('PUT', `/cpo-subscription/${subscription.id}`, {
    valid_from: '2026-10-01T00:00:00+02:00', valid_until: '2026-11-01T00:00:00+01:00', recurring_cost_correction: true,
  });
  const extended = await ok('GET', `/billing-box/${box.id}`);
  t.like(feesOf(extended), { subtotal_excl_vat: '19.00', item_count: 2 });
  t.is(extended.total_amount_incl_vat, '22.99');
  t.falsy(await boxOf(series, host.id, NOVEMBER), 'nothing went to a later box');
});

test.serial('closed box: the correction brings a reversal and the new line into the next open box', async (t) => {
  const { series, host, subscription, box } = await billedOctober();
  await reviewSetDone(app, box.billing_reviewset_id, 'close');
  t.is((await ok('GET', `/billing-box/${box.id}`)).state, 'closed');

  await ok('POST', `/cpo-subscription/${subscription.id}`, { valid_until: '2026-10-20T00:00:00+02:00', recurring_cost_correction: true });
  const october = await ok('GET', `/billing-box/${box.id}`);
  t.like(feesOf(october), { subtotal_excl_vat: '41.00', item_count: 2 }, 'the closed box is untouched');
  t.deepEqual(await itemsOf(box.id), [['original', '10.00', true], ['original', '31.00', true]], 'superseded');

  const november = await boxOf(series, host.id, NOVEMBER);
  t.truthy(november, 'a November box');
  t.is(november.state, 'open');
  // -10.00 - 31.00 + 6.13 + 19.00
  t.like(feesOf(november), { subtotal_excl_vat: '-15.87', item_count: 4, volume: { day: '-24.00' } });
  t.is(november.total_amount_excl_vat, '-15.87');
  t.is(november.total_vat_amount, '-3.33');
  t.is(november.total_amount_incl_vat, '-19.20');
  t.deepEqual(await itemsOf(november.id),
    [['original', '19.00', false], ['original', '6.13', false], ['reversal', '-10.00', false], ['reversal', '-31.00', false]]);

  // The same correction again changes nothing more.
  await ok('POST', `/cpo-subscription/${subscription.id}`, { valid_until: '2026-10-20T00:00:00+02:00', recurring_cost_correction: true });
  t.is(feesOf(await ok('GET', `/billing-box/${november.id}`)).item_count, 4);
});

test.serial('closed box: a link moved out of the period is reversed, moved back it is billed again (a new version)', async (t) => {
  const { series, host, link, box } = await billedOctober();
  await reviewSetDone(app, box.billing_reviewset_id, 'close');
  await ok('POST', `/cpo-subscription-evse-link/${link.id}`, { valid_from: '2026-11-01T00:00:00+01:00', recurring_cost_correction: true });
  const november = await boxOf(series, host.id, NOVEMBER);
  t.deepEqual(await itemsOf(november.id), [['reversal', '-31.00', false]]);
  await ok('POST', `/cpo-subscription-evse-link/${link.id}`, { valid_from: null, recurring_cost_correction: true });
  t.deepEqual(await itemsOf(november.id), [['original', '31.00', false], ['reversal', '-31.00', false]]);
  t.like(feesOf(await ok('GET', `/billing-box/${november.id}`)), { subtotal_excl_vat: '0.00', item_count: 2 });
  t.like(feesOf(await ok('GET', `/billing-box/${box.id}`)), { subtotal_excl_vat: '41.00', item_count: 2 });
});

test.serial('a defunct EVSE link is withdrawn at once; the next correction of its subscription bills it no more', async (t) => {
  const { subscription, link, box } = await billedOctober();
  await ok('PUT', `/cpo-subscription-evse-link/${link.id}/defunct`);
  t.like(feesOf(await ok('GET', `/billing-box/${box.id}`)), { subtotal_excl_vat: '10.00', item_count: 1 }, 'the EVSE\'s line is gone from the open box');
  await ok('POST', `/cpo-subscription/${subscription.id}`, { valid_until: '2026-10-31T00:00:00+01:00', recurring_cost_correction: true });
  // 30/31 days of 10.00; the EVSE's line is gone from the open box.
  t.like(feesOf(await ok('GET', `/billing-box/${box.id}`)), { subtotal_excl_vat: '9.68', item_count: 1 });
});

test.serial('correction false or absent: billed fees stay as billed', async (t) => {
  const { subscription, link, box } = await billedOctober();
  const off = await ok('POST', `/cpo-subscription/${subscription.id}`, { valid_until: '2026-10-20T00:00:00+02:00', recurring_cost_correction: false });
  t.is(off.valid_until, '2026-10-19T22:00:00.000Z');
  await ok('POST', `/cpo-subscription-evse-link/${link.id}`, { valid_until: '2026-10-10T00:00:00+02:00' });
  await ok('PUT', `/cpo-subscription/${subscription.id}/valid-from`, { valid_from: '2026-10-05T00:00:00+02:00' });
  const after = await ok('GET', `/billing-box/${box.id}`);
  t.like(feesOf(after), { subtotal_excl_vat: '41.00', item_count: 2 });
  t.is(after.total_amount_incl_vat, '49.61');
  t.deepEqual(await itemsOf(box.id), [['original', '10.00', false], ['original', '31.00', false]]);
});

test.serial('a non-boolean recurring_cost_correction is 400 at its place and changes nothing', async (t) => {
  const { subscription, link, box } = await billedOctober();
  for (const value of ['true', 1, 'yes', {}]) {
    const r = await app.request('POST', `/main/v1/cpo-subscription/${subscription.id}`,
      { body: { valid_until: '2026-10-20T00:00:00+02:00', recurring_cost_correction: value } });
    t.is(r.status, 400, JSON.stringify(value));
    t.is(r.body.param, '$.recurring_cost_correction');
  }
  const put = await app.request('PUT', `/main/v1/cpo-subscription/${subscription.id}`, { body: { valid_from: '2026-10-01T00:00:00+02:00', recurring_cost_correction: 'no' } });
  t.is(put.status, 400);
  t.is(put.body.param, '$.recurring_cost_correction');
  const onLink = await app.request('POST', `/main/v1/cpo-subscription-evse-link/${link.id}`, { body: { valid_until: '2026-10-10T00:00:00+02:00', recurring_cost_correction: 0 } });
  t.is(onLink.status, 400);
  t.is(onLink.body.param, '$.recurring_cost_correction');
  t.is((await ok('GET', `/cpo-subscription/${subscription.id}`)).valid_until, '2026-10-31T23:00:00.000Z');
  t.is((await ok('GET', `/cpo-subscription-evse-link/${link.id}`)).valid_until, null);
  t.like(feesOf(await ok('GET', `/billing-box/${box.id}`)), { subtotal_excl_vat: '41.00', item_count: 2 });
});
