import test from 'ava';
import { randomUUID } from 'node:crypto';
import { MonetaryCredit } from '../../../src/msp/monetary-credit.entity.ts';
import { TokenLink } from '../../../src/msp/token-link.entity.ts';
import { scopedEm } from '../../../src/access/admin-scope.ts';
import { startCurrentPeriods } from '../../../src/billing/period-start.service.ts';
import { startTestApp, type TestApp } from '../../helpers/app.ts';
import { configureBilling, createSeries } from '../../helpers/billing-factories.ts';
import { ensureVatRate } from '../../helpers/session-factories.ts';
import pg from 'pg';
import { lockWaits } from '../../helpers/db.ts';
import {
  createAdministration, createCustomer, createSubscriptionPlan, createTokenSubscription, insertSubscriptionPlan, insertToken, insertTokenLink,
  insertTokenSubscription,
} from '../../helpers/factories.ts';

let app: TestApp;
let adminId: string;
test.before(async () => {
  app = await startTestApp();
  adminId = (await createAdministration(app)).id;
});
test.after.always(async () => { await app?.close(); });

const correctionPath = (id: string) => `/main/v1/msp-token-subscription/${id}/plan-or-customer-correction`;
const T = '2026-03-01T00:00:00.000Z';

async function linksOf(subscriptionId: string) {
  const links = await scopedEm(app.orm).find(TokenLink, { subscription: subscriptionId }, { orderBy: { id: 'asc' } });
  return links.map((l) => ({
    token: l.token.id, from: l.validFrom?.toISOString() ?? null, until: l.validUntil?.toISOString() ?? null, defunct: l.defunct,
  }));
}

test('a plan correction splits the subscription, moves links and credit', async (t) => {
  const sub = await insertTokenSubscription(app, adminId, {
    buyerReference: 'PO-7', customFields: { tier: 'gold' }, externalReference: `sub-${randomUUID()}`,
    validUntil: new Date('2027-01-01T00:00:00Z'),
  });
  const newPlan = await insertSubscriptionPlan(app, adminId);
  const [open, ended, future, spanning, defunct] = await Promise.all([1, 2, 3, 4, 5].map(() => insertToken(app, adminId)));
  await insertTokenLink(app, adminId, sub.id, open.id);
  await insertTokenLink(app, adminId, sub.id, ended.id, { validUntil: new Date('2026-02-01T00:00:00Z') });
  await insertTokenLink(app, adminId, sub.id, future.id, { validFrom: new Date('2026-04-01T00:00:00Z') });
  await insertTokenLink(app, adminId, sub.id, spanning.id, { validFrom: new Date('2026-02-01T00:00:00Z'), validUntil: new Date('2026-05-01T00:00:00Z') });
  await insertTokenLink(app, adminId, sub.id, defunct.id, { defunct: true });
  await app.request('POST', `/main/v1/msp-token-subscription/${sub.id}/monetary-credit`, { body: { amount: '7.25' } });

  const response = await app.request('POST', correctionPath(sub.id), {
    body: { valid_from: '2026-03-01T01:00:00+01:00', new_plan_id: newPlan.id, recurring_cost_correction: true },
  });
  t.is(response.status, 200, JSON.stringify(response.body));
  const { old_subscription: old, new_subscription: created, correction } = response.body;
  t.is(old.id, sub.id);
  t.is(old.valid_until, T);
  t.is(old.plan_id, sub.planId);
  t.is(old.monetary_credit_balance, '0.00');
  t.not(created.id, sub.id);
  t.like(created, {
    admin_id: adminId, customer_id: sub.customerId, plan_id: newPlan.id, buyer_reference: 'PO-7',
    valid_from: T, valid_until: '2027-01-01T00:00:00.000Z', external_reference: null, monetary_credit_balance: '7.25',
  });
  t.deepEqual(created.custom_fields, { tier: 'gold' });
  t.like(correction, { valid_from: T, recurring_cost_correction: true });
  t.deepEqual(created.links.map((l: { evco_id: string }) => l.evco_id), [open.evcoId, future.evcoId, spanning.evcoId]);

  t.deepEqual(await linksOf(sub.id), [
    { token: open.id, from: null, until: T, defunct: false },
    { token: ended.id, from: null, until: '2026-02-01T00:00:00.000Z', defunct: false },
    { token: future.id, from: '2026-04-01T00:00:00.000Z', until: null, defunct: true },
    { token: spanning.id, from: '2026-02-01T00:00:00.000Z', until: T, defunct: false },
    { token: defunct.id, from: null, until: null, defunct: true },
  ]);
  t.deepEqual(await linksOf(created.id), [
    { token: open.id, from: T, until: null, defunct: false },
    { token: future.id, from: '2026-04-01T00:00:00.000Z', until: null, defunct: false },
    { token: spanning.id, from: T, until: '2026-05-01T00:00:00.000Z', defunct: false },
  ]);

  const em = scopedEm(app.orm);
  const moves = await em.find(MonetaryCredit, { subscription: { $in: [sub.id, created.id] } }, { orderBy: { id: 'asc' } });
  t.deepEqual(moves.map((m) => [m.subscription.id, m.kind, m.amount]), [
    [sub.id, 'grant', '7.250000'], [sub.id, 'correction', '-7.250000'], [created.id, 'grant', '7.250000'],
  ]);

  const fetched = await app.request('GET', `/main/v1/msp-token-subscription/${created.id}`);
  t.is(fetched.status, 200);
  t.is(fetched.body.plan_id, newPlan.id);
});

