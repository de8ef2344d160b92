import test from 'ava';
import { authorizedCustomerIds } from '../../../src/end-users/end-user-access.ts';
import { EndUser } from '../../../src/end-users/end-user.entity.ts';
import { flushUnique } from '../../../src/platform/flush-unique.ts';
import { Administration } from '../../../src/parties/administration.entity.ts';
import { DomainError } from '../../../src/platform/errors.ts';
import { scopedEm } from '../../../src/access/admin-scope.ts';
import { startTestApp, type TestApp } from '../../helpers/app.ts';
import { createAdministration, createCustomer, createEndUser, createSubscriptionPlan, createTokenSubscription } from '../../helpers/factories.ts';

let app: TestApp;
let adminId: string;
test.before(async () => {
  app = await startTestApp();
  adminId = (await createAdministration(app)).id;
});
test.after.always(async () => { await app?.close(); });

const path = (endUserId: string, customer = '') => `/main/v1/end-user/${endUserId}/authorization-customer${customer ? `/${customer}` : ''}`;

test('merge creates the authorization for the pair, then merge-updates it', async (t) => {
  const user = await createEndUser(app, adminId);
  const customer = await createCustomer(app, adminId);
  const created = await app.request('POST', path(user.id, customer.id), { body: { valid_from: '2020-01-01T00:00:00+01:00' } });
  t.is(created.status, 200, JSON.stringify(created.body));
  t.like(created.body, {
    end_user_id: user.id, customer_id: customer.id, customer_external_reference: customer.external_reference, admin_id: adminId,
    role: 'owner', valid_from: '2019-12-31T23:00:00.000Z', valid_until: null, defunct: false, is_currently_valid: true,
  });

  const updated = await app.request('POST', path(user.id, `ext_ref.${customer.external_reference}`), { body: { role: 'viewer' } });
  t.is(updated.status, 200, JSON.stringify(updated.body));
  t.is(updated.body.id, created.body.id);
  t.is(updated.body.role, 'viewer');
  t.is(updated.body.valid_from, '2019-12-31T23:00:00.000Z', 'absent fields are kept');

  const cleared = await app.request('POST', path(user.id, customer.id), { body: { valid_from: null, role: null } });
  t.like(cleared.body, { valid_from: null, role: 'owner' });

  const list = await app.request('GET', path(user.id));
  t.is(list.status, 200);
  t.deepEqual(list.body.items.map((a: any) => a.id), [created.body.id]);
  t.is(list.body.page_size, 500);
});

test('list is paged and limited to the end user', async (t) => {
  const user = await createEndUser(app, adminId);
  const someoneElse = await createEndUser(app, adminId);
  const ids = [];
  for (let i = 0; i < 3; i++) {
    const customer = await createCustomer(app, adminId);
    ids.push((await app.request('POST', path(user.id, customer.id), { body: {} })).body.id);
    await app.request('POST', path(someoneElse.id, customer.id));
  }
  const first = await app.request('GET', `${path(user.id)}?page_size=2`);
  t.deepEqual(first.body.items.map((a: any) => a.id), ids.slice(0, 2));
  const second = await app.request('GET', first.body.link_next);
  t.deepEqual(second.body.items.map((a: any) => a.id), ids.slice(2));
  const unknown = await app.request('GET', path('0190f5d2-0000-7000-8000-000000000000'));
  t.is(unknown.body.code, 'not_found');
});

test('valid_until must be after valid_from; role must be known', async (t) => {
  const user = await createEndUser(app, adminId);
  const customer = await createCustomer(app, adminId);
  const inverted = await app.request('POST', path(user.id, customer.id), {
    body: { valid_from: '2026-02-01T00:00:00Z', valid_until: '2026-02-01T00:00:00Z' },
  });
  t.is(inverted.status, 400);
  t.is(inverted.body.param, '$.valid_until');
  await app.request('POST', path(user.id, customer.id), { body: { valid_until: '2026-03-01T00:00:00Z' } });
  const later = await app.request('POST', path(user.id, customer.id), { body: { valid_from: '2026-04-01T00:00:00Z' } });
  t.is(later.status, 400, 'checked against the stored valid_until too');
  t.is(later.body.param, '$.valid_until');
  const role = await app.request('POST', path(user.id, customer.id), { body: { role: 'god' } });
  t.is(role.status, 400);
  t.is(role.body.param, '$.role');
});

test('a defunct authorization stays defunct; the pair can be granted again', async (t) => {
  const user = await createEndUser(app, adminId);
  const customer = await createCustomer(app, adminId);
  const defunct = await app.request('POST', path(user.id, customer.id), { body: { defunct: true } });
  t.like(defunct.body, { defunct: true, is_currently_valid: false });
  const regrant = await app.request('POST', path(user.id, customer.id), { body: { defunct: false } });
  t.is(regrant.status, 200);
  t.not(regrant.body.id, defunct.body.id, 'granting again makes a new authorization');
  const list = await app.request('GET', path(user.id));
  t.deepEqual(list.body.items.map((a: any) => [a.id, a.defunct]), [[defunct.body.id, true], [regrant.body.id, false]]);
});

