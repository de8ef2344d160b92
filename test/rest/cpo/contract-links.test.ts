// The CPO contracts answer their EVSE links (spec, "Other resources": CPO subscription and CPO reimbursement
// arrangement carry `links`), as the MSP token subscription embeds its token links: every link, defunct ones too,
// by id, each with the members an embedded token link answers that an EVSE link has (id, evse_uid, valid_from,
// valid_until, defunct), equal to the link's own GET. In the single GET, the list (one query for a page's links),
// every write's answer and the events' data, which equal a GET right after the change; a credential limited to
// administrations sees no link of another administration.
import test from 'ava';
import pg from 'pg';

const { startTestApp } = await import('../../helpers/app.ts');
const { createArrangement, createEvse, createReimbursementPlan, linkEvse } = await import('../../helpers/cpo-factories.ts');
const { createAdministration, createCustomer, okCall } = await import('../../helpers/factories.ts');
const { countQueries } = await import('../../helpers/sql-count.ts');
const { startReceiver, until } = await import('../../helpers/webhook-receiver.ts');
type TestApp = Awaited<ReturnType<typeof startTestApp>>;
type Receiver = Awaited<ReturnType<typeof startReceiver>>;

let app: TestApp;
let receiver: Receiver;
test.before(async () => {
  app = await startTestApp();
  receiver = await startReceiver();
});
test.after.always(async () => { await receiver?.close(); await app?.close(); });

const ok = (method: string, path: string, body?: unknown) => okCall(app, method, path, body);

/** What a contract lists of a link: the members of the link's GET that an embedded MSP token link has too. */
const embedded = (link: Record<string, any>) =>
  ({ id: link.id, evse_uid: link.evse_uid, valid_from: link.valid_from, valid_until: link.valid_until, defunct: link.defunct });

async function sql<T extends pg.QueryResultRow>(text: string, values: unknown[] = []): Promise<T[]> {
  const client = new pg.Client({ connectionString: app.databaseUrl });
  await client.connect();
  try { return (await client.query<T>(text, values)).rows; } finally { await client.end(); }
}

/** An administration with a customer, a CPO subscription plan and `evses` EVSEs. */
async function world(evses = 3) {
  const admin = (await createAdministration(app)).id;
  const customer = await createCustomer(app, admin);
  const plan = await ok('POST', '/cpo-subscription-plan', { admin_id: admin, name: 'Hosting' });
  const uids: string[] = [];
  for (let i = 0; i < evses; i++) uids.push((await createEvse(app, admin)).evse_uid);
  return { admin, customer, plan, uids };
}

const newSubscription = (w: { customer: { id: string }; plan: { id: string } }, fields: Record<string, unknown> = {}) =>
  ok('POST', '/cpo-subscription', { customer_id: w.customer.id, plan_id: w.plan.id, valid_from: '2026-01-01T00:00:00Z', ...fields });
const linkSubscription = (subscriptionId: string, evseUid: string, fields: Record<string, unknown> = {}) =>
  ok('POST', '/cpo-subscription-evse-link', { subscription_id: subscriptionId, evse_uid: evseUid, ...fields });

