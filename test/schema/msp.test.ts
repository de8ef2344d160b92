import test from 'ava';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { createAdministration, insertSubscriptionPlan, insertToken, insertTokenLink, insertTokenSubscription } from '../helpers/factories.ts';
import { data, graphql } from './graphql.ts';
import { nextEvcoId, seedSubscriptions } from './msp.ts';
import { seedCustomers } from './parties.ts';

let app: TestApp;
let adminId: string;
test.before(async () => {
  app = await startTestApp();
  adminId = (await createAdministration(app)).id;
});
test.after.always(async () => { await app?.close(); });

const PATH = `query ($id: ID!, $after: String, $linksAfter: String) { customer(id: $id) {
  subscriptions(first: 2, after: $after) {
    edges { cursor node {
      databaseId customerId customer { databaseId } plan { databaseId name } adminId
      validFrom validUntil defunct isValid monetaryCreditBalance customFields
      tokenLinks(first: 2, after: $linksAfter) {
        edges { node {
          databaseId evcoId validFrom effectiveValidFrom validUntil defunct isCurrentlyValid subscription { databaseId }
          token { evcoId evcoIdFormatted used formFactor isCurrentlyValid currentAdministration { databaseId }
            links { edges { node { databaseId } } } }
        } }
        pageInfo { hasNextPage endCursor }
      }
    } }
    pageInfo { hasNextPage endCursor }
  }
} }`;

test('customer → subscriptions → tokenLinks → token, paged at every level', async (t) => {
  const [customerId] = await seedCustomers(app, adminId, 1);
  const seeded = await seedSubscriptions(app, adminId, [customerId], { subscriptions: 3, links: 3 });

  const first = (await data(app, PATH, { id: customerId })).customer.subscriptions;
  t.deepEqual(first.edges.map((e: any) => e.node.databaseId), seeded.slice(0, 2).map((s) => s.id));
  t.true(first.pageInfo.hasNextPage);
  const node = first.edges[0].node;
  t.like(node, {
    customerId, customer: { databaseId: customerId }, plan: { databaseId: seeded[0].planId }, adminId,
    validFrom: '2026-01-01T00:00:00.000Z', validUntil: null, defunct: false, isValid: true, monetaryCreditBalance: '0.00', customFields: {},
  });
  const links = node.tokenLinks;
  t.deepEqual(links.edges.map((e: any) => e.node.databaseId), seeded[0].links.slice(0, 2).map((l) => l.id));
  t.true(links.pageInfo.hasNextPage);
  t.is(links.pageInfo.endCursor, seeded[0].links[1].id, 'a cursor is the REST id of the link');
  const link = links.edges[0].node;
  const evcoId = seeded[0].links[0].evcoId;
  t.deepEqual(link, {
    databaseId: seeded[0].links[0].id, evcoId, validFrom: null, effectiveValidFrom: '2026-01-01T00:00:00.000Z', validUntil: null,
    defunct: false, isCurrentlyValid: true, subscription: { databaseId: seeded[0].id },
    token: {
      evcoId, evcoIdFormatted: `${evcoId.slice(0, 2)}-${evcoId.slice(2, 5)}-${evcoId.slice(5, 14)}-${evcoId.slice(14)}`,
      used: true, formFactor: 'CARD', isCurrentlyValid: true, currentAdministration: { databaseId: adminId },
      links: { edges: [{ node: { databaseId: seeded[0].links[0].id } }] },
    },
  });

  const second = (await data(app, PATH, { id: customerId, after: first.pageInfo.endCursor, linksAfter: seeded[2].links[1].id })).customer.subscriptions;
  t.deepEqual(second.edges.map((e: any) => e.node.databaseId), [seeded[2].id]);
  t.false(second.pageInfo.hasNextPage);
  t.deepEqual(second.edges[0].node.tokenLinks.edges.map((e: any) => e.node.evcoId), [seeded[2].links[2].evcoId]);
  t.false(second.edges[0].node.tokenLinks.pageInfo.hasNextPage);
});

