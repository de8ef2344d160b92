// REST GET /rate-plan and GraphQL ratePlans read one query (src/pricing/rate-plan.queries.ts):
// the same visible plans, page by page, the REST `after` keys as the cursors, the currency filter alike.
import test from 'ava';
import { startTestApp, type TestApp } from '../../helpers/app.ts';
import { createAdministration } from '../../helpers/factories.ts';
import { createRatePlan, SIMPLE_RATES } from '../../helpers/session-factories.ts';
import { data } from '../../schema/graphql.ts';

let app: TestApp;
let limited: Awaited<ReturnType<TestApp['credential']>>;
test.before(async () => {
  app = await startTestApp();
  const a = (await createAdministration(app)).id;
  const b = (await createAdministration(app)).id;
  for (let i = 0; i < 3; i++) await createRatePlan(app, [{ valid_from: '2026-01-01T00:00:00Z', definition: SIMPLE_RATES }], [a]);
  for (let i = 0; i < 2; i++) await createRatePlan(app, [{ valid_from: '2026-01-01T00:00:00Z', definition: SIMPLE_RATES }], [b]);
  limited = await app.credential({ role: 'readonly', adminIds: [a] });
});
test.after.always(async () => { await app?.close(); });

const PAGE = `query ($after: String, $currency: String) {
  ratePlans(first: 2, after: $after, currency: $currency) { edges { cursor node { databaseId } } pageInfo { hasNextPage endCursor } }
}`;

for (const [who, currency] of [['the instance credential', undefined], ['a credential of one administration', 'EUR']] as const) {
  test(`REST and GraphQL page the same rate plans for ${who}`, async (t) => {
    const auth = who === 'the instance credential' ? undefined : limited;
    let after: string | null = null;
    const seen: string[] = [];
    for (let page = 0; page < 10; page++) {
      const rest: { status: number; body: any } = await app.request('GET', `/main/v1/rate-plan?page_size=2${currency ? `&currency=${currency}` : ''}${after ? `&after=${after}` : ''}`, { auth });
      t.is(rest.status, 200);
      const graph = (await data(app, PAGE, { after, currency }, auth)).ratePlans;
      t.deepEqual(graph.edges.map((e: any) => e.node.databaseId), rest.body.items.map((p: any) => p.id));
      t.deepEqual(graph.edges.map((e: any) => e.cursor), rest.body.items.map((p: any) => p.id));
      seen.push(...rest.body.items.map((p: any) => p.id));
      if (!rest.body.link_next) break;
      after = new URLSearchParams(rest.body.link_next.split('?')[1]).get('after');
      t.is(graph.pageInfo.endCursor, after);
    }
    t.is(seen.length, auth ? 3 : 5);
  });
}