test.serial('CPO subscriptions: each answers its own links by id (defunct ones too, [] without), single and list, one query for a page\'s links', async (t) => {
  const w = await world(4);
  const first = await newSubscription(w);
  const second = await newSubscription(w);
  const none = await newSubscription(w);
  t.deepEqual(first.links, [], 'a create answers its (no) links');
  const a = await linkSubscription(first.id, w.uids[0]);
  const b = await linkSubscription(first.id, w.uids[1], { valid_from: '2026-03-01T00:00:00Z', valid_until: '2026-06-01T00:00:00Z' });
  const c = await linkSubscription(second.id, w.uids[2]);
  const gone = await linkSubscription(second.id, w.uids[3]);
  await ok('PUT', `/cpo-subscription-evse-link/${gone.id}/defunct`);
  const linkGet = async (id: string) => embedded(await ok('GET', `/cpo-subscription-evse-link/${id}`));

  const one = await ok('GET', `/cpo-subscription/${first.id}`);
  t.deepEqual(one.links, [await linkGet(a.id), await linkGet(b.id)]);
  t.deepEqual(one.links.map((l: any) => l.id), [a.id, b.id].sort(), 'by id');
  t.deepEqual(Object.keys(one).slice(-3), ['links', 'created_at', 'updated_at'], 'after external_updated_at, as the MSP subscription\'s');
  const two = await ok('GET', `/cpo-subscription/${second.id}`);
  t.deepEqual(two.links, [await linkGet(c.id), await linkGet(gone.id)]);
  t.true(two.links[1].defunct, 'a defunct link is listed');
  t.deepEqual((await ok('GET', `/cpo-subscription/${none.id}`)).links, []);

  // A list page of several subscriptions: each with its own links, none of another's; the next page too.
  const page = await ok('GET', `/cpo-subscription?customer_id=${w.customer.id}&page_size=2`);
  t.deepEqual(page.items, [one, two]);
  const rest = await ok('GET', `/cpo-subscription?customer_id=${w.customer.id}&page_size=2&after=${second.id}`);
  t.deepEqual(rest.items, [await ok('GET', `/cpo-subscription/${none.id}`)]);

  // One query for a page's links: a page of 3 costs what a page of 1 does.
  await ok('GET', '/cpo-subscription?page_size=1'); // authenticates (the credential is then cached)
  const statements = async (size: number) => (await countQueries(app.orm, () => ok('GET', `/cpo-subscription?customer_id=${w.customer.id}&page_size=${size}`))).length;
  t.is(await statements(3), await statements(1));
  const queries = await countQueries(app.orm, () => ok('GET', `/cpo-subscription?customer_id=${w.customer.id}&page_size=3`));
  t.is(queries.filter((q) => /from "cpo_subscription_evse_link"/.test(q)).length, 1, queries.join('\n'));
});

test.serial('reimbursement arrangements: each answers its own links by id (defunct ones too, [] without), one query for them', async (t) => {
  const w = await world(3);
  const first = await createArrangement(app, w.admin, w.customer.id);
  const second = await createArrangement(app, w.admin, w.customer.id);
  t.deepEqual(first.links, [], 'a create answers its (no) links');
  const a = await linkEvse(app, first.id, w.uids[0]);
  const b = await linkEvse(app, first.id, w.uids[1], { valid_from: '2026-02-01T00:00:00Z' });
  const c = await linkEvse(app, second.id, w.uids[2]);
  await ok('PUT', `/cpo-reimbursement-link/${b.id}/defunct`);
  const listed = async (arrangementId: string) => (await ok('GET', `/cpo-reimbursement-link?arrangement_id=${arrangementId}`)).items.map(embedded);

  const one = await ok('GET', `/cpo-reimbursement-arrangement/${first.id}`);
  t.deepEqual(one.links, await listed(first.id));
  t.deepEqual(one.links.map((l: any) => [l.id, l.evse_uid, l.defunct]), [[a.id, w.uids[0], false], [b.id, w.uids[1], true]]);
  t.deepEqual(Object.keys(one).slice(-3), ['links', 'created_at', 'updated_at']);
  const two = await ok('GET', `/cpo-reimbursement-arrangement/${second.id}`);
  t.deepEqual(two.links, await listed(second.id));
  t.deepEqual(two.links.map((l: any) => l.id), [c.id]);
  const empty = await createArrangement(app, w.admin, w.customer.id);
  t.deepEqual((await ok('GET', `/cpo-reimbursement-arrangement/${empty.id}`)).links, []);

  const queries = await countQueries(app.orm, () => ok('GET', `/cpo-reimbursement-arrangement/${first.id}`));
  t.is(queries.filter((q) => /from "cpo_reimbursement_link"/.test(q)).length, 1, queries.join('\n'));
});

