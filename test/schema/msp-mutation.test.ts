import test from 'ava';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { createAdministration, createCustomer } from '../helpers/factories.ts';
import { data, graphql } from './graphql.ts';
import { seedSubscriptions } from './msp.ts';

let app: TestApp;
let adminId: string;
test.before(async () => {
  app = await startTestApp();
  adminId = (await createAdministration(app)).id;
});
test.after.always(async () => { await app?.close(); });

async function seedOne() {
  const customer = await createCustomer(app, adminId);
  const [subscription] = await seedSubscriptions(app, adminId, [customer.id], { subscriptions: 1, links: 2 });
  return subscription;
}

const BLOCK = 'mutation ($e: String!) { blockTokenChargeAuthRequests(evcoId: $e) { evcoId chargeAuthRequestsBlocked isCurrentlyValid } }';
const UNBLOCK = 'mutation ($e: String!) { unblockTokenChargeAuthRequests(evcoId: $e) { evcoId chargeAuthRequestsBlocked isCurrentlyValid } }';

test('blocking and unblocking a token goes through the token service, like REST', async (t) => {
  const { links: [{ evcoId }] } = await seedOne();
  const dashed = `${evcoId.slice(0, 2)}-${evcoId.slice(2, 5)}-${evcoId.slice(5, 14)}-${evcoId.slice(14)}`;
  const blocked = await data(app, BLOCK, { e: dashed });
  t.deepEqual(blocked.blockTokenChargeAuthRequests, { evcoId, chargeAuthRequestsBlocked: true, isCurrentlyValid: false });
  const rest = await app.request('GET', `/main/v1/msp-token/${evcoId}`);
  t.like(rest.body, { charge_auth_requests_blocked: true, is_currently_valid: false });
  const unblocked = await data(app, UNBLOCK, { e: evcoId.toLowerCase() });
  t.deepEqual(unblocked.unblockTokenChargeAuthRequests, { evcoId, chargeAuthRequestsBlocked: false, isCurrentlyValid: true });

  const missing = await graphql(app, BLOCK, { e: 'NL-GQL-999999999' });
  t.is(missing.status, 200);
  t.is(missing.body.data?.blockTokenChargeAuthRequests, null);
  t.is(missing.body.errors?.[0].extensions?.code, 'not_found');
});

const CREDIT = `mutation ($id: ID!, $amount: String!, $description: String) {
  addMonetaryCredit(subscriptionId: $id, amount: $amount, description: $description) { databaseId monetaryCreditBalance } }`;

test('addMonetaryCredit moves the balance with exact decimals and refuses to go below zero', async (t) => {
  const subscription = await seedOne();
  const granted = await data(app, CREDIT, { id: subscription.id, amount: '12.345678', description: 'Welcome' });
  t.deepEqual(granted.addMonetaryCredit, { databaseId: subscription.id, monetaryCreditBalance: '12.345678' });
  const { tokenSubscription } = await data(app, 'query ($id: ID!) { tokenSubscription(id: $id) { id } }', { id: subscription.id });
  const corrected = await data(app, CREDIT, { id: tokenSubscription.id, amount: '-2.345678' });
  t.is(corrected.addMonetaryCredit.monetaryCreditBalance, '10.00');

  const tooMuch = await graphql(app, CREDIT, { id: subscription.id, amount: '-10.000001' });
  t.like(tooMuch.body.errors?.[0].extensions, { code: 'insufficient_credit', param: '$.amount' });
  const notANumber = await graphql(app, CREDIT, { id: subscription.id, amount: '1e3' });
  t.like(notANumber.body.errors?.[0].extensions, { code: 'invalid_input', param: '$.amount' });
  const longText = await graphql(app, CREDIT, { id: subscription.id, amount: '1', description: 'x'.repeat(256) });
  t.like(longText.body.errors?.[0].extensions, { code: 'validation_failed', param: '$.description' });
  const unknown = await graphql(app, CREDIT, { id: 'nonsense', amount: '1' });
  t.like(unknown.body.errors?.[0].extensions, { code: 'not_found' });

  const movements = await app.request('GET', `/main/v1/msp-token-subscription/${subscription.id}/monetary-credit`);
  t.deepEqual(movements.body.items.map((m: any) => [m.kind, m.amount, m.description]), [
    ['grant', '12.345678', 'Welcome'], ['correction', '-2.345678', null],
  ]);
});

test('defunctTokenSubscription marks the subscription and its links defunct, for good', async (t) => {
  const subscription = await seedOne();
  const DEFUNCT = `mutation ($id: ID!) { defunctTokenSubscription(id: $id) { defunct isValid
    tokenLinks { edges { node { defunct isCurrentlyValid token { isCurrentlyValid } } } } } }`;
  const { defunctTokenSubscription } = await data(app, DEFUNCT, { id: subscription.id });
  t.like(defunctTokenSubscription, { defunct: true, isValid: false });
  t.deepEqual(defunctTokenSubscription.tokenLinks.edges.map((e: any) => e.node), [
    { defunct: true, isCurrentlyValid: false, token: { isCurrentlyValid: false } },
    { defunct: true, isCurrentlyValid: false, token: { isCurrentlyValid: false } },
  ]);
  const again = await data(app, DEFUNCT, { id: subscription.id });
  t.like(again.defunctTokenSubscription, { defunct: true });
});

test('a readonly credential cannot call the MSP mutations', async (t) => {
  const subscription = await seedOne();
  const readonly = await app.credential({ role: 'readonly' });
  const response = await graphql(app, CREDIT, { id: subscription.id, amount: '1' }, readonly);
  t.is(response.status, 403);
  const rest = await app.request('GET', `/main/v1/msp-token-subscription/${subscription.id}`);
  t.is(rest.body.monetary_credit_balance, '0.00');
});