test('token(evcoId) takes any notation; tokens are paged by evcoId and filter on used', async (t) => {
  const admin = (await createAdministration(app)).id;
  const scoped = await app.credential({ adminIds: [admin] });
  const [customerId] = await seedCustomers(app, admin, 1);
  const [seeded] = await seedSubscriptions(app, admin, [customerId], { subscriptions: 1, links: 2 });
  const unused = await insertToken(app, admin, { evcoId: nextEvcoId(), uid: '04A1B2C3', uidType: 'rfid_4byte', formFactor: 'keychain' });

  const evcoId = seeded.links[1].evcoId;
  const spelled = `${evcoId.slice(0, 2)}*${evcoId.slice(2, 5)}*${evcoId.slice(5, 14)}*${evcoId.slice(14)}`.toLowerCase();
  const { token } = await data(app, 'query ($e: String!) { token(evcoId: $e) { id evcoId used chargeAuthRequestsBlocked fulfilment initialAdminId } }', { e: spelled }, scoped);
  t.like(token, { evcoId, used: true, chargeAuthRequestsBlocked: false, fulfilment: 'NONE', initialAdminId: admin });
  const missing = await data(app, 'query { a: token(evcoId: "NL-GQL-999999999") { id } b: token(evcoId: "nonsense") { id } }', {}, scoped);
  t.deepEqual(missing, { a: null, b: null });

  const PAGE = 'query ($after: String, $used: Boolean) { tokens(first: 2, after: $after, used: $used) { edges { cursor node { evcoId uid uidType formFactor } } pageInfo { hasNextPage endCursor } } }';
  const all = [...seeded.links.map((l) => l.evcoId), unused.evcoId].sort();
  const page1 = (await data(app, PAGE, {}, scoped)).tokens;
  t.deepEqual(page1.edges.map((e: any) => e.node.evcoId), all.slice(0, 2));
  t.is(page1.edges[1].cursor, all[1]);
  t.true(page1.pageInfo.hasNextPage);
  const page2 = (await data(app, PAGE, { after: page1.pageInfo.endCursor }, scoped)).tokens;
  t.deepEqual(page2.edges.map((e: any) => e.node), [{ evcoId: unused.evcoId, uid: '04A1B2C3', uidType: 'RFID_4BYTE', formFactor: 'KEYCHAIN' }]);
  t.false(page2.pageInfo.hasNextPage);
  t.deepEqual((await data(app, PAGE, { used: false }, scoped)).tokens.edges.map((e: any) => e.node.evcoId), [unused.evcoId]);
  t.deepEqual((await data(app, PAGE, { used: true }, scoped)).tokens.edges.map((e: any) => e.node.evcoId), all.slice(0, 2).filter((e) => e !== unused.evcoId));

  const { node } = await data(app, 'query ($id: ID!) { node(id: $id) { ... on Token { evcoId isCurrentlyValid } } }', { id: token.id }, scoped);
  t.deepEqual(node, { evcoId, isCurrentlyValid: true });
});

