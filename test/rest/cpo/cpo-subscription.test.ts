import test from 'ava';
import { startTestApp, type TestApp } from '../../helpers/app.ts';
import { boxesOf, configureBilling, createSeries, reviewSetDone } from '../../helpers/billing-factories.ts';
import { createEvse } from '../../helpers/cpo-factories.ts';
import { createAdministration, createCustomer, okCall } from '../../helpers/factories.ts';
import { billedFees } from '../../helpers/fee-billing.ts';
import { ensureVatRate } from '../../helpers/session-factories.ts';

let app: TestApp;
test.before(async () => {
  app = await startTestApp();
  await ensureVatRate(app);
});
test.after.always(async () => { await app?.close(); });

const ok = (method: string, path: string, body?: unknown) => okCall(app, method, path, body);

async function setUp() {
  const admin = await createAdministration(app);
  await configureBilling(app, admin.id);
  const series = await createSeries(app, admin.id);
  const host = await createCustomer(app, admin.id, { company_reg_num: '123' });
  const plan = await ok('POST', '/cpo-subscription-plan', { admin_id: admin.id, name: 'Hosting', external_reference: `HOST-${admin.id}` });
  const evses = [await createEvse(app, admin.id), await createEvse(app, admin.id)];
  return { admin, series, host, plan, evses };
}

test('a month of CPO fees: per subscription, and per linked EVSE prorated by days (one linked from the 15th)', async (t) => {
  const { admin, series, host, plan, evses } = await setUp();
  const versioned = await ok('POST', `/cpo-subscription-plan/${plan.id}/2026-10-01`, {
    recurring_costs: [
      { description: 'Service', amount_excl_vat: '10.00', period: 'month' },
      { description: 'Hosting', amount_excl_vat: '30.00', period: 'month', per: 'evse' },
    ],
  });
  t.is(versioned.versions.length, 1);
  t.is(versioned.versions[0].valid_from, '2026-09-30T22:00:00.000Z', 'local midnight of the administration (Europe/Amsterdam)');
  const subscription = await ok('POST', '/cpo-subscription', {
    customer_id: host.id, plan_id: `ext_ref.HOST-${admin.id}`, valid_from: '2026-10-01T00:00:00+02:00', external_reference: `CPO-SUB-${admin.id}`,
  });
  await ok('POST', '/cpo-subscription-evse-link', { subscription_id: subscription.id, evse_uid: evses[0].evse_uid });
  const late = await ok('POST', '/cpo-subscription-evse-link', { subscription_id: subscription.id, evse_uid: evses[1].evse_uid, valid_from: '2026-10-15T00:00:00+02:00' });
  t.true(late.is_currently_valid);

  // A custom item makes October's review-set exist; closing it bills the period's fees.
  const item = await ok('POST', '/billing-custom-item', {
    time_zone: 'Europe/Amsterdam', date: '2026-10-02', party_id: host.id, admin_id: admin.id, description: 'Setup', quantity: '1', unit: 'pcs',
    unit_price_excl_vat: '5.00', vat_kind: 'standard',
  });
  const box = await ok('GET', `/billing-box/${item.box_id}`);
  await reviewSetDone(app, box.billing_reviewset_id, 'close');
  const [closed] = await boxesOf(app, `?series_external_reference=${series.external_reference}&reviewset_id=${box.billing_reviewset_id}`);
  const fees = closed.rollups.find((r: any) => r.product_category === 'cpo_subscription_fee');
  t.truthy(fees, JSON.stringify(closed.rollups));
  // 10.00 + 30.00 + 30.00 × 17/31 (16.45)
  t.is(fees.subtotal_excl_vat, '56.45');
  t.is(fees.item_count, 3);
  t.deepEqual(fees.volume, { day: '79.00' });
});

test('a link dated before its subscription is billed from the subscription\'s start only', async (t) => {
  const { admin, series, host, plan, evses } = await setUp();
  await ok('POST', `/cpo-subscription-plan/${plan.id}/2026-09-01`, { recurring_costs: [{ description: 'Hosting', amount_excl_vat: '31.00', period: 'month', per: 'evse' }] });
  const subscription = await ok('POST', '/cpo-subscription', { customer_id: host.id, plan_id: plan.id, valid_from: '2026-10-15T00:00:00+02:00' });
  await ok('POST', '/cpo-subscription-evse-link', { subscription_id: subscription.id, evse_uid: evses[0].evse_uid, valid_from: '2026-10-01T00:00:00+02:00' });
  const item = await ok('POST', '/billing-custom-item', {
    time_zone: 'Europe/Amsterdam', date: '2026-10-20', party_id: host.id, admin_id: admin.id, description: 'Setup', quantity: '1', unit: 'pcs',
    unit_price_excl_vat: '5.00', vat_kind: 'standard',
  });
  const box = await ok('GET', `/billing-box/${item.box_id}`);
  await reviewSetDone(app, box.billing_reviewset_id, 'close');
  const [closed] = await boxesOf(app, `?series_external_reference=${series.external_reference}&reviewset_id=${box.billing_reviewset_id}`);
  // October 15 to 31: 17 of 31 days (the link's own first 14 days are before the subscription).
  t.like(closed.rollups.find((r: any) => r.product_category === 'cpo_subscription_fee'), { subtotal_excl_vat: '17.00', volume: { day: '17.00' } });
});

