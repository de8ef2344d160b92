// REST GET /msp-token-subscription-plan and GraphQL `subscriptionPlans` read one query
// (src/msp/subscription-plan.queries.ts): the same plans, filters and cursors.
import test from 'ava';
import { startTestApp, type TestApp } from '../../helpers/app.ts';
import { createAdministration, createSubscriptionPlan } from '../../helpers/factories.ts';
import { data } from '../../schema/graphql.ts';

let app: TestApp;
let admin: string;
const planIds: string[] = [];
test.before(async () => {
  app = await startTestApp();
  admin = (await createAdministration(app)).id;
  for (let i = 0; i < 3; i++) planIds.push((await createSubscriptionPlan(app, admin)).id);
  await createSubscriptionPlan(app, (await createAdministration(app)).id);
});
test.after.always(async () => { await app?.close(); });

const PAGE = `query ($admin: ID, $after: String) {
  subscriptionPlans(adminId: $admin, first: 2, after: $after) { edges { cursor node { databaseId } } pageInfo { endCursor } }
}`;

test('REST and GraphQL page the same plans of an administration, REST after = cursor', async (t) => {
  const rest = await app.request('GET', `/main/v1/msp-token-subscription-plan?admin_id=${admin}&page_size=2`);
  const graph: any = (await data(app, PAGE, { admin })).subscriptionPlans;
  t.deepEqual(graph.edges.map((e: any) => e.cursor), rest.body.items.map((p: any) => p.id));
  const after = new URLSearchParams(rest.body.link_next.split('?')[1]).get('after');
  t.is(graph.pageInfo.endCursor, after);
  const restNext = await app.request('GET', `/main/v1/msp-token-subscription-plan?admin_id=${admin}&page_size=2&after=${after}`);
  const graphNext: any = (await data(app, PAGE, { admin, after })).subscriptionPlans;
  t.deepEqual(graphNext.edges.map((e: any) => e.node.databaseId), restNext.body.items.map((p: any) => p.id));
  t.deepEqual([...rest.body.items, ...restNext.body.items].map((p: any) => p.id), planIds);
});