test('tokenSubscription(id), subscriptionPlans and node() round trip the MSP nodes', async (t) => {
  const admin = (await createAdministration(app)).id;
  const plans = [
    await insertSubscriptionPlan(app, admin, { recurringCosts: [{ description: 'Card fee', amount_excl_vat: '1.500000', period: 'month' }], externalReference: 'gold' }),
    await insertSubscriptionPlan(app, admin),
  ];
  const subscription = await insertTokenSubscription(app, admin, {
    plan: plans[0].id, buyerReference: 'PO-1', customFields: { cost_center: 7 }, validUntil: new Date('2030-01-01T00:00:00+01:00'),
  });
  const token = await insertToken(app, admin);
  const link = await insertTokenLink(app, admin, subscription.id, token.id, {
    validFrom: new Date('2026-02-01T00:00:00Z'), validUntil: new Date('2026-03-01T00:00:00Z'),
  });

  const SUB = `query ($id: ID!) { tokenSubscription(id: $id) { id databaseId buyerReference validUntil customFields
    administration { databaseId } plan { id name recurringCosts { description amountExclVat period } externalReference useCustomerReimbursementVat publishFrom }
    tokenLinks { edges { node { id validFrom effectiveValidFrom validUntil isCurrentlyValid token { id } } } } } }`;
  const byRest = (await data(app, SUB, { id: subscription.id })).tokenSubscription;
  t.like(byRest, {
    databaseId: subscription.id, buyerReference: 'PO-1', validUntil: '2029-12-31T23:00:00.000Z', customFields: { cost_center: 7 },
    administration: { databaseId: admin },
    plan: { recurringCosts: [{ description: 'Card fee', amountExclVat: '1.50', period: 'MONTH' }], externalReference: 'gold', useCustomerReimbursementVat: false, publishFrom: null },
  });
  const linkNode = byRest.tokenLinks.edges[0].node;
  t.like(linkNode, { validFrom: '2026-02-01T00:00:00.000Z', effectiveValidFrom: '2026-02-01T00:00:00.000Z', validUntil: '2026-03-01T00:00:00.000Z', isCurrentlyValid: false });
  const byGlobal = (await data(app, SUB, { id: byRest.id })).tokenSubscription;
  t.deepEqual(byGlobal, byRest);
  t.is((await data(app, 'query { tokenSubscription(id: "ext_ref.x") { id } }')).tokenSubscription, null);

  const { nodes } = await data(app, `query ($ids: [ID!]!) { nodes(ids: $ids) { __typename
    ... on TokenSubscription { databaseId } ... on TokenLink { databaseId } ... on Token { evcoId } ... on SubscriptionPlan { databaseId } } }`,
  { ids: [byRest.id, linkNode.id, linkNode.token.id, byRest.plan.id] });
  t.deepEqual(nodes, [
    { __typename: 'TokenSubscription', databaseId: subscription.id },
    { __typename: 'TokenLink', databaseId: link.id },
    { __typename: 'Token', evcoId: token.evcoId },
    { __typename: 'SubscriptionPlan', databaseId: plans[0].id },
  ]);

  const PLANS = 'query ($admin: ID, $after: String) { subscriptionPlans(adminId: $admin, first: 1, after: $after) { edges { node { databaseId } } pageInfo { hasNextPage endCursor } } }';
  const one = (await data(app, PLANS, { admin })).subscriptionPlans;
  t.deepEqual(one.edges.map((e: any) => e.node.databaseId), [plans[0].id]);
  t.true(one.pageInfo.hasNextPage);
  const two = (await data(app, PLANS, { admin, after: one.pageInfo.endCursor })).subscriptionPlans;
  t.deepEqual(two.edges.map((e: any) => e.node.databaseId), [plans[1].id]);
  t.false(two.pageInfo.hasNextPage);
});

test('a link keeps naming a token that moved to an administration the caller may not see', async (t) => {
  const own = (await createAdministration(app)).id;
  const elsewhere = (await createAdministration(app)).id;
  const subscription = await insertTokenSubscription(app, own);
  const token = await insertToken(app, elsewhere, { initialAdmin: own, evcoId: nextEvcoId() });
  await insertTokenLink(app, own, subscription.id, token.id, { validUntil: new Date('2026-02-01T00:00:00Z') });
  const scoped = await app.credential({ adminIds: [own] });

  const { tokenSubscription } = await data(app, `query ($id: ID!) { tokenSubscription(id: $id) {
    tokenLinks { edges { node { evcoId token { evcoId } } } } } }`, { id: subscription.id }, scoped);
  t.deepEqual(tokenSubscription.tokenLinks.edges, [{ node: { evcoId: token.evcoId, token: null } }]);
  const { token: moved } = await data(app, 'query ($e: String!) { token(evcoId: $e) { initialAdministration { databaseId } } }', { e: token.evcoId });
  t.deepEqual(moved, { initialAdministration: { databaseId: own } });
});