test('an EVSE is linked to a subscription once at a time: an overlapping second link is refused, a later one taken', async (t) => {
  const { host, plan, evses } = await setUp();
  const subscription = await ok('POST', '/cpo-subscription', { customer_id: host.id, plan_id: plan.id, valid_from: '2026-10-01T00:00:00+02:00' });
  const first = await ok('POST', '/cpo-subscription-evse-link', { subscription_id: subscription.id, evse_uid: evses[0].evse_uid, valid_until: '2026-11-01T00:00:00+01:00' });
  for (const bounds of [{}, { valid_from: '2026-10-20T00:00:00+02:00' }, { valid_from: '2026-09-01T00:00:00+02:00', valid_until: '2026-10-02T00:00:00+02:00' }]) {
    const twice = await app.request('POST', '/main/v1/cpo-subscription-evse-link', { body: { subscription_id: subscription.id, evse_uid: evses[0].evse_uid, ...bounds } });
    t.is(twice.status, 400, JSON.stringify(bounds));
    t.like(twice.body, { code: 'overlapping_evse_link', param: '$.valid_from' });
  }
  // From the first link's end on (a seamless hand-over), and another EVSE at any time, are taken.
  const later = await ok('POST', '/cpo-subscription-evse-link', { subscription_id: subscription.id, evse_uid: evses[0].evse_uid, valid_from: '2026-11-01T00:00:00+01:00' });
  await ok('POST', '/cpo-subscription-evse-link', { subscription_id: subscription.id, evse_uid: evses[1].evse_uid });
  // Moving the later link back into the first one's span is refused too, and changes nothing.
  const moved = await app.request('POST', `/main/v1/cpo-subscription-evse-link/${later.id}`, { body: { valid_from: '2026-10-15T00:00:00+02:00' } });
  t.like(moved.body, { code: 'overlapping_evse_link' });
  t.is((await ok('GET', `/cpo-subscription-evse-link/${later.id}`)).valid_from, '2026-10-31T23:00:00.000Z');
  t.truthy(first.id);
});

test('moving a subscription\'s valid_from back over an EVSE\'s other link is refused on every path, before anything is billed', async (t) => {
  const { admin, host, plan, evses } = await setUp();
  // A custom item makes September's review-set exist: a started period, billed when a contract reaches into it.
  await ok('POST', '/billing-custom-item', {
    time_zone: 'Europe/Amsterdam', date: '2026-09-02', party_id: host.id, admin_id: admin.id, description: 'Setup', quantity: '1', unit: 'pcs',
    unit_price_excl_vat: '5.00', vat_kind: 'standard',
  });
  await ok('POST', `/cpo-subscription-plan/${plan.id}/2026-08-01`, { recurring_costs: [{ description: 'Hosting', amount_excl_vat: '30.00', period: 'month', per: 'evse' }] });
  const subscription = await ok('POST', '/cpo-subscription', { customer_id: host.id, plan_id: plan.id, valid_from: '2026-10-01T00:00:00+02:00' });
  // Two links of one EVSE, apart: one following the subscription's start, one for September before it.
  const following = await ok('POST', '/cpo-subscription-evse-link', { subscription_id: subscription.id, evse_uid: evses[0].evse_uid });
  const september = await ok('POST', '/cpo-subscription-evse-link', {
    subscription_id: subscription.id, evse_uid: evses[0].evse_uid, valid_from: '2026-09-01T00:00:00+02:00', valid_until: '2026-10-01T00:00:00+02:00',
  });
  const septemberFees = async () => (await billedFees(app, admin.id, 'cpo_subscription_fee'))
    .filter((f) => f.subjectId.includes('/2026-09') && [following.id, september.id].some((id) => f.subjectId.startsWith(id)));

  // From September 1 the following link would start then too, over the September link: its fee would count twice.
  const back = { valid_from: '2026-09-01T00:00:00+02:00' };
  for (const [method, suffix] of [['POST', ''], ['PUT', ''], ['PUT', '/valid-from']]) {
    const moved = await app.request(method, `/main/v1/cpo-subscription/${subscription.id}${suffix}`, { body: back });
    t.is(moved.status, 400, `${method} ${suffix}: ${JSON.stringify(moved.body)}`);
    t.like(moved.body, { code: 'overlapping_evse_link', param: '$.valid_from' }, `${method} ${suffix}`);
  }
  const graphql = await app.request('POST', '/graphql', {
    body: {
      query: 'mutation ($id: ID!, $i: CpoSubscriptionInput!) { updateCpoSubscription(id: $id, input: $i) { databaseId } }',
      variables: { id: subscription.id, i: { validFrom: back.valid_from } },
    },
  });
  t.like(graphql.body.errors?.[0]?.extensions, { code: 'overlapping_evse_link', param: '$.input.validFrom' }, JSON.stringify(graphql.body));
  t.is((await ok('GET', `/cpo-subscription/${subscription.id}`)).valid_from, '2026-09-30T22:00:00.000Z', 'unchanged');
  t.deepEqual(await septemberFees(), [], 'nothing billed by a refused move');

  // With the September link ended on the 15th the subscription may start then: the EVSE's September is billed once.
  await ok('POST', `/cpo-subscription-evse-link/${september.id}`, { valid_until: '2026-09-15T00:00:00+02:00' });
  await ok('POST', `/cpo-subscription/${subscription.id}`, { valid_from: '2026-09-15T00:00:00+02:00' });
  const billed = await septemberFees();
  t.deepEqual(billed.filter((f) => f.amount !== '0.00').map((f) => [f.subjectId.split('/')[0], f.amount]), [[following.id, '16.00']],
    `30.00 × 16/30 for the following link, nothing for the September link before the subscription's start: ${JSON.stringify(billed)}`);
});

