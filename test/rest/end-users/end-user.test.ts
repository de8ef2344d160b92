import test from 'ava';
import { startTestApp, type TestApp } from '../../helpers/app.ts';
import { createAdministration, createEndUser } from '../../helpers/factories.ts';

let app: TestApp;
let adminId: string;
test.before(async () => {
  app = await startTestApp();
  adminId = (await createAdministration(app)).id;
});
test.after.always(async () => { await app?.close(); });

test('create, get, merge-update keeping absent fields, null clears', async (t) => {
  const created = await app.request('POST', '/main/v1/end-user', {
    body: { admin_id: adminId, username: 'Ada.Lovelace', email: 'Ada@Example.com', name: 'Ada', locale_id: 'en-GB', external_reference: 'EU-1' },
  });
  t.is(created.status, 200, JSON.stringify(created.body));
  t.regex(created.body.id, /^[0-9a-f-]{36}$/);
  t.like(created.body, { admin_id: adminId, username: 'Ada.Lovelace', email: 'Ada@Example.com', name: 'Ada', locale_id: 'en-GB', external_reference: 'EU-1', external_updated_at: null });
  t.regex(created.body.created_at, /Z$/);

  const got = await app.request('GET', `/main/v1/end-user/${created.body.id}`);
  t.deepEqual(got.body, created.body);

  const other = await createAdministration(app);
  const merged = await app.request('POST', `/main/v1/end-user/${created.body.id}`, { body: { name: 'Ada L.', locale_id: null, admin_id: other.id } });
  t.is(merged.status, 200, JSON.stringify(merged.body));
  t.like(merged.body, { name: 'Ada L.', locale_id: null, email: 'Ada@Example.com', username: 'Ada.Lovelace', admin_id: adminId });

  const noUsername = await app.request('POST', `/main/v1/end-user/${created.body.id}`, { body: { username: null } });
  t.is(noUsername.status, 400);
  t.is(noUsername.body.param, '$.username');
});

test('create needs admin_id and username', async (t) => {
  const response = await app.request('POST', '/main/v1/end-user', { body: { name: 'Nobody' } });
  t.is(response.status, 400);
  t.is(response.body.code, 'validation_failed');
  t.deepEqual(response.body.details.map((d: any) => d.param), ['$.admin_id', '$.username']);
  const unknownAdmin = await app.request('POST', '/main/v1/end-user', { body: { admin_id: 'no-such-admin', username: 'x1' } });
  t.is(unknownAdmin.body.code, 'not_found');
  t.is(unknownAdmin.body.param, '$.admin_id');
});

// Found by probing (2026-11-29): white space passed as a username and as a site's name.
test('a username or site name of white space only is 400 at its member, and nothing is stored', async (t) => {
  const blank = await app.request('POST', '/main/v1/end-user', { body: { admin_id: adminId, username: '   ' } });
  t.like(blank.body, { code: 'invalid_input', param: '$.username' });
  const user = (await app.request('POST', '/main/v1/end-user', { body: { admin_id: adminId, username: `blank-${Date.now()}` } })).body;
  const renamed = await app.request('POST', `/main/v1/end-user/${user.id}`, { body: { username: '    ' } });
  t.like(renamed.body, { code: 'invalid_input', param: '$.username' });
  t.is((await app.request('GET', `/main/v1/end-user/${user.id}`)).body.username, user.username);
  const site = await app.request('POST', '/main/v1/end-user-site', { body: { admin_id: adminId, name: '  ' } });
  t.like(site.body, { code: 'invalid_input', param: '$.name' });
  const sites = (await app.request('GET', '/main/v1/end-user-site?limit=1000')).body.items as any[];
  t.false(sites.some((s) => s.name.trim() === ''), 'no blank site stored');
});

test('deprecated PUT resets omitted fields', async (t) => {
  const user = await createEndUser(app, adminId, { email: 'put@example.com', name: 'Put', locale_id: 'nl-NL' });
  const replaced = await app.request('PUT', `/main/v1/end-user/${user.id}`, { body: { username: user.username, name: 'Replaced' } });
  t.is(replaced.status, 200, JSON.stringify(replaced.body));
  t.like(replaced.body, { name: 'Replaced', email: null, locale_id: null, admin_id: adminId, username: user.username });
  const withoutUsername = await app.request('PUT', `/main/v1/end-user/${user.id}`, { body: { name: 'x' } });
  t.is(withoutUsername.status, 400);
  t.is(withoutUsername.body.param, '$.username');
  const missing = await app.request('PUT', '/main/v1/end-user/0190f5d2-0000-7000-8000-000000000000', { body: { username: 'ghost' } });
  t.is(missing.body.code, 'not_found');
});

