// REST GET /customer and GraphQL `customers` read one query (src/parties/customer.queries.ts):
// the same ids in the same order, and the REST `after` keys are the Relay cursors.
import test from 'ava';
import { startTestApp, type TestApp } from '../../helpers/app.ts';
import { createAdministration } from '../../helpers/factories.ts';
import { data } from '../../schema/graphql.ts';
import { seedCustomers } from '../../schema/parties.ts';
import { graphQlPagesBackwards, restPages } from '../../helpers/seek-pages.ts';

let app: TestApp;
test.before(async () => { app = await startTestApp(); });
test.after.always(async () => { await app?.close(); });

const PAGE = `query ($admin: ID, $first: Int, $after: String) {
  customers(adminId: $admin, first: $first, after: $after) { edges { cursor node { databaseId adminId } } pageInfo { hasNextPage endCursor } }
}`;

const afterOf = (linkNext: string) => new URLSearchParams(linkNext.split('?')[1]).get('after');

test('REST pages and GraphQL pages are the same pages, REST after = cursor', async (t) => {
  const admin = (await createAdministration(app)).id;
  const ids = await seedCustomers(app, admin, 5);
  let restAfter: string | null = null;
  let cursor: string | null = null;
  const restIds: string[] = [];
  const graphIds: string[] = [];
  for (let page = 0; page < 3; page++) {
    const rest = await app.request('GET', `/main/v1/customer?admin_id=${admin}&page_size=2${restAfter ? `&after=${restAfter}` : ''}`);
    t.is(rest.status, 200);
    const graph: any = (await data(app, PAGE, { admin, first: 2, after: cursor })).customers;
    t.deepEqual(graph.edges.map((e: any) => e.node.databaseId), rest.body.items.map((c: any) => c.id));
    t.deepEqual(graph.edges.map((e: any) => e.cursor), rest.body.items.map((c: any) => c.id), 'cursors are the REST keys');
    t.true(graph.edges.every((e: any) => e.node.adminId === admin));
    t.is(graph.pageInfo.hasNextPage, rest.body.link_next !== undefined);
    restIds.push(...rest.body.items.map((c: any) => c.id));
    graphIds.push(...graph.edges.map((e: any) => e.node.databaseId));
    if (!rest.body.link_next) break;
    restAfter = afterOf(rest.body.link_next);
    cursor = graph.pageInfo.endCursor;
    t.is(cursor, restAfter);
  }
  t.deepEqual(restIds, ids);
  t.deepEqual(graphIds, ids);
});

test('a credential limited to one administration sees no customer of another, through either transport', async (t) => {
  const mine = (await createAdministration(app)).id;
  const other = (await createAdministration(app)).id;
  const myIds = await seedCustomers(app, mine, 2);
  const otherIds = await seedCustomers(app, other, 2);
  const limited = await app.credential({ adminIds: [mine] });

  const rest = await app.request('GET', '/main/v1/customer', { auth: limited });
  t.deepEqual(rest.body.items.map((c: any) => c.id), myIds);
  t.deepEqual((await app.request('GET', `/main/v1/customer?admin_id=${other}`, { auth: limited })).body.items, []);
  const afterOther = await app.request('GET', `/main/v1/customer?after=${otherIds[0]}`, { auth: limited });
  t.like(afterOther.body, { code: 'not_found', query_param: 'after' });

  const graph = (await data(app, PAGE, { first: 50 }, limited)).customers;
  t.deepEqual(graph.edges.map((e: any) => e.node.databaseId), myIds);
  t.deepEqual((await data(app, PAGE, { admin: other, first: 50 }, limited)).customers.edges, []);
});

// Serial: the other tests of this file create administrations, which would land between the two reads.
test.serial('administrations: REST and GraphQL list the same, in the same order, within the scope', async (t) => {
  const a = (await createAdministration(app)).id;
  const b = (await createAdministration(app)).id;
  const rest = await app.request('GET', '/main/v1/administration');
  const graph = await data(app, '{ administrations { databaseId sellerName } }');
  t.deepEqual(graph.administrations.map((x: any) => x.databaseId), rest.body.items.map((x: any) => x.id));
  t.deepEqual(graph.administrations.map((x: any) => x.sellerName), rest.body.items.map((x: any) => x.seller_name));
  t.true(rest.body.items.some((x: any) => x.id === a));

  const limited = await app.credential({ adminIds: [b] });
  t.deepEqual((await app.request('GET', '/main/v1/administration', { auth: limited })).body.items.map((x: any) => x.id), [b]);
  t.deepEqual((await data(app, '{ administrations { databaseId } }', {}, limited)).administrations, [{ databaseId: b }]);
});

test('REST after names any visible customer: the list filters do not apply to that check', async (t) => {
  const a = (await createAdministration(app)).id;
  const b = (await createAdministration(app)).id;
  const [ofA] = await seedCustomers(app, a, 1);
  const response = await app.request('GET', `/main/v1/customer?admin_id=${b}&after=${ofA}`);
  t.is(response.status, 200);
});

test('a credential limited to one administration pages its customers in id order both ways, others before, between and after', async (t) => {
  const mine = (await createAdministration(app)).id;
  const other = (await createAdministration(app)).id;
  const expected: string[] = [];
  for (const admin of [other, mine, other, mine, mine, other]) {
    const [id] = await seedCustomers(app, admin, 1);
    if (admin === mine) expected.push(id);
  }
  const limited = await app.credential({ adminIds: [mine] });
  t.deepEqual(await restPages(app, '/main/v1/customer', limited), expected);
  t.deepEqual(await graphQlPagesBackwards(app, 'customers', limited), expected);
});
