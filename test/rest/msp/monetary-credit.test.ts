import test from 'ava';
import { randomUUID } from 'node:crypto';
import { consumeCredit } from '../../../src/msp/monetary-credit.service.ts';
import { scopedEm } from '../../../src/access/admin-scope.ts';
import { startTestApp, type TestApp } from '../../helpers/app.ts';
import { createAdministration, createSubscriptionPlan, insertTokenSubscription } from '../../helpers/factories.ts';

let app: TestApp;
let adminId: string;
test.before(async () => {
  app = await startTestApp();
  adminId = (await createAdministration(app, { currency: 'EUR' })).id;
});
test.after.always(async () => { await app?.close(); });

const creditPath = (id: string) => `/main/v1/msp-token-subscription/${id}/monetary-credit`;
const credit = (id: string, amount: unknown, extra: Record<string, unknown> = {}) =>
  app.request('POST', creditPath(id), { body: { amount, description: 'test', ...extra } });

test('a grant answers the credit state with the movement', async (t) => {
  const { id } = await insertTokenSubscription(app, adminId);
  const granted = await credit(id, '12.5', { description: 'welcome bonus' });
  t.is(granted.status, 200, JSON.stringify(granted.body));
  t.is(granted.body.subscription_id, id);
  t.is(granted.body.monetary_credit_balance, '12.50');
  t.is(granted.body.currency, 'EUR');
  t.like(granted.body.last_movement, { kind: 'grant', amount: '12.50', balance_after: '12.50', description: 'welcome bonus', subscription_id: id, session_id: null });
  t.regex(granted.body.last_movement.created_at, /Z$/);

  const corrected = await credit(id, '-2.25');
  t.is(corrected.body.monetary_credit_balance, '10.25');
  t.like(corrected.body.last_movement, { kind: 'correction', amount: '-2.25', balance_after: '10.25' });
});

test('exact decimals: 0.1 + 0.2 is 0.30 and 6 decimals are kept', async (t) => {
  const { id } = await insertTokenSubscription(app, adminId);
  await credit(id, '0.1');
  const sum = await credit(id, '0.2');
  t.is(sum.body.monetary_credit_balance, '0.30');
  const fine = await credit(id, '0.000001');
  t.is(fine.body.monetary_credit_balance, '0.300001');
  t.is(fine.body.last_movement.amount, '0.000001');
});

test('the balance never goes below zero', async (t) => {
  const { id } = await insertTokenSubscription(app, adminId);
  await credit(id, '5.00');
  const tooMuch = await credit(id, '-5.01');
  t.is(tooMuch.status, 400);
  t.is(tooMuch.body.code, 'insufficient_credit');
  t.is(tooMuch.body.param, '$.amount');
  const exact = await credit(id, '-5');
  t.is(exact.status, 200);
  t.is(exact.body.monetary_credit_balance, '0.00');
});

test('amounts must be non-zero decimal strings', async (t) => {
  const { id } = await insertTokenSubscription(app, adminId);
  for (const amount of [1.5, '1e3', '1.1234567', 'abc', '0', '-0.00', null]) {
    const response = await credit(id, amount);
    t.is(response.status, 400, `amount ${JSON.stringify(amount)}`);
    t.is(response.body.param, '$.amount', `amount ${JSON.stringify(amount)}`);
  }
  const missing = await app.request('POST', creditPath(id), { body: { description: 'x' } });
  t.is(missing.status, 400);
  t.is(missing.body.param, '$.amount');
  const state = await app.request('GET', creditPath(id));
  t.deepEqual(state.body.items, []);
});

test('20 parallel grants of 0.10 end in exactly 2.00', async (t) => {
  const { id } = await insertTokenSubscription(app, adminId);
  const responses = await Promise.all(Array.from({ length: 20 }, () => credit(id, '0.10')));
  t.true(responses.every((r) => r.status === 200), JSON.stringify(responses.map((r) => r.body)));
  const ledger = await app.request('GET', creditPath(id));
  t.is(ledger.body.items.length, 20);
  t.is(ledger.body.items[19].balance_after, '2.00');
  const balances = ledger.body.items.map((m: { balance_after: string }) => m.balance_after);
  t.deepEqual(balances, Array.from({ length: 20 }, (_, i) => ((i + 1) / 10).toFixed(2)), 'every movement saw the previous one');
});