test('CPO subscription: a link added, changed, ended and made defunct shows in the next GET and in the writes\' answers', async (t) => {
  const w = await world(2);
  const subscription = await newSubscription(w);
  const link = await linkSubscription(subscription.id, w.uids[0]);
  const links = async () => (await ok('GET', `/cpo-subscription/${subscription.id}`)).links;
  t.deepEqual(await links(), [embedded(link)]);
  const changed = await ok('POST', `/cpo-subscription-evse-link/${link.id}`, { valid_from: '2026-02-01T00:00:00Z' });
  t.deepEqual(await links(), [embedded(changed)]);
  const ended = await ok('PUT', `/cpo-subscription-evse-link/${link.id}/valid-until`, { valid_until: '2026-05-01T00:00:00Z' });
  t.is(ended.valid_until, '2026-05-01T00:00:00.000Z');
  t.deepEqual(await links(), [embedded(ended)]);
  const next = await linkSubscription(subscription.id, w.uids[1]);
  t.deepEqual(await links(), [embedded(ended), embedded(next)]);
  const defunct = await ok('PUT', `/cpo-subscription-evse-link/${next.id}/defunct`);
  t.deepEqual(await links(), [embedded(ended), embedded(defunct)]);

  // The writes of the subscription answer what its GET answers.
  const updated = await ok('POST', `/cpo-subscription/${subscription.id}`, { buyer_reference: 'PO-1' });
  t.deepEqual(updated, await ok('GET', `/cpo-subscription/${subscription.id}`));
  t.is(updated.links.length, 2);
  const gone = await ok('PUT', `/cpo-subscription/${subscription.id}/defunct`);
  t.deepEqual(gone.links.map((l: any) => l.defunct), [true, true], 'defunct cascades to the links, in the answer');
  t.deepEqual(gone, await ok('GET', `/cpo-subscription/${subscription.id}`));
});

test('reimbursement arrangement: a link added, changed, ended and made defunct shows in the next GET and in the writes\' answers', async (t) => {
  const w = await world(2);
  const arrangement = await createArrangement(app, w.admin, w.customer.id);
  const link = await linkEvse(app, arrangement.id, w.uids[0]);
  const links = async () => (await ok('GET', `/cpo-reimbursement-arrangement/${arrangement.id}`)).links;
  t.deepEqual(await links(), [embedded(link)]);
  const ended = await ok('POST', `/cpo-reimbursement-link/${link.id}`, { valid_until: '2026-05-01T00:00:00Z' });
  t.deepEqual(await links(), [embedded(ended)]);
  const next = await linkEvse(app, arrangement.id, w.uids[1]);
  const defunct = await ok('PUT', `/cpo-reimbursement-link/${next.id}/defunct`);
  t.deepEqual(await links(), [embedded(ended), embedded(defunct)]);

  const plan = await createReimbursementPlan(app, w.admin);
  const switched = await ok('POST', `/cpo-reimbursement-arrangement/${arrangement.id}/switch-plan`, { plan_id: plan.id });
  t.deepEqual(switched, await ok('GET', `/cpo-reimbursement-arrangement/${arrangement.id}`));
  const updated = await ok('POST', `/cpo-reimbursement-arrangement/${arrangement.id}`, { buyer_reference: 'PO-2' });
  t.deepEqual(updated, await ok('GET', `/cpo-reimbursement-arrangement/${arrangement.id}`));
  t.is(updated.links.length, 2);
  const gone = await ok('PUT', `/cpo-reimbursement-arrangement/${arrangement.id}/defunct`);
  t.deepEqual(gone.links.map((l: any) => l.defunct), [true, true]);
  t.deepEqual(gone, await ok('GET', `/cpo-reimbursement-arrangement/${arrangement.id}`));
});

