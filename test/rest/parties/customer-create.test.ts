// Creating a customer writes the row and its `create` event with one statement when nothing stands
// in the way (src/events/insert-created.ts); every other case takes the general path. Both must
// answer, store and record the same.
import test from 'ava';
import { startTestApp, type TestApp } from '../../helpers/app.ts';
import { createAdministration } from '../../helpers/factories.ts';

let app: TestApp;
let adminId: string;
test.before(async () => {
  app = await startTestApp();
  adminId = (await createAdministration(app, { id: `Adm-Case-${Date.now()}` })).id;
});
test.after.always(async () => { await app?.close(); });

const body = (fields: Record<string, unknown> = {}) => ({ admin_id: adminId, name: 'Ada', country: 'nl', custom_fields: { tier: 'gold' }, ...fields });

async function eventsOf(id: string) {
  const response = await app.request('GET', `/main/v1/event?kind=customer&resource_id=${id}`);
  return response.body.items as { modification_kind: string; actor: string; admin_id: string | null }[];
}

async function customersWith(reference: string): Promise<number> {
  const [{ n }] = await app.orm.em.fork().execute<{ n: number }[]>('select count(*)::int as n from customer where external_reference = ?', [reference]);
  return n;
}

test('an ext_ref create stores the customer and one create event, whose data is what GET answers', async (t) => {
  const created = await app.request('POST', '/main/v1/customer/ext_ref.fast-1', { body: body() });
  t.is(created.status, 200, JSON.stringify(created.body));
  const read = await app.request('GET', `/main/v1/customer/${created.body.id}`);
  t.deepEqual(created.body, read.body);
  t.is(read.body.external_reference, 'fast-1');
  t.deepEqual(read.body.custom_fields, { tier: 'gold' });
  const events = await eventsOf(created.body.id);
  t.deepEqual(events.map((e) => [e.modification_kind, e.actor, e.admin_id]), [['create', app.admin.publicId, adminId]]);
  const [{ data }] = await app.orm.em.fork().execute<{ data: unknown }[]>(
    `select data from svc_event where kind = 'customer' and resource_id = ? and modification = 'create'`, [created.body.id]);
  t.deepEqual(data, read.body);
});

test('POST /customer creates in one statement too, and a second create with a taken reference is refused', async (t) => {
  const created = await app.request('POST', '/main/v1/customer', { body: body({ external_reference: 'fast-2' }) });
  t.is(created.status, 200, JSON.stringify(created.body));
  t.is((await eventsOf(created.body.id)).length, 1);
  const again = await app.request('POST', '/main/v1/customer', { body: body({ external_reference: 'FAST-2', name: 'Other' }) });
  t.is(again.status, 400);
  t.is(again.body.code, 'duplicate');
  t.is(again.body.param, '$.external_reference');
  t.is(await customersWith('fast-2'), 1);
});

test('admin_id in another casing is stored as the administration is', async (t) => {
  const created = await app.request('POST', '/main/v1/customer/ext_ref.fast-3', { body: body({ admin_id: adminId.toLowerCase() }) });
  t.is(created.status, 200, JSON.stringify(created.body));
  t.is(created.body.admin_id, adminId);
  t.is((await app.request('GET', `/main/v1/customer/${created.body.id}`)).body.admin_id, adminId);
  t.deepEqual((await eventsOf(created.body.id)).map((e) => e.admin_id), [adminId]);
});

test('an administration that does not exist, or one the credential cannot see, creates nothing', async (t) => {
  const missing = await app.request('POST', '/main/v1/customer/ext_ref.fast-4', { body: body({ admin_id: 'no-such-administration' }) });
  t.is(missing.status, 400);
  t.is(missing.body.code, 'not_found');
  t.is(missing.body.param, '$.admin_id');
  const other = (await createAdministration(app)).id;
  const limited = await app.credential({ adminIds: [other] });
  const hidden = await app.request('POST', '/main/v1/customer/ext_ref.fast-4', { body: body(), auth: limited });
  t.is(hidden.status, 400);
  t.is(hidden.body.param, '$.admin_id');
  t.is(await customersWith('fast-4'), 0);
});

