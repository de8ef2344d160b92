// Events carry the resource as it was when its change committed (decisions.md "Events"): four quick
// renames deliver four names; sessions and their pricing results deliver what their GETs answered
// then; every kind can be subscribed to (drop-out cases included); deliveries record no events, so
// a subscription to every kind hears nothing while nobody changes anything; no secret or ciphertext
// reaches an event or an answer; stored data is dropped after delivery and retention, the audit stays.
import test from 'ava';
import pg from 'pg';

process.env.SVC_WEBHOOK_RETRY_SECONDS = '0.2';

const { startTestApp } = await import('../../helpers/app.ts');
const { createAdministration, createCustomer, okCall } = await import('../../helpers/factories.ts');
const { startReceiver, until } = await import('../../helpers/webhook-receiver.ts');
const { pricedSubscription, processed, sessionBody, submitSession } = await import('../../helpers/session-factories.ts');
const { EVENT_KINDS } = await import('../../../src/events/event-kinds.ts');
const { dropDeliveredEventData } = await import('../../../src/events/event-data-retention.ts');
const { scopedEm } = await import('../../../src/access/admin-scope.ts');
const { CIPHERTEXT } = await import('../../helpers/secret-scan.ts');
type TestApp = Awaited<ReturnType<typeof startTestApp>>;
type Receiver = Awaited<ReturnType<typeof startReceiver>>;

let app: TestApp;
let receiver: Receiver;
let admin: string;
const SECRET = 'whsec-event-data-0123456789';
test.before(async () => {
  app = await startTestApp();
  receiver = await startReceiver();
  admin = (await createAdministration(app)).id;
});
test.after.always(async () => { await receiver?.close(); await app?.close(); });

const ok = (method: string, path: string, body?: unknown) => okCall(app, method, path, body);

const subscribe = (path: string, kinds: readonly string[], extra: Record<string, unknown> = {}) =>
  ok('POST', '/webhook-subscription', { url: `${receiver.url}${path}`, kinds, secret: SECRET, admin_ids: [admin], ...extra });

async function sql<T extends pg.QueryResultRow>(text: string, values: unknown[] = []): Promise<T[]> {
  const client = new pg.Client({ connectionString: app.databaseUrl });
  await client.connect();
  try { return (await client.query<T>(text, values)).rows; } finally { await client.end(); }
}

test.serial('four quick renames deliver four names: data is the resource when its change committed', async (t) => {
  // A slow receiver (300 ms an answer): the renames are all committed before most deliveries are made.
  await subscribe('/slow-renames', ['customer']);
  const customer = await createCustomer(app, admin, { name: 'Name 0' });
  for (let i = 1; i <= 4; i++) await ok('POST', `/customer/${customer.id}`, { name: `Name ${i}` });
  await until(() => receiver.on('/slow-renames').length >= 5, 'five deliveries');
  const names = receiver.on('/slow-renames').map((d) => d.body.data.name);
  t.deepEqual(names, ['Name 0', 'Name 1', 'Name 2', 'Name 3', 'Name 4']);
  // Each is what GET answered right after its change: the last one equals GET now.
  t.deepEqual(receiver.on('/slow-renames').at(-1)!.body.data, await ok('GET', `/customer/${customer.id}`));
});

test.serial('a session, its status change and its pricing result deliver what their GETs answered then', async (t) => {
  // Every administration: a received session belongs to none yet.
  await subscribe('/sessions', ['msp_charge_session', 'msp_charge_session_priced'], { admin_ids: undefined });
  const { evcoId } = await pricedSubscription(app, admin);
  const submitted = await submitSession(app, sessionBody(evcoId));
  const session = await processed(app, submitted.id);
  t.is(session.status, 'priced');
  const mine = () => receiver.on('/sessions').filter((d) => [d.body.data.id, d.body.data.charge_session_id].includes(submitted.id));
  await until(() => mine().length >= 3, 'received, priced and the pricing result');
  const [received, priced, result] = mine().map((d) => d.body);
  t.like(received, { kind: 'msp_charge_session', modification_kind: 'create', data: { id: submitted.id, status: 'received' } });
  t.like(priced, { kind: 'msp_charge_session', modification_kind: 'update', data: { id: submitted.id, status: 'priced' } });
  t.deepEqual(priced.data, await ok('GET', `/msp-charge-session/${submitted.id}`));
  t.is(result.kind, 'msp_charge_session_priced');
  t.deepEqual(result.data, await ok('GET', `/msp-charge-session-priced/${result.data.id}`));
});