test('a customer of another administration is refused', async (t) => {
  const user = await createEndUser(app, adminId);
  const other = await createAdministration(app);
  const foreign = await createCustomer(app, other.id);
  const response = await app.request('POST', path(user.id, foreign.id), { body: {} });
  t.is(response.status, 400);
  t.is(response.body.code, 'not_found');
  const replace = await app.request('PUT', path(user.id), { body: { items: [{ customer_id: foreign.id }] } });
  t.is(replace.body.code, 'not_found');
  t.is(replace.body.param, '$.items[0].customer_id');
  const list = await app.request('GET', path(user.id));
  t.deepEqual(list.body.items, []);
});

test('a credential limited to another administration sees no authorizations', async (t) => {
  const user = await createEndUser(app, adminId);
  const customer = await createCustomer(app, adminId);
  await app.request('POST', path(user.id, customer.id));
  const other = await createAdministration(app);
  const scoped = await app.credential({ adminIds: [other.id] });
  const list = await app.request('GET', path(user.id), { auth: scoped });
  t.is(list.body.code, 'not_found');
  const merge = await app.request('POST', path(user.id, customer.id), { body: { role: 'viewer' }, auth: scoped });
  t.is(merge.body.code, 'not_found');
});

test('deprecated PUT replaces the whole set in one go', async (t) => {
  const user = await createEndUser(app, adminId);
  const [kept, dropped, added] = [await createCustomer(app, adminId), await createCustomer(app, adminId), await createCustomer(app, adminId)];
  const keptAuth = (await app.request('POST', path(user.id, kept.id), { body: { role: 'viewer', valid_from: '2026-01-01T00:00:00Z' } })).body;
  const droppedAuth = (await app.request('POST', path(user.id, dropped.id))).body;

  const replaced = await app.request('PUT', path(user.id), {
    body: { items: [{ customer_id: kept.id, role: 'manager' }, { customer_id: `ext_ref.${added.external_reference}`, valid_until: '2099-01-01T00:00:00Z' }] },
  });
  t.is(replaced.status, 200, JSON.stringify(replaced.body));
  t.is(replaced.body.page_size, undefined);
  const byCustomer = Object.fromEntries(replaced.body.items.map((a: any) => [a.customer_id, a]));
  t.like(byCustomer[kept.id], { id: keptAuth.id, role: 'manager', valid_from: null, defunct: false });
  t.like(byCustomer[dropped.id], { id: droppedAuth.id, defunct: true });
  t.like(byCustomer[added.id], { role: 'owner', valid_until: '2099-01-01T00:00:00.000Z', defunct: false });

  const list = await app.request('GET', path(user.id));
  t.deepEqual(list.body.items, replaced.body.items.sort((a: any, b: any) => a.id.localeCompare(b.id)));

  const invalid = await app.request('PUT', path(user.id), {
    body: { items: [{ customer_id: kept.id }, { customer_id: added.id, valid_from: '2026-05-01T00:00:00Z', valid_until: '2026-04-01T00:00:00Z' }] },
  });
  t.is(invalid.status, 400);
  t.is(invalid.body.param, '$.items[1].valid_until');
  const twice = await app.request('PUT', path(user.id), { body: { items: [{ customer_id: kept.id }, { customer_id: kept.id }] } });
  t.is(twice.body.code, 'duplicate');
  const unchanged = await app.request('GET', path(user.id));
  t.deepEqual(unchanged.body.items.map((a: any) => [a.role, a.defunct]), list.body.items.map((a: any) => [a.role, a.defunct]),
    'a refused replacement changes nothing');

  const empty = await app.request('PUT', path(user.id), { body: { items: [] } });
  t.true(empty.body.items.every((a: any) => a.defunct));

  const regranted = await app.request('PUT', path(user.id), { body: { items: [{ customer_id: dropped.id }] } });
  t.is(regranted.status, 200);
  const live = regranted.body.items.filter((a: any) => !a.defunct);
  t.is(live.length, 1);
  t.is(live[0].customer_id, dropped.id);
  t.not(live[0].id, droppedAuth.id, 'a defunct authorization is not revived; a new one is granted');
});