test('a customer correction by external reference, with a new external reference', async (t) => {
  const sub = await insertTokenSubscription(app, adminId);
  const customer = await createCustomer(app, adminId);
  const reference = `corr-${randomUUID()}`;
  const response = await app.request('POST', correctionPath(sub.id), {
    body: { valid_from: T, new_customer_external_reference: customer.external_reference, new_external_reference: reference },
  });
  t.is(response.status, 200, JSON.stringify(response.body));
  t.is(response.body.new_subscription.customer_id, customer.id);
  t.is(response.body.new_subscription.plan_id, sub.planId);
  t.is(response.body.new_subscription.external_reference, reference);
  t.is(response.body.new_subscription.valid_until, null);
  t.is(response.body.correction.recurring_cost_correction, false);

  const again = await insertTokenSubscription(app, adminId);
  const duplicate = await app.request('POST', correctionPath(again.id), {
    body: { valid_from: T, new_customer_id: customer.id, new_external_reference: reference.toUpperCase() },
  });
  t.is(duplicate.status, 400);
  t.is(duplicate.body.code, 'duplicate');
  t.is(duplicate.body.param, '$.new_external_reference');
});

test('the deprecated PUT still works', async (t) => {
  const sub = await insertTokenSubscription(app, adminId);
  const plan = await insertSubscriptionPlan(app, adminId, { externalReference: `plan-${randomUUID()}` });
  const response = await app.request('PUT', correctionPath(sub.id), { body: { valid_from: T, new_plan_id: plan.id } });
  t.is(response.status, 200, JSON.stringify(response.body));
  t.is(response.body.new_subscription.plan_id, plan.id);
});