test.serial('every kind can be subscribed to; drop-out cases deliver', async (t) => {
  const all = await subscribe('/everything', EVENT_KINDS);
  t.deepEqual([...all.kinds].sort(), [...EVENT_KINDS].sort());
  // Every administration: the case of a token nobody knows belongs to none.
  await subscribe('/dropouts', ['msp_dropout_case', 'cpo_dropout_case'], { admin_ids: undefined });
  // A token nobody knows: the session drops out into a case.
  const submitted = await submitSession(app, sessionBody('NL-XXX-C12345678-9', { cpo_id: 'NL*ABC' }));
  const session = await processed(app, submitted.id);
  t.is(session.status, 'dropout');
  await until(() => receiver.on('/dropouts').length >= 1, 'the drop-out case');
  const delivered = receiver.on('/dropouts')[0].body;
  t.like(delivered, { kind: 'msp_dropout_case', data: { id: session.dropout_case_id } });
  t.deepEqual(delivered.data, await ok('GET', `/msp-dropout-case/${session.dropout_case_id}`));
  const unknown = await app.request('POST', '/main/v1/webhook-subscription', { body: { url: `${receiver.url}/x`, kinds: ['msp_dropout'], secret: SECRET } });
  t.is(unknown.status, 400);
  t.is(unknown.body.param, '$.kinds[0]');
});

test.serial('deliveries record no events: a subscription to every kind hears nothing while nobody changes anything', async (t) => {
  const everything = await subscribe('/idle', EVENT_KINDS);
  // Some changes, delivered to it; a failing receiver keeps retrying meanwhile.
  await subscribe('/fail/2', EVENT_KINDS);
  const customer = await createCustomer(app, admin, { name: 'Quiet' });
  await ok('POST', `/customer/${customer.id}`, { name: 'Quieter' });
  await until(() => receiver.on('/idle').length >= 2 && receiver.on('/fail/2').length >= 2, 'the changes, on both');
  const [{ last }] = await sql<{ last: string }>('select max(id)::text as last from svc_event');
  const heard = receiver.on('/idle').length;
  // Deliveries and retries go on around us; none of them may become an event.
  await new Promise((resolve) => setTimeout(resolve, 2500));
  t.is(receiver.on('/idle').length, heard, 'nothing delivered while nobody changes anything');
  t.deepEqual(await sql('select id, kind, actor from svc_event where id > $1', [last]), []);
  // The subscriptions' own trail: their creation only, never their bookkeeping or secret.
  const trail = (await ok('GET', `/event?kind=webhook_subscription&resource_id=${everything.id}`)).items;
  t.deepEqual(trail.map((e: any) => e.modification_kind), ['create']);
});

test.serial('a new secret is an update without its value; no event or answer holds a secret or its ciphertext', async (t) => {
  const subscription = await subscribe('/rotate', ['customer']);
  const rotated = 'whsec-rotated-9876543210abc';
  await ok('POST', `/webhook-subscription/${subscription.id}`, { secret: rotated });
  const trail = (await ok('GET', `/event?kind=webhook_subscription&resource_id=${subscription.id}`)).items;
  t.deepEqual(trail.map((e: any) => [e.modification_kind, e.changes]), [['create', null], ['update', { secret: ['(hidden)', '(hidden)'] }]]);
  const rows = await sql<{ text: string }>(`select coalesce(changes::text, '') || coalesce(data::text, '') as text from svc_event`);
  t.false(rows.some((r) => CIPHERTEXT.test(r.text) || r.text.includes(SECRET) || r.text.includes(rotated)));
  const all = JSON.stringify((await ok('GET', '/event?page_size=1000')).items);
  t.false(CIPHERTEXT.test(all) || all.includes(rotated));
});

test.serial('stored data is dropped once every subscription concerned has it and it is old enough; the audit record stays', async (t) => {
  // An administration of its own: the other tests' subscriptions are not concerned.
  const own = (await createAdministration(app)).id;
  const subscription = await subscribe('/retention', ['customer'], { admin_ids: [own] });
  const customer = await createCustomer(app, own, { name: 'Kept' });
  await until(() => receiver.on('/retention').some((d) => d.body.data.id === customer.id), 'the delivery');
  // A subscription concerned but disabled before it got it holds the data back.
  const lagging = await subscribe('/lagging', ['customer'], { disabled: true, admin_ids: [own] });
  const later = await createCustomer(app, own, { name: 'Held' });
  await until(() => receiver.on('/retention').some((d) => d.body.data.id === later.id), 'the second delivery');
  const em = scopedEm(app.orm);
  t.true(await dropDeliveredEventData(em, 1) >= 0, 'not old enough: nothing of these goes');
  const dataOf = async (id: string) => (await sql<{ data: unknown }>(`select data from svc_event where kind = 'customer' and resource_id = $1 and modification = 'create'`, [id]))[0].data;
  t.not(await dataOf(customer.id), null);
  await dropDeliveredEventData(em, 0);
  t.is(await dataOf(customer.id), null, 'delivered to every subscription concerned: dropped');
  t.not(await dataOf(later.id), null, 'the disabled subscription has not had it');
  t.is((await ok('GET', `/event?kind=customer&resource_id=${customer.id}`)).items.length, 1, 'the audit record stays');
  t.truthy(subscription.id && lagging.id);
});