test('deprecated PUT names customers as the path does: ids and external references in any casing', async (t) => {
  const user = await createEndUser(app, adminId);
  const [byId, byReference] = [await createCustomer(app, adminId), await createCustomer(app, adminId)];
  const replaced = await app.request('PUT', path(user.id), {
    body: { items: [{ customer_id: byId.id.toUpperCase() }, { customer_id: `ext_ref.${byReference.external_reference.toUpperCase()}` }] },
  });
  t.is(replaced.status, 200, JSON.stringify(replaced.body));
  t.deepEqual(replaced.body.items.map((a: any) => a.customer_id), [byId.id, byReference.id]);
  const same = await app.request('PUT', path(user.id), { body: { items: [{ customer_id: byId.id }, { customer_id: `ext_ref.${byId.external_reference}` }] } });
  t.like(same.body, { code: 'duplicate', param: '$.items[1].customer_id' });
});

test('authorizedCustomerIds: valid, non-defunct authorizations at a moment', async (t) => {
  const user = await createEndUser(app, adminId);
  const [open, window, ended, defunct, other] = await Promise.all([1, 2, 3, 4, 5].map(() => createCustomer(app, adminId)));
  await app.request('POST', path(user.id, open.id));
  await app.request('POST', path(user.id, window.id), { body: { valid_from: '2026-01-01T00:00:00Z', valid_until: '2026-02-01T00:00:00Z' } });
  await app.request('POST', path(user.id, ended.id), { body: { valid_until: '2025-06-01T00:00:00Z' } });
  await app.request('POST', path(user.id, defunct.id), { body: { defunct: true } });
  const someoneElse = await createEndUser(app, adminId);
  await app.request('POST', path(someoneElse.id, other.id));

  const em = scopedEm(app.orm);
  const sorted = (ids: string[]) => [...ids].sort();
  t.deepEqual(sorted(await authorizedCustomerIds(em, user.id, new Date('2026-01-15T00:00:00Z'))), sorted([open.id, window.id]));
  t.deepEqual(await authorizedCustomerIds(em, user.id, new Date('2026-02-01T00:00:00Z')), [open.id], 'valid_until is exclusive');
  t.deepEqual(sorted(await authorizedCustomerIds(em, user.id, new Date('2026-01-01T00:00:00Z'))), sorted([open.id, window.id]), 'valid_from is inclusive');
  t.deepEqual(sorted(await authorizedCustomerIds(em, user.id, new Date('2025-05-01T00:00:00Z'))), sorted([open.id, ended.id]));
  t.deepEqual(await authorizedCustomerIds(em, 'not-a-uuid', new Date()), []);
});

test('a unique violation at flush (a lost race) is a 400 duplicate naming the field', async (t) => {
  await createEndUser(app, adminId, { username: 'RaceWinner' });
  const em = scopedEm(app.orm);
  const admin = await em.findOneOrFail(Administration, { id: adminId });
  em.create(EndUser, { admin, username: 'racewinner' } as never);
  const error = await t.throwsAsync(flushUnique(em, { end_user_username_unique: ['username'] }));
  t.true(error instanceof DomainError);
  t.is((error as DomainError).code, 'duplicate');
  t.deepEqual((error as DomainError).fieldPath, ['username']);
});

test('the same authorization sent ten times at once: every request answers 200 with one authorization', async (t) => {
  const user = await createEndUser(app, adminId);
  const customer = await createCustomer(app, adminId);
  const answers = await Promise.all(Array.from({ length: 10 }, () => app.request('POST', `/main/v1/end-user/${user.id}/authorization-customer/${customer.id}`, {
    body: { role: 'viewer' },
  })));
  t.deepEqual(answers.map((a) => a.status), answers.map(() => 200), JSON.stringify(answers.filter((a) => a.status !== 200).map((a) => a.body)));
  t.is(new Set(answers.map((a) => a.body.id)).size, 1, 'all answer the one authorization');
  t.like(answers[0].body, { end_user_id: user.id, customer_id: customer.id, role: 'viewer', defunct: false });
  const [{ n }] = await app.orm.em.fork().execute<{ n: number }[]>(
    'select count(*)::int as n from end_user_customer_authorization where end_user_id = ? and customer_id = ?', [user.id, customer.id]);
  t.is(n, 1);
});

test('the same subscription authorization sent ten times at once: every request answers 200 with one authorization', async (t) => {
  const user = await createEndUser(app, adminId);
  const plan = await createSubscriptionPlan(app, adminId);
  const subscription = await createTokenSubscription(app, adminId, { plan_id: plan.id });
  const answers = await Promise.all(Array.from({ length: 10 }, () => app.request('POST',
    `/main/v1/end-user/${user.id}/authorization-msp-token-subscription/${subscription.id}`, { body: {} })));
  t.deepEqual(answers.map((a) => a.status), answers.map(() => 200), JSON.stringify(answers.filter((a) => a.status !== 200).map((a) => a.body)));
  t.is(new Set(answers.map((a) => a.body.id)).size, 1, 'all answer the one authorization');
  const [{ n }] = await app.orm.em.fork().execute<{ n: number }[]>(
    'select count(*)::int as n from end_user_subscription_authorization where end_user_id = ? and subscription_id = ?', [user.id, subscription.id]);
  t.is(n, 1);
});