test('parallel negative corrections never drive the balance below zero', async (t) => {
  const { id } = await insertTokenSubscription(app, adminId);
  await credit(id, '1.00');
  const responses = await Promise.all(Array.from({ length: 8 }, () => credit(id, '-0.30')));
  t.is(responses.filter((r) => r.status === 200).length, 3);
  t.true(responses.filter((r) => r.status !== 200).every((r) => r.status === 400 && r.body.code === 'insufficient_credit'));
  const last = await credit(id, '0.01');
  t.is(last.body.monetary_credit_balance, '0.11');
});

test('the deprecated PUT still works', async (t) => {
  const { id } = await insertTokenSubscription(app, adminId);
  const response = await app.request('PUT', creditPath(id), { body: { amount: '3.00' } });
  t.is(response.status, 200, JSON.stringify(response.body));
  t.is(response.body.monetary_credit_balance, '3.00');
  t.is(response.body.last_movement.description, null);
});

test('the ledger is paged, oldest first', async (t) => {
  const { id } = await insertTokenSubscription(app, adminId);
  for (const amount of ['1', '2', '3']) await credit(id, amount);
  const first = await app.request('GET', `${creditPath(id)}?page_size=2`);
  t.is(first.status, 200);
  t.deepEqual(first.body.items.map((m: { amount: string }) => m.amount), ['1.00', '2.00']);
  t.truthy(first.body.link_next);
  const second = await app.request('GET', first.body.link_next);
  t.deepEqual(second.body.items.map((m: { amount: string }) => m.amount), ['3.00']);
  t.is(second.body.link_next, undefined);
});

test('unknown and out-of-scope subscriptions are not_found; readonly may only read', async (t) => {
  const { id } = await insertTokenSubscription(app, adminId);
  const missing = await credit(randomUUID(), '1.00');
  t.is(missing.status, 400);
  t.is(missing.body.code, 'not_found');
  const garbage = await credit('not-an-id', '1.00');
  t.is(garbage.body.code, 'not_found');

  const other = await createAdministration(app);
  const outsider = await app.credential({ adminIds: [other.id] });
  const hidden = await app.request('POST', creditPath(id), { body: { amount: '1.00' }, auth: outsider });
  t.is(hidden.status, 400);
  t.is(hidden.body.code, 'not_found');
  const hiddenList = await app.request('GET', creditPath(id), { auth: outsider });
  t.is(hiddenList.body.code, 'not_found');

  const reader = await app.credential({ role: 'readonly' });
  t.is((await app.request('POST', creditPath(id), { body: { amount: '1.00' }, auth: reader })).status, 403);
  t.is((await app.request('GET', creditPath(id), { auth: reader })).status, 200);
  const ledger = await app.request('GET', creditPath(id));
  t.deepEqual(ledger.body.items, []);
});

test('energy credits were removed: 404', async (t) => {
  const { id } = await insertTokenSubscription(app, adminId);
  for (const method of ['GET', 'POST', 'PUT', 'DELETE']) {
    const response = await app.request(method, `/main/v1/msp-token-subscription/${id}/energy-credit`, method === 'GET' ? {} : { body: { amount: '1.00' } });
    t.is(response.status, 404, `${method} energy-credit`);
  }
});

test('consumeCredit takes min(balance, wanted), once per session', async (t) => {
  const { id } = await insertTokenSubscription(app, adminId);
  await credit(id, '5.00');
  const sessionA = randomUUID();
  const first = await consumeCredit(scopedEm(app.orm), id, '3.5', sessionA);
  t.deepEqual(first, { consumed: '3.50', balanceAfter: '1.50' });
  const again = await consumeCredit(scopedEm(app.orm), id, '1.00', sessionA);
  t.deepEqual(again, first, 'the same session consumes nothing more');

  const sessionB = randomUUID();
  const capped = await consumeCredit(scopedEm(app.orm), id, '4.123456', sessionB);
  t.deepEqual(capped, { consumed: '1.50', balanceAfter: '0.00' });
  const empty = await consumeCredit(scopedEm(app.orm), id, '2', randomUUID());
  t.deepEqual(empty, { consumed: '0.00', balanceAfter: '0.00' });

  await credit(id, '10');
  t.deepEqual(await consumeCredit(scopedEm(app.orm), id, '9', sessionB), capped, 'a later grant does not change an earlier answer');

  const ledger = await app.request('GET', creditPath(id));
  const consumptions = ledger.body.items.filter((m: { kind: string }) => m.kind === 'consumption');
  t.deepEqual(consumptions.map((m: { amount: string; session_id: string }) => [m.amount, m.session_id]), [['-3.50', sessionA], ['-1.50', sessionB], ['0.00', consumptions[2].session_id]]);
});

