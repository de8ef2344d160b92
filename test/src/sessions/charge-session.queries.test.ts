// REST and GraphQL read sessions, pricing results and drop-out cases through one query each
// (src/sessions/charge-session.queries.ts, dropout-case.queries.ts): the same items, page by page,
// with the REST `after` keys as the cursors.
import test from 'ava';
import { startTestApp, type TestApp } from '../../helpers/app.ts';
import { createAdministration } from '../../helpers/factories.ts';
import { pricedSubscription, processed, sessionBody, submitSession } from '../../helpers/session-factories.ts';
import { data } from '../../schema/graphql.ts';

let app: TestApp;
let subscriptionId: string;
let sessionIds: string[];
test.before(async () => {
  app = await startTestApp();
  const admin = (await createAdministration(app)).id;
  const sub = await pricedSubscription(app, admin);
  subscriptionId = sub.subscriptionId;
  sessionIds = [];
  for (let i = 0; i < 3; i++) sessionIds.push((await submitSession(app, sessionBody(sub.evcoId))).id);
  for (let i = 0; i < 2; i++) sessionIds.push((await submitSession(app, sessionBody(`NL-UNK-C0000000${i}`))).id);
  for (const id of sessionIds) await processed(app, id);
});
test.after.always(async () => { await app?.close(); });

const afterOf = (linkNext: string) => new URLSearchParams(linkNext.split('?')[1]).get('after');

/** Pages both transports with page size 2 and compares ids and cursors; answers every id seen. */
async function pageBoth(t: any, restPath: string, query: string, field: string, variables: Record<string, unknown>): Promise<string[]> {
  let after: string | null = null;
  const seen: string[] = [];
  for (let page = 0; page < 10; page++) {
    const sep = restPath.includes('?') ? '&' : '?';
    const rest = await app.request('GET', `${restPath}${sep}page_size=2${after ? `&after=${after}` : ''}`);
    t.is(rest.status, 200, JSON.stringify(rest.body));
    const graph = (await data(app, query, { ...variables, after }))[field];
    t.deepEqual(graph.edges.map((e: any) => e.node.databaseId), rest.body.items.map((i: any) => i.id));
    t.deepEqual(graph.edges.map((e: any) => e.cursor), rest.body.items.map((i: any) => i.id));
    t.is(graph.pageInfo.hasNextPage, rest.body.link_next !== undefined);
    seen.push(...rest.body.items.map((i: any) => i.id));
    if (!rest.body.link_next) break;
    after = afterOf(rest.body.link_next);
    t.is(graph.pageInfo.endCursor, after);
  }
  return seen;
}

const PAGE = (field: string, args = '', declarations = '') => `query ($after: String${declarations}) {
  ${field}(first: 2, after: $after${args}) { edges { cursor node { databaseId } } pageInfo { hasNextPage endCursor } }
}`;

test('charge sessions: all, and filtered by status and subscription', async (t) => {
  t.deepEqual(await pageBoth(t, '/main/v1/msp-charge-session', PAGE('chargeSessions', ''), 'chargeSessions', {}), sessionIds);
  t.is((await pageBoth(t, '/main/v1/msp-charge-session?status=dropout', PAGE('chargeSessions', ', status: $status', ', $status: ChargeSessionStatus'), 'chargeSessions',
    { status: 'DROPOUT' })).length, 2);
  t.deepEqual(await pageBoth(t, `/main/v1/msp-charge-session?subscription_id=${subscriptionId}`, PAGE('chargeSessions', ', subscriptionId: $subscription', ', $subscription: ID'),
    'chargeSessions', { subscription: subscriptionId }), sessionIds.slice(0, 3));
});

test('pricing results: all, and of one session', async (t) => {
  t.is((await pageBoth(t, '/main/v1/msp-charge-session-priced', PAGE('pricingResults', ''), 'pricingResults', {})).length, 3);
  t.is((await pageBoth(t, `/main/v1/msp-charge-session-priced?charge_session_id=${sessionIds[0]}`, PAGE('pricingResults', ', chargeSessionId: $session', ', $session: ID'),
    'pricingResults', { session: sessionIds[0] })).length, 1);
});

test('drop-out cases: all, and by reason', async (t) => {
  const all = await pageBoth(t, '/main/v1/msp-dropout-case', PAGE('dropoutCases', ''), 'dropoutCases', {});
  t.true(all.length >= 1);
  const reasons = new Map<string, string>();
  for (const id of all) reasons.set(id, (await app.request('GET', `/main/v1/msp-dropout-case/${id}`)).body.reason);
  const reason = reasons.get(all[0])!;
  t.deepEqual(await pageBoth(t, `/main/v1/msp-dropout-case?reason=${reason}`, PAGE('dropoutCases', ', reason: $reason', ', $reason: String'), 'dropoutCases', { reason }),
    all.filter((id) => reasons.get(id) === reason));
});

test('an id filter that is not an id is refused by both transports', async (t) => {
  const rest = await app.request('GET', '/main/v1/msp-charge-session?subscription_id=nope');
  t.is(rest.status, 400);
  const graph = await app.request('POST', '/graphql', { body: { query: PAGE('chargeSessions', ', subscriptionId: $subscription', ', $subscription: ID'), variables: { subscription: 'nope' } } });
  t.truthy(graph.body.errors?.length);
});

test('rows as PostgreSQL answers them (a writer\'s RETURNING rows) shape as the reads do', async (t) => {
  const { chargeSessionDataOfRows, chargeSessionsByIds, pricingResultDataOfRows, pricingResultsByIds } = await import('../../../src/sessions/charge-session.queries.ts');
  const { scopedEm } = await import('../../../src/access/admin-scope.ts');
  const em = scopedEm(app.orm);
  const sessionRows = await em.execute(`select * from msp_charge_session where id = any(?::uuid[]) order by id`, [`{${sessionIds.join(',')}}`]);
  const sessions = chargeSessionDataOfRows(em, sessionRows);
  t.deepEqual(sessions, await chargeSessionsByIds(em, sessionIds));
  const resultRows = await em.execute(`select * from msp_pricing_result where session_id = any(?::uuid[]) order by id`, [`{${sessionIds.join(',')}}`]);
  t.is(resultRows.length, 3);
  const bySession = new Map(sessions.map((s) => [s.id, s]));
  t.deepEqual(pricingResultDataOfRows(em, resultRows, (id) => bySession.get(id)!), await pricingResultsByIds(em, resultRows.map((r) => r.id)));
});