test('invalid corrections are refused and change nothing', async (t) => {
  const sub = await insertTokenSubscription(app, adminId, { validUntil: new Date('2026-06-01T00:00:00Z') });
  const plan = await insertSubscriptionPlan(app, adminId, { externalReference: `plan-${randomUUID()}` });
  const otherAdmin = await createAdministration(app);
  const foreignPlan = await insertSubscriptionPlan(app, otherAdmin.id);
  const cases: [Record<string, unknown>, string, string?][] = [
    [{ new_plan_id: plan.id }, '$.valid_from'],
    [{ valid_from: 'yesterday', new_plan_id: plan.id }, '$.valid_from'],
    [{ valid_from: '2026-01-01T00:00:00Z', new_plan_id: plan.id }, '$.valid_from'],
    [{ valid_from: '2025-12-01T00:00:00Z', new_plan_id: plan.id }, '$.valid_from'],
    [{ valid_from: '2026-06-01T00:00:00Z', new_plan_id: plan.id }, '$.valid_from'],
    [{ valid_from: T }, '$.new_plan_id'],
    [{ valid_from: T, new_plan_id: sub.planId }, '$.new_plan_id'],
    [{ valid_from: T, new_customer_id: sub.customerId }, '$.new_customer_id'],
    [{ valid_from: T, new_plan_id: plan.id, new_plan_external_reference: 'x' }, '$.new_plan_id'],
    [{ valid_from: T, new_plan_id: randomUUID() }, '$.new_plan_id', 'not_found'],
    [{ valid_from: T, new_plan_external_reference: 'nope' }, '$.new_plan_external_reference', 'not_found'],
    [{ valid_from: T, new_customer_id: 'garbage' }, '$.new_customer_id', 'not_found'],
    [{ valid_from: T, new_plan_id: foreignPlan.id }, '$.new_plan_id'],
    [{ valid_from: T, new_plan_id: plan.id, recurring_cost_correction: 'yes' }, '$.recurring_cost_correction'],
  ];
  for (const [body, param, code] of cases) {
    const response = await app.request('POST', correctionPath(sub.id), { body });
    t.is(response.status, 400, JSON.stringify(body));
    t.is(response.body.param, param, JSON.stringify(body));
    if (code) t.is(response.body.code, code, JSON.stringify(body));
  }
  const unchanged = await app.request('GET', `/main/v1/msp-token-subscription/${sub.id}`);
  t.is(unchanged.body.valid_until, '2026-06-01T00:00:00.000Z');

  const defunct = await insertTokenSubscription(app, adminId, { defunct: true });
  const refused = await app.request('POST', correctionPath(defunct.id), { body: { valid_from: T, new_plan_id: plan.id } });
  t.is(refused.status, 400);
  t.is(refused.body.code, 'subscription_defunct');
});

test('another administration sees nothing', async (t) => {
  const sub = await insertTokenSubscription(app, adminId);
  const plan = await insertSubscriptionPlan(app, adminId);
  const other = await createAdministration(app);
  const outsider = await app.credential({ adminIds: [other.id] });
  const hidden = await app.request('POST', correctionPath(sub.id), { body: { valid_from: T, new_plan_id: plan.id }, auth: outsider });
  t.is(hidden.status, 400);
  t.is(hidden.body.code, 'not_found');

  const insider = await app.credential({ adminIds: [adminId] });
  const foreignCustomer = await createCustomer(app, other.id);
  const invisible = await app.request('POST', correctionPath(sub.id), { body: { valid_from: T, new_customer_id: foreignCustomer.id }, auth: insider });
  t.is(invisible.status, 400);
  t.is(invisible.body.code, 'not_found');
  t.is(invisible.body.param, '$.new_customer_id');
});

