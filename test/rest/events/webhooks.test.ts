// Events and webhooks over HTTP with a real receiver: signatures, order per subscription while
// another runs in parallel, retries after failures, delete events, rollbacks, the audit trail.
import { createHmac } from 'node:crypto';
import test from 'ava';

process.env.SVC_WEBHOOK_RETRY_SECONDS = '0.2';

const { startTestApp } = await import('../../helpers/app.ts');
const { createAdministration, createCustomer, okCall } = await import('../../helpers/factories.ts');
const { startReceiver, until } = await import('../../helpers/webhook-receiver.ts');
type TestApp = Awaited<ReturnType<typeof startTestApp>>;
type Receiver = Awaited<ReturnType<typeof startReceiver>>;

let app: TestApp;
let receiver: Receiver;
let admin: string;
const SECRET = 'whsec-0123456789abcdef';
test.before(async () => {
  app = await startTestApp();
  receiver = await startReceiver();
  admin = (await createAdministration(app)).id;
});
test.after.always(async () => { await receiver?.close(); await app?.close(); });

const ok = (method: string, path: string, body?: unknown) => okCall(app, method, path, body);

const subscribe = (path: string, kinds: string[], extra: Record<string, unknown> = {}) =>
  ok('POST', '/webhook-subscription', { url: `${receiver.url}${path}`, kinds, secret: SECRET, admin_ids: [admin], ...extra });

test.serial('deliveries are signed with the secret and carry the resource as its GET answers, in commit order', async (t) => {
  // An administration id in other casing names the same administration, and is stored as it is spelled.
  const subscription = await subscribe('/signed', ['customer'], { admin_ids: [admin.toUpperCase()] });
  t.false('secret' in subscription);
  t.deepEqual(subscription.admin_ids, [admin]);
  const customer = await createCustomer(app, admin, { name: 'First' });
  await ok('POST', `/customer/${customer.id}`, { name: 'Second' });
  await ok('POST', `/customer/${customer.id}`, { name: 'Third' });
  await until(() => receiver.on('/signed').length >= 3, 'three deliveries');
  const got = receiver.on('/signed');
  t.deepEqual(got.map((d) => d.body.modification_kind), ['create', 'update', 'update']);
  t.true(got.every((d) => d.body.kind === 'customer' && d.body.data.id === customer.id));
  t.true(BigInt(got[0].body.id) < BigInt(got[1].body.id) && BigInt(got[1].body.id) < BigInt(got[2].body.id));
  for (const d of got) {
    const [, timestamp, mac] = /^t=(\d+),v1=([0-9a-f]{64})$/.exec(String(d.headers['x-svc-signature']))!;
    t.is(mac, createHmac('sha256', SECRET).update(`${timestamp}.${d.raw}`).digest('hex'));
  }
  t.deepEqual(got[2].body.data, await ok('GET', `/customer/${customer.id}`));
  // The audit trail: who changed the record, when, from what to what.
  const trail = (await ok('GET', `/event?kind=customer&resource_id=${customer.id}`)).items;
  t.deepEqual(trail.map((e: any) => [e.modification_kind, e.changes?.name ?? null]), [['create', null], ['update', ['First', 'Second']], ['update', ['Second', 'Third']]]);
  t.true(trail.every((e: any) => typeof e.actor === 'string' && e.actor.length > 0));
});

test.serial('order holds per subscription while another subscription runs in parallel; a receiver failing three times gets everything in order', async (t) => {
  const slow = await subscribe('/slow', ['billing_address', 'customer']);
  const failing = await subscribe('/fail/3', ['billing_address', 'customer']);
  const customer = await createCustomer(app, admin);
  for (let i = 1; i <= 4; i++) await ok('POST', `/customer/${customer.id}`, { name: `Name ${i}` });
  await until(() => receiver.on('/slow').length >= 5 && receiver.on('/fail/3').length >= 5,
    () => `five deliveries on both: ${JSON.stringify(receiver.deliveries.filter((d) => d.path !== '/signed').map((d) => [d.path, d.body.id, d.status]))}`, 30_000)
    .catch(async (e) => {
      console.log(JSON.stringify(await app.orm.em.fork().execute('select id, kind, modification, position, tx_id, admin_id from svc_event order by id')));
      console.log(JSON.stringify(await app.orm.em.fork().execute('select id, task_identifier, key, run_at, locked_at, attempts, max_attempts, last_error, queue_name from graphile_worker.jobs')));
      throw e;
    });
  for (const path of ['/slow', '/fail/3']) {
    const ids = receiver.on(path).map((d) => BigInt(d.body.id));
    t.deepEqual(ids, [...ids].sort((a, b) => (a < b ? -1 : 1)), `${path} in order`);
    t.is(new Set(ids).size, ids.length, `${path}: each event once after success`);
  }
  const attempts = (await ok('GET', `/webhook-subscription/${failing.id}/delivery`)).items;
  t.deepEqual(attempts.slice(0, 4).map((a: any) => [a.succeeded, a.status_code]), [[false, 500], [false, 500], [false, 500], [true, 204]]);
  t.is((await ok('GET', `/webhook-subscription/${slow.id}`)).consecutive_failures, 0);
});