test('defunct cascades to the links; a defunct subscription no longer changes; deprecated PUT and single-field paths work', async (t) => {
  const { admin, host, plan, evses } = await setUp();
  const subscription = await ok('POST', '/cpo-subscription', { customer_id: host.id, plan_id: plan.id, valid_from: '2026-01-01T00:00:00Z', custom_fields: { site: 'A' } });
  const link = await ok('POST', '/cpo-subscription-evse-link', { subscription_id: subscription.id, evse_uid: evses[0].evse_uid });
  const until = await ok('PUT', `/cpo-subscription/${subscription.id}/valid-until`, { valid_until: '2027-01-01T00:00:00Z' });
  t.is(until.valid_until, '2027-01-01T00:00:00.000Z');
  t.deepEqual(until.custom_fields, { site: 'A' });
  const cleared = await ok('DELETE', `/cpo-subscription/${subscription.id}/valid-until`);
  t.is(cleared.valid_until, null);
  const replaced = await ok('PUT', `/cpo-subscription/${subscription.id}`, { valid_from: '2026-02-01T00:00:00Z' });
  t.deepEqual(replaced.custom_fields, {}, 'omitted fields are reset');
  const linkFrom = await ok('PUT', `/cpo-subscription-evse-link/${link.id}/valid-from`, { valid_from: '2026-03-01T00:00:00Z' });
  t.is(linkFrom.valid_from, '2026-03-01T00:00:00.000Z');

  const defunct = await ok('PUT', `/cpo-subscription/${subscription.id}/defunct`);
  t.true(defunct.defunct);
  const after = await ok('GET', `/cpo-subscription-evse-link/${link.id}`);
  t.true(after.defunct);
  t.false(after.is_currently_valid);
  const change = await app.request('POST', `/main/v1/cpo-subscription/${subscription.id}`, { body: { buyer_reference: 'x' } });
  t.is(change.status, 400);
  t.is(change.body.code, 'cpo_subscription_defunct');
  t.truthy(admin);
});

test('one plan version sent several times at once: each answered 200, one version stored', async (t) => {
  const { plan } = await setUp();
  for (const date of ['2026-04-01', '2026-05-01']) {
    const answers = await Promise.all(Array.from({ length: 6 }, () => app.request('POST', `/main/v1/cpo-subscription-plan/${plan.id}/${date}`, {
      body: { recurring_costs: [{ description: 'Hosting', amount_excl_vat: '10.00', period: 'month' }] },
    })));
    t.deepEqual(answers.map((a) => [a.status, a.body.code ?? null]), answers.map(() => [200, null]), date);
  }
  const { versions } = await ok('GET', `/cpo-subscription-plan/${plan.id}`);
  t.is(versions.length, 2, 'one version a date');
  t.true(versions.every((v: any) => v.recurring_costs.length === 1));
});