// Found by probing (2026-11-29): the correction copied its links as it first read them, without the
// tokens' locks: an end set meanwhile (under the token's lock, as a link update sets it) was lost, and
// the token stayed valid on the successor for good.
test('a link ended while a correction waits for its token: the successor\'s link keeps that end', async (t) => {
  const token = await insertToken(app, adminId);
  const sub = await createTokenSubscription(app, adminId, { valid_from: '2026-01-01T00:00:00Z' });
  const link = await app.request('POST', '/main/v1/msp-token-link', { body: { subscription_id: sub.id, evco_id: token.evcoId } });
  t.is(link.status, 200);
  const plan = await createSubscriptionPlan(app, adminId);
  const db = new pg.Client({ connectionString: app.databaseUrl });
  await db.connect();
  try {
    await db.query('begin');
    await db.query('select id from msp_token where id = $1 for update', [token.id]);
    await db.query(`update msp_token_link set valid_until = '2027-01-01T00:00:00Z' where id = $1`, [link.body.id]);
    const correction = app.request('POST', `/main/v1/msp-token-subscription/${sub.id}/plan-or-customer-correction`, {
      body: { valid_from: '2026-06-01T00:00:00Z', new_plan_id: plan.id },
    });
    for (let i = 0; i < 250 && (await lockWaits(db)) === 0; i++) await new Promise((resolve) => setTimeout(resolve, 20));
    t.true(await lockWaits(db) > 0, 'the correction waits for the token');
    await db.query('commit');
    const corrected = await correction;
    t.is(corrected.status, 200, JSON.stringify(corrected.body));
    const successor = (await app.request('GET', `/main/v1/msp-token-subscription/${corrected.body.new_subscription.id}`)).body;
    t.deepEqual(successor.links.map((l: any) => [l.evco_id, l.valid_until]), [[token.evcoId, '2027-01-01T00:00:00.000Z']], JSON.stringify(successor.links));
  } finally {
    await db.end();
  }
});

// Found by probing (2026-11-29): the old subscription of a correction could be reopened past its
// moment (valid_until cleared or moved later) and the successor moved back before it; both were
// then valid, and billed, for the same days.
const subscriptionPath = (id: string) => `/main/v1/msp-token-subscription/${id}`;

async function feeLines(subscriptionId: string) {
  const rows = await app.orm.em.getConnection().execute<{ period: string; amount: string }[]>(
    `select split_part(subject_id, '/', 2) as period, amount_excl_vat::text as amount from billing_item
     where split_part(subject_id, '/', 1) = ? and not superseded order by occurred_at`, [subscriptionId]);
  return rows.map((r) => `${r.period} ${r.amount}`);
}

async function refusedUnchanged(t: import('ava').ExecutionContext, id: string, body: Record<string, unknown>, param: string) {
  const before = await app.request('GET', subscriptionPath(id));
  const response = await app.request('POST', subscriptionPath(id), { body });
  t.is(response.status, 400, JSON.stringify(body));
  t.like(response.body, { code: 'invalid_input', param }, JSON.stringify(body));
  t.deepEqual((await app.request('GET', subscriptionPath(id))).body, before.body, JSON.stringify(body));
}

test('a corrected subscription does not run past its correction again, nor its successor start before it: each day is billed once', async (t) => {
  await ensureVatRate(app);
  const admin = await createAdministration(app);
  await configureBilling(app, admin.id);
  await createSeries(app, admin.id);
  const fee = (amount: string) => ({ recurring_costs: [{ description: 'Fee', amount_excl_vat: amount, period: 'month' }] });
  const [cheap, dear] = [await createSubscriptionPlan(app, admin.id, fee('10.00')), await createSubscriptionPlan(app, admin.id, fee('20.00'))];
  const customer = await createCustomer(app, admin.id);
  const sub = await createTokenSubscription(app, admin.id, { plan_id: cheap.id, customer_id: customer.id, valid_from: '2026-01-01T00:00:00+01:00' });
  const corrected = await app.request('POST', correctionPath(sub.id), { body: { valid_from: '2026-11-16T00:00:00+01:00', new_plan_id: dear.id } });
  t.is(corrected.status, 200, JSON.stringify(corrected.body));
  const successor = corrected.body.new_subscription.id;

  await refusedUnchanged(t, sub.id, { valid_until: null }, '$.valid_until');
  await refusedUnchanged(t, sub.id, { valid_until: '2026-12-01T00:00:00+01:00' }, '$.valid_until');
  await refusedUnchanged(t, sub.id, { valid_until: '2026-11-16T00:00:01+01:00', recurring_cost_correction: true }, '$.valid_until');
  await refusedUnchanged(t, successor, { valid_from: '2026-11-01T00:00:00+01:00' }, '$.valid_from');
  const put = await app.request('PUT', subscriptionPath(sub.id), { body: { valid_from: '2026-01-01T00:00:00+01:00' } });
  t.like(put, { status: 400, body: { code: 'invalid_input', param: '$.valid_until' } });

  await startCurrentPeriods(scopedEm(app.orm), new Date('2026-11-20T12:00:00Z'));
  t.deepEqual(await feeLines(sub.id), ['2026-11 5.00']);
  t.deepEqual(await feeLines(successor), ['2026-11 10.00']);

  // What the correction leaves free stays free: the old one's start, its end at or before the moment, the successor's end.
  for (const [id, body] of [[sub.id, { valid_from: '2026-02-01T00:00:00+01:00' }], [sub.id, { valid_until: '2026-11-16T00:00:00+01:00' }],
    [successor, { valid_until: '2027-06-01T00:00:00+02:00' }], [successor, { valid_from: '2026-11-16T00:00:00+01:00', buyer_reference: 'PO-9' }]] as const) {
    const response = await app.request('POST', subscriptionPath(id), { body });
    t.is(response.status, 200, JSON.stringify(response.body));
  }
  t.deepEqual(await feeLines(sub.id), ['2026-11 5.00']);
  t.deepEqual(await feeLines(successor), ['2026-11 10.00']);
});