test.serial('a delete event carries the id; a rolled-back change emits nothing', async (t) => {
  await subscribe('/deletes', ['cpo_calculation_input', 'customer']);
  const plan = await ok('POST', '/cpo-reimbursement-plan', { admin_id: admin, name: 'Plan' });
  const [input] = await ok('PUT', `/cpo-reimbursement-plan/${plan.id}/calculation-input/2026-01-01/energy`, { value: '0.2' });
  await ok('DELETE', `/cpo-reimbursement-plan/${plan.id}/calculation-input/2026-01-01/energy`);
  await until(() => receiver.on('/deletes').some((d) => d.body.modification_kind === 'delete'), 'the delete');
  const deleted = receiver.on('/deletes').find((d) => d.body.modification_kind === 'delete')!;
  t.like(deleted.body, { kind: 'cpo_calculation_input', data: { id: input.id } });

  const before = (await ok('GET', '/event?kind=customer&page_size=1000')).items.length;
  const reference = `DUP-${Date.now()}`;
  const body = { admin_id: admin, name: 'Once', country: 'NL', entity_type: 'person', external_reference: reference };
  t.is((await app.request('POST', '/main/v1/customer', { body })).status, 200);
  const duplicate = await app.request('POST', '/main/v1/customer', { body: { admin_id: admin, name: 'Again', country: 'NL', entity_type: 'person', external_reference: reference } });
  t.is(duplicate.status, 400);
  t.is((await ok('GET', '/event?kind=customer&page_size=1000')).items.length, before + 1, 'only the first customer\'s create');
});

test.serial('subscriptions: bad input is 400 with its param; another administration sees none of them nor their events', async (t) => {
  for (const [body, param] of [
    [{ url: 'ftp://x', kinds: ['customer'], secret: SECRET }, '$.url'],
    [{ url: `${receiver.url}/x`, kinds: ['customer', 'nonsense'], secret: SECRET }, '$.kinds[1]'],
    [{ url: `${receiver.url}/x`, kinds: ['customer'], secret: 'short' }, '$.secret'],
    [{ url: `${receiver.url}/x`, kinds: ['customer'], secret: SECRET, admin_ids: ['no-such-admin'] }, '$.admin_ids[0]'],
  ] as const) {
    const r = await app.request('POST', '/main/v1/webhook-subscription', { body });
    t.is(r.status, 400, JSON.stringify(body));
    t.is(r.body.param, param);
  }
  const mine = await subscribe('/x', ['customer']);
  const other = (await createAdministration(app)).id;
  const stranger = await app.credential({ role: 'admin', adminIds: [other] });
  t.deepEqual((await app.request('GET', '/main/v1/webhook-subscription', { auth: stranger })).body.items, []);
  t.is((await app.request('GET', `/main/v1/webhook-subscription/${mine.id}`, { auth: stranger })).body.code, 'not_found');
  t.deepEqual((await app.request('GET', '/main/v1/event?kind=customer', { auth: stranger })).body.items, []);
  const disabled = await ok('POST', `/webhook-subscription/${mine.id}`, { disabled: true });
  t.like(disabled, { disabled: true, disabled_reason: 'disabled through the API' });
});

