import test from 'ava';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { createAdministration } from '../helpers/factories.ts';
import { data, graphql } from './graphql.ts';
import { seedSubscriptions } from './msp.ts';
import { seedCustomers } from './parties.ts';

let app: TestApp;
test.before(async () => { app = await startTestApp(); });
test.after.always(async () => { await app?.close(); });

test('a credential limited to another administration sees none of the MSP records', async (t) => {
  const adminId = (await createAdministration(app)).id;
  const [customerId] = await seedCustomers(app, adminId, 1);
  const [seeded] = await seedSubscriptions(app, adminId, [customerId], { subscriptions: 1, links: 1 });
  const evcoId = seeded.links[0].evcoId;
  const ids = (await data(app, `query ($id: ID!, $e: String!) {
    tokenSubscription(id: $id) { id plan { id } tokenLinks { edges { node { id } } } }
    token(evcoId: $e) { id }
  }`, { id: seeded.id, e: evcoId }));
  const globalIds = [ids.tokenSubscription.id, ids.tokenSubscription.plan.id, ids.tokenSubscription.tokenLinks.edges[0].node.id, ids.token.id];

  const other = (await createAdministration(app)).id;
  const [visibleCustomer] = await seedCustomers(app, other, 1);
  const [visible] = await seedSubscriptions(app, other, [visibleCustomer], { subscriptions: 1, links: 1 });
  const scoped = await app.credential({ adminIds: [other] });

  const response = await graphql(app, `query ($ids: [ID!]!, $id: ID!, $e: String!, $admin: ID!) {
    node(id: $id) { id }
    nodes(ids: $ids) { id }
    tokenSubscription(id: $id) { id }
    token(evcoId: $e) { id }
    tokens { edges { node { evcoId links { edges { node { subscription { databaseId } } } } } } }
    subscriptionPlans { edges { node { databaseId } } }
    foreignPlans: subscriptionPlans(adminId: $admin) { edges { node { databaseId } } }
    customers { edges { node { subscriptions(first: 10) { edges { node { databaseId tokenLinks(first: 10) { edges { node { evcoId } } } } } } } } }
  }`, { ids: globalIds, id: globalIds[0], e: evcoId, admin: adminId }, scoped);
  t.is(response.status, 200);
  t.falsy(response.body.errors);
  const result = response.body.data!;
  t.is(result.node, null);
  t.deepEqual(result.nodes, [null, null, null, null]);
  t.is(result.tokenSubscription, null);
  t.is(result.token, null);
  t.deepEqual(result.tokens.edges, [{ node: { evcoId: visible.links[0].evcoId, links: { edges: [{ node: { subscription: { databaseId: visible.id } } }] } } }]);
  t.deepEqual(result.subscriptionPlans.edges, [{ node: { databaseId: visible.planId } }]);
  t.deepEqual(result.foreignPlans.edges, []);
  t.deepEqual(result.customers.edges, [{ node: { subscriptions: { edges: [{ node: { databaseId: visible.id, tokenLinks: { edges: [{ node: { evcoId: visible.links[0].evcoId } }] } } }] } } }]);

  const mutations = await graphql(app, `mutation ($id: ID!, $e: String!) {
    blockTokenChargeAuthRequests(evcoId: $e) { evcoId }
    addMonetaryCredit(subscriptionId: $id, amount: "5") { databaseId }
    defunctTokenSubscription(id: $id) { databaseId }
  }`, { id: seeded.id, e: evcoId }, scoped);
  t.deepEqual(mutations.body.data, { blockTokenChargeAuthRequests: null, addMonetaryCredit: null, defunctTokenSubscription: null });
  t.deepEqual(mutations.body.errors?.map((e) => e.extensions?.code), ['not_found', 'not_found', 'not_found']);

  const untouched = await data(app, `query ($id: ID!, $e: String!) {
    tokenSubscription(id: $id) { defunct monetaryCreditBalance } token(evcoId: $e) { chargeAuthRequestsBlocked } }`, { id: seeded.id, e: evcoId });
  t.deepEqual(untouched, { tokenSubscription: { defunct: false, monetaryCreditBalance: '0.00' }, token: { chargeAuthRequestsBlocked: false } });
});