test('a correction binds only live subscriptions, and each correction of a chain binds its own moment', async (t) => {
  const [first, second] = [await insertSubscriptionPlan(app, adminId), await insertSubscriptionPlan(app, adminId)];
  // Corrected at June, then again from March: the March successor runs up to June, where the June one runs on.
  const sub = await insertTokenSubscription(app, adminId, { plan: first.id });
  const june = (await app.request('POST', correctionPath(sub.id), { body: { valid_from: '2026-06-01T00:00:00Z', new_plan_id: second.id } })).body.new_subscription.id;
  const march = (await app.request('POST', correctionPath(sub.id), { body: { valid_from: '2026-03-01T00:00:00Z', new_plan_id: second.id } })).body.new_subscription.id;
  t.like((await app.request('GET', subscriptionPath(march))).body, { valid_from: '2026-03-01T00:00:00.000Z', valid_until: '2026-06-01T00:00:00.000Z' });
  await refusedUnchanged(t, sub.id, { valid_until: '2026-04-01T00:00:00Z' }, '$.valid_until');
  await refusedUnchanged(t, march, { valid_until: null }, '$.valid_until');
  await refusedUnchanged(t, march, { valid_from: '2026-02-01T00:00:00Z' }, '$.valid_from');
  await refusedUnchanged(t, june, { valid_from: '2026-05-01T00:00:00Z' }, '$.valid_from');
  t.is((await app.request('POST', subscriptionPath(march), { body: { valid_until: '2026-05-01T00:00:00Z' } })).status, 200);

  // A later correction of the successor is a correction like any: it then binds the successor's end.
  const july = await app.request('POST', correctionPath(june), { body: { valid_from: '2026-07-01T00:00:00Z', new_plan_id: first.id } });
  t.is(july.status, 200, JSON.stringify(july.body));
  await refusedUnchanged(t, june, { valid_until: null }, '$.valid_until');

  // A defunct side bills nothing: the other one is free again (a correction undone).
  t.is((await app.request('PUT', `${subscriptionPath(july.body.new_subscription.id)}/defunct`)).status, 200);
  t.like((await app.request('POST', subscriptionPath(june), { body: { valid_until: null } })), { status: 200, body: { valid_until: null } });
  t.is((await app.request('PUT', `${subscriptionPath(sub.id)}/defunct`)).status, 200);
  t.like((await app.request('POST', subscriptionPath(march), { body: { valid_from: '2026-01-01T00:00:00Z' } })), { status: 200, body: { valid_from: '2026-01-01T00:00:00.000Z' } });
});
