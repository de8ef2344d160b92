import test from 'ava';
import { randomUUID } from 'node:crypto';
import { MonetaryCredit } from '../../../src/msp/monetary-credit.entity.ts';
import { TokenLink } from '../../../src/msp/token-link.entity.ts';
import { scopedEm } from '../../../src/access/admin-scope.ts';
import { startTestApp, type TestApp } from '../../helpers/app.ts';
import {
  createAdministration, createCustomer, insertSubscriptionPlan, insertToken, insertTokenLink, insertTokenSubscription,
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