test('bad input is 400 with its place and changes nothing; another administration sees nothing', async (t) => {
  const { admin, host, plan, evses } = await setUp();
  const badDate = await app.request('POST', `/main/v1/cpo-subscription-plan/${plan.id}/2026-02-30`, { body: { recurring_costs: [] } });
  t.is(badDate.status, 400);
  const badCost = await app.request('POST', `/main/v1/cpo-subscription-plan/${plan.id}/2026-10-01`, {
    body: { recurring_costs: [{ description: 'Hosting', amount_excl_vat: '-1', period: 'month', per: 'charger' }] },
  });
  t.is(badCost.status, 400);
  t.deepEqual(badCost.body.details.map((d: any) => d.param).sort(), ['$.recurring_costs[0].amount_excl_vat', '$.recurring_costs[0].per']);
  // A year's fee of it must fit an invoice line (the MSP plans' bound, src/contracts/plan.ts).
  const hugeCost = await app.request('POST', `/main/v1/cpo-subscription-plan/${plan.id}/2026-10-01`, {
    body: { recurring_costs: [{ description: 'Hosting', amount_excl_vat: '1000000000000', period: 'month' }] },
  });
  t.like(hugeCost.body, { code: 'invalid_input', param: '$.recurring_costs[0].amount_excl_vat' });
  t.deepEqual((await ok('GET', `/cpo-subscription-plan/${plan.id}`)).versions, []);
  const badBounds = await app.request('POST', '/main/v1/cpo-subscription', {
    body: { customer_id: host.id, plan_id: plan.id, valid_from: '2026-02-01T00:00:00Z', valid_until: '2026-01-01T00:00:00Z' },
  });
  t.is(badBounds.status, 400);
  t.is(badBounds.body.param, '$.valid_until');

  const other = await createAdministration(app);
  const foreignEvse = await createEvse(app, other.id);
  const subscription = await ok('POST', '/cpo-subscription', { customer_id: host.id, plan_id: plan.id, valid_from: '2026-01-01T00:00:00Z' });
  const mismatch = await app.request('POST', '/main/v1/cpo-subscription-evse-link', { body: { subscription_id: subscription.id, evse_uid: foreignEvse.evse_uid } });
  t.is(mismatch.status, 400);
  t.is(mismatch.body.code, 'administration_mismatch');
  const limited = await app.credential({ role: 'admin', adminIds: [other.id] });
  const seen = await app.request('GET', `/main/v1/cpo-subscription/${subscription.id}`, { auth: limited });
  t.is(seen.status, 400);
  t.is(seen.body.code, 'not_found');
  const plans = await app.request('GET', '/main/v1/cpo-subscription-plan', { auth: limited });
  t.deepEqual(plans.body.items, []);
  t.truthy(admin && evses);
});

// Serial: the lists are compared whole, so no other test of this file may add to them meanwhile.
test.serial('GraphQL lists the same CPO plans (with versions) and subscriptions as REST, and marks one defunct', async (t) => {
  const { host, plan } = await setUp();
  await ok('POST', `/cpo-subscription-plan/${plan.id}/2026-10-01`, { recurring_costs: [{ description: 'Service', amount_excl_vat: '10', period: 'month' }] });
  const subscription = await ok('POST', '/cpo-subscription', { customer_id: host.id, plan_id: plan.id, valid_from: '2026-10-01T00:00:00Z' });
  const query = `{ cpoSubscriptionPlans(first: 100) { edges { node { databaseId versions { validFrom recurringCosts { description amountExclVat period per } } } } }
    cpoSubscriptions(first: 100) { edges { node { databaseId plan { databaseId } customer { databaseId } } } } }`;
  const graph = await app.request('POST', '/graphql', { body: { query } });
  t.falsy(graph.body.errors, JSON.stringify(graph.body.errors));
  const restPlans = (await ok('GET', '/cpo-subscription-plan?page_size=1000')).items.map((p: any) => p.id);
  t.deepEqual(graph.body.data.cpoSubscriptionPlans.edges.map((e: any) => e.node.databaseId), restPlans.slice(0, 100));
  const mine = graph.body.data.cpoSubscriptionPlans.edges.find((e: any) => e.node.databaseId === plan.id).node;
  t.deepEqual(mine.versions[0].recurringCosts, [{ description: 'Service', amountExclVat: '10.00', period: 'month', per: 'subscription' }]);
  const restSubs = (await ok('GET', '/cpo-subscription?page_size=1000')).items.map((s: any) => s.id);
  t.deepEqual(graph.body.data.cpoSubscriptions.edges.map((e: any) => e.node.databaseId), restSubs.slice(0, 100));
  const defunct = await app.request('POST', '/graphql', {
    body: { query: 'mutation ($id: ID!) { defunctCpoSubscription(id: $id) { defunct } }', variables: { id: subscription.id } },
  });
  t.deepEqual(defunct.body.data, { defunctCpoSubscription: { defunct: true } });
  t.true((await ok('GET', `/cpo-subscription/${subscription.id}`)).defunct);
});