test('parallel consumptions of one session consume once', async (t) => {
  const { id } = await insertTokenSubscription(app, adminId);
  await credit(id, '10.00');
  const session = randomUUID();
  const results = await Promise.all(Array.from({ length: 5 }, () => consumeCredit(scopedEm(app.orm), id, '2.00', session)));
  t.true(results.every((r) => r.consumed === '2.00' && r.balanceAfter === '8.00'));
  const state = await credit(id, '0.01');
  t.is(state.body.monetary_credit_balance, '8.01');
});

test('a balance beyond what the ledger holds (numeric(20,6)) is 400 credit_limit at $.amount and changes nothing', async (t) => {
  const { id } = await insertTokenSubscription(app, adminId);
  t.is((await credit(id, '99999999999999')).status, 200);
  const over = await credit(id, '99999999999999');
  t.is(over.status, 400, JSON.stringify(over.body));
  t.like(over.body, { code: 'credit_limit', param: '$.amount' });
  const toTheTop = await credit(id, '0.999999');
  t.is(toTheTop.status, 200, 'the largest balance the column holds is kept');
  t.is(toTheTop.body.monetary_credit_balance, '99999999999999.999999');
  const oneMore = await credit(id, '0.000001');
  t.like(oneMore.body, { code: 'credit_limit', param: '$.amount' });
  const ledger = await app.request('GET', creditPath(id));
  t.deepEqual(ledger.body.items.map((m: { balance_after: string }) => m.balance_after), ['99999999999999.00', '99999999999999.999999']);
});

test('a defunct subscription gets no grant (subscription_defunct); a negative correction still clears its credit', async (t) => {
  const { id } = await insertTokenSubscription(app, adminId);
  await credit(id, '5.00');
  t.is((await app.request('PUT', `/main/v1/msp-token-subscription/${id}/defunct`, { body: {} })).status, 200);
  const grant = await credit(id, '1.00');
  t.is(grant.status, 400, JSON.stringify(grant.body));
  t.is(grant.body.code, 'subscription_defunct');
  const cleared = await credit(id, '-5.00');
  t.is(cleared.status, 200, JSON.stringify(cleared.body));
  t.is(cleared.body.monetary_credit_balance, '0.00');
  const ledger = await app.request('GET', creditPath(id));
  t.deepEqual(ledger.body.items.map((m: { amount: string }) => m.amount), ['5.00', '-5.00']);
});

// Found by probing (2026-11-29): the move is made once, so a grant after it stayed where no session is priced.
test('a subscription whose credit a correction moved on takes no grant (subscription_not_current naming the successor); the successor does', async (t) => {
  const { id } = await insertTokenSubscription(app, adminId);
  await credit(id, '10.00');
  const plan = await createSubscriptionPlan(app, adminId);
  const corrected = await app.request('POST', `/main/v1/msp-token-subscription/${id}/plan-or-customer-correction`, {
    body: { valid_from: '2026-06-01T00:00:00Z', new_plan_id: plan.id },
  });
  t.is(corrected.status, 200, JSON.stringify(corrected.body));
  const successor = corrected.body.new_subscription.id;
  const grant = await credit(id, '25.00');
  t.is(grant.status, 400, JSON.stringify(grant.body));
  t.is(grant.body.code, 'subscription_not_current');
  t.true(grant.body.message.includes(successor));
  const moved = await credit(successor, '25.00');
  t.is(moved.status, 200, JSON.stringify(moved.body));
  t.is(moved.body.monetary_credit_balance, '35.00', 'the 10.00 moved, and the grant');
});
