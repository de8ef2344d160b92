// GraphQL CpoSubscription.evseLinks and ReimbursementArrangement.evseLinks, as TokenSubscription.tokenLinks:
// each contract's links (defunct ones too) by id, what REST's links of the contract list, a page of
// contracts' links in the same statements for 1 contract as for 5, and none of another administration.
import test from 'ava';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { createArrangement, createEvse, linkEvse } from '../helpers/cpo-factories.ts';
import { createAdministration, createCustomer, okCall } from '../helpers/factories.ts';
import { countQueries } from '../helpers/sql-count.ts';
import { data } from './graphql.ts';

let app: TestApp;
test.before(async () => { app = await startTestApp(); });
test.after.always(async () => { await app?.close(); });

const ok = (method: string, path: string, body?: unknown) => okCall(app, method, path, body);

const LINK_FIELDS = 'databaseId evseUid validFrom validUntil defunct';
const fromRest = (l: any) => ({ databaseId: l.id, evseUid: l.evse_uid, validFrom: l.valid_from, validUntil: l.valid_until, defunct: l.defunct });
const SUBSCRIPTIONS = `{ cpoSubscriptions(first: 100) { edges { node { databaseId evseLinks(first: 10) { edges { node { ${LINK_FIELDS} } } } } } } }`;
const ARRANGEMENTS = `query ($customer: ID!) { reimbursementArrangements(customerId: $customer, first: 100) { edges { node {
  databaseId evseLinks(first: 10) { edges { node { ${LINK_FIELDS} arrangementId } } } } } } }`;

/** An administration whose customer has `count` CPO subscriptions and arrangements, each with two EVSE links (the second defunct). */
async function seed(count: number) {
  const admin = (await createAdministration(app)).id;
  const customer = await createCustomer(app, admin);
  const plan = await ok('POST', '/cpo-subscription-plan', { admin_id: admin, name: 'Hosting' });
  for (let i = 0; i < count; i++) {
    const subscription = await ok('POST', '/cpo-subscription', { customer_id: customer.id, plan_id: plan.id, valid_from: '2026-01-01T00:00:00Z' });
    const arrangement = await createArrangement(app, admin, customer.id);
    for (let j = 0; j < 2; j++) {
      const evse = await createEvse(app, admin);
      const link = await ok('POST', '/cpo-subscription-evse-link', { subscription_id: subscription.id, evse_uid: evse.evse_uid });
      const reimbursed = await linkEvse(app, arrangement.id, evse.evse_uid);
      if (j === 1) {
        await ok('PUT', `/cpo-subscription-evse-link/${link.id}/defunct`);
        await ok('PUT', `/cpo-reimbursement-link/${reimbursed.id}/defunct`);
      }
    }
  }
  return { admin, customer, auth: await app.credential({ adminIds: [admin] }) };
}

test.serial('evseLinks answer what REST lists as links, in the same statements for 1 contract as for 5; another administration\'s are not shown', async (t) => {
  const small = await seed(1);
  const large = await seed(5);
  for (const world of [small, large]) await data(app, '{ administrations { id } }', {}, world.auth); // authenticates

  const subscriptions = async (world: typeof small) => (await data(app, SUBSCRIPTIONS, {}, world.auth)).cpoSubscriptions.edges.map((e: any) => e.node);
  const arrangements = async (world: typeof small) =>
    (await data(app, ARRANGEMENTS, { customer: world.customer.id }, world.auth)).reimbursementArrangements.edges.map((e: any) => e.node);

  const listed = await subscriptions(large);
  t.is(listed.length, 5, 'the limited credential sees its own administration\'s subscriptions only');
  for (const node of listed) {
    const rest = await ok('GET', `/cpo-subscription/${node.databaseId}`);
    t.deepEqual(node.evseLinks.edges.map((e: any) => e.node), rest.links.map(fromRest));
    t.deepEqual(node.evseLinks.edges.map((e: any) => e.node.defunct), [false, true]);
  }
  const arranged = await arrangements(large);
  t.is(arranged.length, 5);
  for (const node of arranged) {
    const rest = await ok('GET', `/cpo-reimbursement-arrangement/${node.databaseId}`);
    t.deepEqual(node.evseLinks.edges.map((e: any) => { const { arrangementId, ...link } = e.node; t.is(arrangementId, node.databaseId); return link; }),
      rest.links.map(fromRest));
  }
  const seen = JSON.stringify([listed, arranged]);
  for (const node of await subscriptions(small)) for (const e of node.evseLinks.edges) t.false(seen.includes(e.node.databaseId));

  const statements = async (run: () => Promise<unknown>) => (await countQueries(app.orm, run)).length;
  t.is(await statements(() => subscriptions(large)), await statements(() => subscriptions(small)));
  t.is(await statements(() => arrangements(large)), await statements(() => arrangements(small)));

  // A page of links: first 1, then after it.
  const [one] = listed;
  const paged = await data(app, `query ($id: ID!) { node(id: $id) { ... on CpoSubscription { evseLinks(first: 1) { edges { cursor node { databaseId } } pageInfo { hasNextPage } } } } }`,
    { id: (await data(app, '{ cpoSubscriptions(first: 100) { edges { node { id databaseId } } } }', {}, large.auth))
      .cpoSubscriptions.edges.find((e: any) => e.node.databaseId === one.databaseId).node.id }, large.auth);
  t.deepEqual(paged.node.evseLinks.edges.map((e: any) => e.node.databaseId), [one.evseLinks.edges[0].node.databaseId]);
  t.true(paged.node.evseLinks.pageInfo.hasNextPage);
});