// Found by probing: a failing subscription given a new URL waited out its back-off (up to an hour) before trying it.
test.serial('a failing subscription given a new URL is tried at once, not after its back-off', async (t) => {
  const subscription = await subscribe('/fail/100000', ['customer']);
  await createCustomer(app, admin, { name: 'Waiting' });
  await until(async () => (await ok('GET', `/webhook-subscription/${subscription.id}`)).consecutive_failures > 0, 'a failed attempt');
  // Its next attempt an hour away, as after many failures.
  await app.orm.em.fork().getConnection().execute(
    `update graphile_worker._private_jobs set run_at = now() + interval '1 hour' where key = ?`, [`webhook:${subscription.id}`]);
  await ok('POST', `/webhook-subscription/${subscription.id}`, { url: `${receiver.url}/repaired` });
  await until(() => receiver.on('/repaired').length >= 1, 'a delivery to the new URL', 10_000);
  t.is(receiver.on('/repaired')[0].body.data.name, 'Waiting');
});

// Found by probing: the delivery log of A's subscription took an attempt of B's subscription as its
// `after`, and a redelivery of A's subscription took B's event as its start (rewinding A's cursor to
// its position): both said that B's ids exist. Each is now 400 not_found at its parameter, as an id
// that does not exist.
test.serial('the delivery log of a subscription takes only its own attempts as after', async (t) => {
  const a = (await createAdministration(app)).id;
  const b = (await createAdministration(app)).id;
  const credA = await app.credential({ role: 'admin', adminIds: [a] });
  const credB = await app.credential({ role: 'admin', adminIds: [b] });
  const subscribeAs = async (auth: typeof credA, path: string) => {
    const r = await app.request('POST', '/main/v1/webhook-subscription', { body: { url: `${receiver.url}${path}`, kinds: ['customer'], secret: SECRET }, auth });
    t.is(r.status, 200);
    return r.body.id as string;
  };
  const subA = await subscribeAs(credA, '/log-a');
  const subB = await subscribeAs(credB, '/log-b');
  await createCustomer(app, a);
  await createCustomer(app, b);
  const attempts = async (id: string, auth: typeof credA) => (await app.request('GET', `/main/v1/webhook-subscription/${id}/delivery`, { auth })).body.items;
  await until(async () => (await attempts(subA, credA)).length > 0 && (await attempts(subB, credB)).length > 0, 'an attempt of each');
  const [attemptA] = await attempts(subA, credA);
  const [attemptB] = await attempts(subB, credB);
  t.is((await app.request('GET', `/main/v1/webhook-subscription/${subA}/delivery?after=${attemptA.id}`, { auth: credA })).status, 200);
  for (const auth of [credA, app.admin]) {
    const r = await app.request('GET', `/main/v1/webhook-subscription/${subA}/delivery?after=${attemptB.id}`, { auth });
    t.like(r, { status: 400, body: { code: 'not_found', query_param: 'after' } }, 'another subscription\'s attempt');
  }
});

test.serial('a redelivery starts only from an event of its subscription\'s administrations', async (t) => {
  const a = (await createAdministration(app)).id;
  const b = (await createAdministration(app)).id;
  const credA = await app.credential({ role: 'admin', adminIds: [a] });
  const eventOf = async (adminId: string) => {
    const customer = await createCustomer(app, adminId);
    return (await ok('GET', `/event?kind=customer&resource_id=${customer.id}`)).items[0].id as string;
  };
  const eventA = await eventOf(a);
  const eventB = await eventOf(b);
  const created = await app.request('POST', '/main/v1/webhook-subscription', { body: { url: `${receiver.url}/from-b`, kinds: ['customer'], secret: SECRET }, auth: credA });
  t.is(created.status, 200);
  const redeliver = (from: string, auth = credA) =>
    app.request('POST', `/main/v1/webhook-subscription/${created.body.id}/redeliver`, { body: { from_event_id: from }, auth });
  for (const auth of [credA, app.admin]) {
    t.like(await redeliver(eventB, auth), { status: 400, body: { code: 'not_found', param: '$.from_event_id' } }, 'an event of another administration');
  }
  const [cursor] = await app.orm.em.fork().execute('select last_position::text, last_event_id::text from webhook_subscription where id = ?', [created.body.id]);
  t.like(cursor, { last_event_id: '9223372036854775807' }, 'the cursor did not move');
  t.is((await redeliver(eventA)).status, 200);
  await until(() => receiver.on('/from-b').length >= 1, 'A\'s event again');
  t.deepEqual(receiver.on('/from-b').map((d) => d.body.id), [eventA]);
});