test('username and email must be Unicode NFC', async (t) => {
  const decomposed = 'jose\u0301';
  const username = await app.request('POST', '/main/v1/end-user', { body: { admin_id: adminId, username: decomposed } });
  t.is(username.status, 400);
  t.is(username.body.param, '$.username');
  const mail = await app.request('POST', '/main/v1/end-user', { body: { admin_id: adminId, username: 'jose-nfc', email: `${decomposed}@example.com` } });
  t.is(mail.status, 400);
  t.is(mail.body.param, '$.email');
  const composed = await app.request('POST', '/main/v1/end-user', { body: { admin_id: adminId, username: 'jos\u00e9', email: 'jos\u00e9@example.com' } });
  t.is(composed.status, 200, JSON.stringify(composed.body));
  const update = await app.request('POST', `/main/v1/end-user/${composed.body.id}`, { body: { email: `${decomposed}@example.org` } });
  t.is(update.status, 400);
  t.is(update.body.param, '$.email');
});

test('username and email are unique case-insensitively, original casing kept', async (t) => {
  const first = await createEndUser(app, adminId, { username: 'MixedCase', email: 'Mixed@Example.com' });
  t.is(first.username, 'MixedCase');
  const otherAdmin = await createAdministration(app);
  const sameName = await app.request('POST', '/main/v1/end-user', { body: { admin_id: otherAdmin.id, username: 'mixedcase' } });
  t.is(sameName.status, 400);
  t.is(sameName.body.code, 'duplicate');
  t.is(sameName.body.param, '$.username');
  const sameMail = await app.request('POST', '/main/v1/end-user', { body: { admin_id: adminId, username: 'another', email: 'MIXED@example.COM' } });
  t.is(sameMail.body.code, 'duplicate');
  t.is(sameMail.body.param, '$.email');

  const second = await createEndUser(app, adminId);
  const taken = await app.request('POST', `/main/v1/end-user/${second.id}`, { body: { username: 'MIXEDCASE' } });
  t.is(taken.body.code, 'duplicate');
  t.is(taken.body.param, '$.username');
  const recased = await app.request('POST', `/main/v1/end-user/${first.id}`, { body: { username: 'mixedCASE' } });
  t.is(recased.status, 200, 'changing only the casing of one\'s own username is allowed');
  t.is(recased.body.username, 'mixedCASE');
  const lookup = await app.request('GET', '/main/v1/end-user?username=MIXEDcase');
  t.deepEqual(lookup.body.items.map((u: any) => u.id), [first.id]);
});

test('an older external_updated_at is ignored', async (t) => {
  const user = await createEndUser(app, adminId, { name: 'Current', external_updated_at: '2026-01-02T10:00:00+01:00' });
  t.is(user.external_updated_at, '2026-01-02T09:00:00.000Z');
  const stale = await app.request('POST', `/main/v1/end-user/${user.id}`, { body: { name: 'Stale', external_updated_at: '2026-01-01T00:00:00Z' } });
  t.is(stale.status, 200);
  t.is(stale.body.name, 'Current');
  const fresh = await app.request('POST', `/main/v1/end-user/${user.id}`, { body: { name: 'Fresh', external_updated_at: '2026-01-03T00:00:00Z' } });
  t.is(fresh.body.name, 'Fresh');
});

test('list is paged by id and offers created_gt', async (t) => {
  const admin = await createAdministration(app);
  const users = [];
  for (let i = 0; i < 3; i++) users.push(await createEndUser(app, admin.id));
  const first = await app.request('GET', `/main/v1/end-user?admin_id=${admin.id}&page_size=2`);
  t.is(first.status, 200);
  t.deepEqual(first.body.items.map((u: any) => u.id), users.slice(0, 2).map((u) => u.id));
  t.is(first.body.page_size, 2);
  const second = await app.request('GET', first.body.link_next);
  t.deepEqual(second.body.items.map((u: any) => u.id), [users[2].id]);
  t.is(second.body.link_next, undefined);

  const since = await app.request('GET', `/main/v1/end-user?created_gt=${encodeURIComponent(users[0].created_at)}`);
  t.is(since.status, 200);
  t.deepEqual(since.body.items, []);
  t.truthy(since.body.link_next);
});

test('a credential limited to another administration sees nothing of this one', async (t) => {
  const user = await createEndUser(app, adminId);
  const other = await createAdministration(app);
  const scoped = await app.credential({ adminIds: [other.id] });
  const get = await app.request('GET', `/main/v1/end-user/${user.id}`, { auth: scoped });
  t.is(get.status, 400);
  t.is(get.body.code, 'not_found');
  const update = await app.request('POST', `/main/v1/end-user/${user.id}`, { body: { name: 'Hijack' }, auth: scoped });
  t.is(update.body.code, 'not_found');
  const list = await app.request('GET', '/main/v1/end-user', { auth: scoped });
  t.deepEqual(list.body.items, []);
  const create = await app.request('POST', '/main/v1/end-user', { body: { admin_id: adminId, username: 'sneaky' }, auth: scoped });
  t.is(create.body.code, 'not_found');
  t.is(create.body.param, '$.admin_id');
  const own = await app.request('POST', '/main/v1/end-user', { body: { admin_id: other.id, username: 'own-user' }, auth: scoped });
  t.is(own.status, 200);
  const ownList = await app.request('GET', '/main/v1/end-user', { auth: scoped });
  t.deepEqual(ownList.body.items.map((u: any) => u.id), [own.body.id]);
});