test('a credential limited to an administration sees no link of another administration', async (t) => {
  const mine = await world(2);
  const theirs = await world(1);
  const subscription = await newSubscription(mine);
  const arrangement = await createArrangement(app, mine.admin, mine.customer.id);
  const own = [await linkSubscription(subscription.id, mine.uids[0]), await linkEvse(app, arrangement.id, mine.uids[1])];
  // Links of the other administration's contracts.
  const theirSubscription = await newSubscription(theirs);
  const theirArrangement = await createArrangement(app, theirs.admin, theirs.customer.id);
  const foreign = [await linkSubscription(theirSubscription.id, theirs.uids[0]), await linkEvse(app, theirArrangement.id, theirs.uids[0])];
  // And a link row of the other administration under my contracts (no API writes one: an EVSE of the
  // contract's administration only), which the administration filter keeps from a limited credential.
  const stray = [await linkSubscription(subscription.id, mine.uids[1], { valid_from: '2026-07-01T00:00:00Z' }),
    await linkEvse(app, arrangement.id, mine.uids[0], { valid_from: '2026-07-01T00:00:00Z' })];
  await sql('update cpo_subscription_evse_link set admin_id = $1 where id = $2', [theirs.admin, stray[0].id]);
  await sql('update cpo_reimbursement_link set admin_id = $1 where id = $2', [theirs.admin, stray[1].id]);

  const limited = await app.credential({ adminIds: [mine.admin] });
  const get = async (path: string) => {
    const r = await app.request('GET', `/main/v1${path}`, { auth: limited });
    t.is(r.status, 200, `${path}: ${JSON.stringify(r.body)}`);
    return r.body;
  };
  const readSubscription = await get(`/cpo-subscription/${subscription.id}`);
  t.deepEqual(readSubscription.links.map((l: any) => l.id), [own[0].id]);
  const readArrangement = await get(`/cpo-reimbursement-arrangement/${arrangement.id}`);
  t.deepEqual(readArrangement.links.map((l: any) => l.id), [own[1].id]);
  const list = await get('/cpo-subscription?page_size=100');
  t.deepEqual(list.items.map((s: any) => s.id), [subscription.id]);
  t.deepEqual(list.items[0], readSubscription);
  const seen = JSON.stringify([readSubscription, readArrangement, list]);
  for (const link of [...foreign, ...stray]) t.false(seen.includes(link.id), `${link.id} is not shown`);
  for (const path of [`/cpo-subscription/${theirSubscription.id}`, `/cpo-reimbursement-arrangement/${theirArrangement.id}`]) {
    const r = await app.request('GET', `/main/v1${path}`, { auth: limited });
    t.like(r, { status: 400, body: { code: 'not_found' } });
  }
  // An unlimited credential sees every link of the contract.
  t.deepEqual((await ok('GET', `/cpo-subscription/${subscription.id}`)).links.map((l: any) => l.id), [own[0].id, stray[0].id]);
  t.deepEqual((await ok('GET', `/cpo-reimbursement-arrangement/${arrangement.id}`)).links.map((l: any) => l.id), [own[1].id, stray[1].id]);
});

test('the events of both contracts carry what a GET answers right after each change, links included', async (t) => {
  const w = await world(2);
  await ok('POST', '/webhook-subscription', {
    url: `${receiver.url}/contracts`, kinds: ['cpo_subscription', 'cpo_reimbursement_arrangement'], secret: 'whsec-contract-links-0123456789', admin_ids: [w.admin],
  });
  const expected: { kind: string; data: unknown }[] = [];
  const change = async (kind: string, path: string, write: () => Promise<{ id: string }>) => {
    const { id } = await write();
    expected.push({ kind, data: await ok('GET', `${path}/${id}`) });
    return id;
  };

  const subscriptionId = await change('cpo_subscription', '/cpo-subscription', () => newSubscription(w));
  const link = await linkSubscription(subscriptionId, w.uids[0]);
  await change('cpo_subscription', '/cpo-subscription', () => ok('POST', `/cpo-subscription/${subscriptionId}`, { buyer_reference: 'PO-3' }));
  await ok('POST', `/cpo-subscription-evse-link/${link.id}`, { valid_until: '2026-09-01T00:00:00Z' });
  await change('cpo_subscription', '/cpo-subscription', () => ok('PUT', `/cpo-subscription/${subscriptionId}/valid-until`, { valid_until: '2026-12-01T00:00:00Z' }));
  await change('cpo_subscription', '/cpo-subscription', () => ok('PUT', `/cpo-subscription/${subscriptionId}/defunct`));

  const arrangementId = await change('cpo_reimbursement_arrangement', '/cpo-reimbursement-arrangement', () => createArrangement(app, w.admin, w.customer.id));
  await linkEvse(app, arrangementId, w.uids[1]);
  const plan = await createReimbursementPlan(app, w.admin);
  await change('cpo_reimbursement_arrangement', '/cpo-reimbursement-arrangement',
    () => ok('POST', `/cpo-reimbursement-arrangement/${arrangementId}/switch-plan`, { plan_id: plan.id }));
  await change('cpo_reimbursement_arrangement', '/cpo-reimbursement-arrangement', () => ok('PUT', `/cpo-reimbursement-arrangement/${arrangementId}/defunct`));

  await until(() => receiver.on('/contracts').length >= expected.length, () => `${expected.length} deliveries, ${receiver.on('/contracts').length} so far`);
  const delivered = receiver.on('/contracts').map((d) => ({ kind: d.body.kind, data: d.body.data }));
  t.deepEqual(delivered, expected);
  t.deepEqual(delivered.map((d: any) => d.data.links.length), [0, 1, 1, 1, 0, 1, 1]);
  t.true((delivered[3].data as any).links[0].defunct, 'the defunct cascade is in the event');
});