test('a reference another administration holds is taken for a credential that cannot see it', async (t) => {
  const held = await app.request('POST', '/main/v1/customer/ext_ref.fast-5', { body: body() });
  t.is(held.status, 200);
  const other = (await createAdministration(app)).id;
  const limited = await app.credential({ adminIds: [other] });
  const taken = await app.request('POST', '/main/v1/customer/ext_ref.FAST-5', { body: body({ admin_id: other }), auth: limited });
  t.is(taken.status, 400);
  t.is(taken.body.code, 'duplicate');
  t.is(await customersWith('fast-5'), 1);
  t.is((await eventsOf(held.body.id)).length, 1);
});

test('upserts of one new reference at once create it once and update it with the rest', async (t) => {
  const answers = await Promise.all(Array.from({ length: 12 }, (_, i) => app.request('POST', '/main/v1/customer/ext_ref.fast-6', {
    body: body({ custom_fields: { [`k${i}`]: i } }),
  })));
  t.deepEqual(answers.map((a) => a.status), answers.map(() => 200), JSON.stringify(answers.find((a) => a.status !== 200)?.body));
  t.is(new Set(answers.map((a) => a.body.id)).size, 1);
  t.is(await customersWith('fast-6'), 1);
  const events = await eventsOf(answers[0].body.id);
  t.is(events.filter((e) => e.modification_kind === 'create').length, 1);
  const merged = (await app.request('GET', `/main/v1/customer/${answers[0].body.id}`)).body.custom_fields;
  t.is(Object.keys(merged).length, 12, 'every upsert merged its field');
});

test('one new reference given at once to several customers and a create: one takes it, the others are 400 duplicate, never a 500', async (t) => {
  for (let round = 0; round < 3; round++) {
    const reference = `race-${process.pid}-${round}`;
    const ids = await Promise.all(Array.from({ length: 4 }, async () => (await app.request('POST', '/main/v1/customer', { body: body() })).body.id as string));
    const answers = await Promise.all([
      ...ids.map((id) => app.request('POST', `/main/v1/customer/${id}`, { body: { external_reference: reference } })),
      app.request('POST', '/main/v1/customer', { body: body({ external_reference: reference }) }),
    ]);
    const outcomes = answers.map((a) => (a.status === 200 ? 'taken' : `${a.status} ${a.body.code} ${a.body.param}`));
    t.is(outcomes.filter((o) => o === 'taken').length, 1, outcomes.join(', '));
    t.true(outcomes.every((o) => o === 'taken' || o === '400 duplicate $.external_reference'), outcomes.join(', '));
    t.is(await customersWith(reference), 1);
  }
});

test('a body the create cannot take changes nothing', async (t) => {
  const long = await app.request('POST', '/main/v1/customer/ext_ref.fast-7', { body: body({ name: 'x'.repeat(256) }) });
  t.is(long.status, 400);
  t.is(long.body.param, '$.name');
  const partial = await app.request('POST', '/main/v1/customer/ext_ref.fast-7', { body: { admin_id: adminId, name: 'No country' } });
  t.is(partial.status, 400);
  t.is(partial.body.param, '$.country');
  t.is(await customersWith('fast-7'), 0);
});

test('merges of one customer by id at once all apply', async (t) => {
  const created = await app.request('POST', '/main/v1/customer/ext_ref.fast-8', { body: body() });
  const answers = await Promise.all(Array.from({ length: 12 }, (_, i) => app.request('POST', `/main/v1/customer/${created.body.id}`, {
    body: { custom_fields: { [`k${i}`]: i } },
  })));
  t.deepEqual(answers.map((a) => a.status), answers.map(() => 200));
  const merged = (await app.request('GET', `/main/v1/customer/${created.body.id}`)).body.custom_fields;
  t.is(Object.keys(merged).length, 13, 'every merge applied, beside the created field');
});

test('a read-only credential creates nothing, by either create path', async (t) => {
  const readonly = await app.credential({ role: 'readonly', adminIds: [adminId] });
  const byRef = await app.request('POST', '/main/v1/customer/ext_ref.fast-9', { body: body(), auth: readonly });
  const plain = await app.request('POST', '/main/v1/customer', { body: body({ external_reference: 'fast-9' }), auth: readonly });
  t.is(byRef.status, 403, JSON.stringify(byRef.body));
  t.is(plain.status, 403, JSON.stringify(plain.body));
  t.is(await customersWith('fast-9'), 0);
});
