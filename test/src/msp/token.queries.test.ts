// REST GET /msp-token and GraphQL `tokens` read one query (src/msp/token.queries.ts): the same
// tokens in evco_id order with the same `used` filter, and the REST `after` keys are the cursors.
import test from 'ava';
import { startTestApp, type TestApp } from '../../helpers/app.ts';
import { createAdministration, insertToken } from '../../helpers/factories.ts';
import { data } from '../../schema/graphql.ts';

let app: TestApp;
let limited: Awaited<ReturnType<TestApp['credential']>>;
test.before(async () => {
  app = await startTestApp();
  const admin = (await createAdministration(app)).id;
  for (let i = 0; i < 5; i++) await insertToken(app, admin, i % 2 ? { firstLinkedAt: new Date('2026-02-01T00:00:00Z') } : {});
  const other = (await createAdministration(app)).id;
  limited = await app.credential({ role: 'readonly', adminIds: [other] });
});
test.after.always(async () => { await app?.close(); });

const PAGE = `query ($used: Boolean, $after: String) {
  tokens(first: 2, used: $used, after: $after) { edges { cursor node { evcoId } } pageInfo { hasNextPage endCursor } }
}`;

const afterOf = (linkNext: string) => new URLSearchParams(linkNext.split('?')[1]).get('after');

for (const used of [undefined, true, false]) {
  test(`REST and GraphQL list the same tokens, page by page (used: ${used})`, async (t) => {
    let restAfter: string | null = null;
    let cursor: string | null = null;
    const seen: string[] = [];
    for (let page = 0; page < 5; page++) {
      const filter = used === undefined ? '' : `&used=${used}`;
      const rest = await app.request('GET', `/main/v1/msp-token?page_size=2${filter}${restAfter ? `&after=${restAfter}` : ''}`);
      t.is(rest.status, 200);
      const graph: any = (await data(app, PAGE, { used, after: cursor })).tokens;
      t.deepEqual(graph.edges.map((e: any) => e.node.evcoId), rest.body.items.map((token: any) => token.evco_id));
      t.deepEqual(graph.edges.map((e: any) => e.cursor), rest.body.items.map((token: any) => token.evco_id), 'cursors are the REST keys');
      t.is(graph.pageInfo.hasNextPage, rest.body.link_next !== undefined);
      seen.push(...rest.body.items.map((token: any) => token.evco_id));
      if (!rest.body.link_next) break;
      restAfter = afterOf(rest.body.link_next);
      cursor = graph.pageInfo.endCursor;
      t.is(cursor, restAfter);
    }
    t.is(seen.length, used === undefined ? 5 : used ? 2 : 3);
    t.deepEqual(seen, [...seen].sort());
  });
}

test('a credential of another administration sees no token through either transport', async (t) => {
  const rest = await app.request('GET', '/main/v1/msp-token', { auth: limited });
  t.deepEqual(rest.body.items, []);
  const graph: any = (await data(app, PAGE, {}, limited)).tokens;
  t.deepEqual(graph.edges, []);
});
