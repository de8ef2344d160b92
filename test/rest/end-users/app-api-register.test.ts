// End-user sites, POST /enduser/register and authorizations over MSP token subscriptions (list,
// merge, the deprecated PUT).
import test from 'ava';
import { startTestApp, type TestApp } from '../../helpers/app.ts';
import { createAdministration, createEndUser, createTokenSubscription } from '../../helpers/factories.ts';

let app: TestApp;
let adminId: string;
test.before(async () => {
  app = await startTestApp();
  adminId = (await createAdministration(app)).id;
});
test.after.always(async () => { await app?.close(); });

test('sites: created and listed; an end user created without one lands in the default site', async (t) => {
  const site = await app.request('POST', '/main/v1/end-user-site', { body: { admin_id: adminId, name: 'Brand app' } });
  t.is(site.status, 200, JSON.stringify(site.body));
  t.like(site.body, { admin_id: adminId, name: 'Brand app', is_default: false });
  const user = await createEndUser(app, adminId);
  t.truthy(user.site_id);
  const again = await createEndUser(app, adminId);
  t.is(again.site_id, user.site_id, 'one default site per administration');
  const list = await app.request('GET', '/main/v1/end-user-site');
  t.is(list.status, 200);
  t.true(list.body.items.some((s: any) => s.id === user.site_id && s.is_default));
  const inSite = await createEndUser(app, adminId, { site_id: site.body.id });
  t.is(inSite.site_id, site.body.id);
  const bad = await app.request('POST', '/main/v1/end-user', { body: { admin_id: adminId, username: 'x-bad-site', site_id: '00000000-0000-7000-8000-000000000000' } });
  t.like(bad.body, { code: 'not_found', param: '$.site_id' });
});

test('register: the App credential\'s site; usernames and emails NFC and unique case-insensitively', async (t) => {
  const site = (await app.request('POST', '/main/v1/end-user-site', { body: { admin_id: adminId, name: 'Register app' } })).body;
  const appAuth = await app.credential({ role: 'app', siteId: site.id });
  const registered = await app.request('POST', '/main/v1/enduser/register', { auth: appAuth, body: { username: 'Jos\u00e9', email: 'Jose@Example.com' } });
  t.is(registered.status, 200, JSON.stringify(registered.body));
  t.like(registered.body, { admin_id: adminId, site_id: site.id, username: 'Jos\u00e9' });
  const clash = await app.request('POST', '/main/v1/enduser/register', { auth: appAuth, body: { username: 'JOS\u00e9', email: 'other@example.com' } });
  t.like(clash.body, { code: 'duplicate', param: '$.username' });
  // Case folding is Unicode's, not ASCII's only: É is é.
  const accented = await app.request('POST', '/main/v1/enduser/register', { auth: appAuth, body: { username: 'JOS\u00c9', email: 'third@example.com' } });
  t.like(accented.body, { code: 'duplicate', param: '$.username' });
  const emailClash = await app.request('POST', '/main/v1/enduser/register', { auth: appAuth, body: { username: 'other', email: 'jose@example.COM' } });
  t.like(emailClash.body, { code: 'duplicate', param: '$.email' });
  const notNfc = await app.request('POST', '/main/v1/enduser/register', { auth: appAuth, body: { username: 'Jose\u0301x' } });
  t.like(notNfc.body, { code: 'validation_failed', param: '$.username' });
  const noSite = await app.credential({ role: 'app' });
  t.is((await app.request('POST', '/main/v1/enduser/register', { auth: noSite, body: { username: 'nosite' } })).status, 400);
  t.is((await app.request('POST', '/main/v1/enduser/register', { body: { username: 'admin-cannot' } })).status, 403);
});

test('subscription authorizations: merge, list, deprecated PUT replaces the set; other administrations are not found', async (t) => {
  const user = await createEndUser(app, adminId);
  const a = await createTokenSubscription(app, adminId, { external_reference: `sub-a-${process.pid}` });
  const b = await createTokenSubscription(app, adminId);
  const path = (s = '') => `/main/v1/end-user/${user.id}/authorization-msp-token-subscription${s ? `/${s}` : ''}`;
  const created = await app.request('POST', path(a.id), { body: {} });
  t.is(created.status, 200, JSON.stringify(created.body));
  t.like(created.body, { end_user_id: user.id, subscription_id: a.id, role: 'driver', defunct: false, is_currently_valid: true });
  const merged = await app.request('POST', path(`ext_ref.${a.external_reference}`), { body: { role: 'manager' } });
  t.like(merged.body, { id: created.body.id, role: 'manager' });
  const list = await app.request('GET', path());
  t.deepEqual(list.body.items.map((i: any) => i.id), [created.body.id]);

  const replaced = await app.request('PUT', path(), { body: { items: [{ subscription_id: b.id }] } });
  t.is(replaced.status, 200, JSON.stringify(replaced.body));
  t.deepEqual(replaced.body.items.map((i: any) => [i.subscription_id, i.defunct]), [[a.id, true], [b.id, false]]);

  const other = await createAdministration(app);
  const foreign = await createTokenSubscription(app, other.id);
  const refused = await app.request('POST', path(foreign.id), { body: {} });
  t.is(refused.body.code, 'not_found');
});

test('site_id is set on create only: a later body naming another visible site is ignored, an unknown one is not_found', async (t) => {
  const site = (await app.request('POST', '/main/v1/end-user-site', { body: { admin_id: adminId, name: 'Later' } })).body;
  const user = await createEndUser(app, adminId);
  const ignored = await app.request('POST', `/main/v1/end-user/${user.id}`, { body: { site_id: site.id, name: 'N' } });
  t.is(ignored.status, 200);
  t.is(ignored.body.site_id, user.site_id);
  const unknown = await app.request('POST', `/main/v1/end-user/${user.id}`, { body: { site_id: '00000000-0000-7000-8000-000000000000' } });
  t.like(unknown.body, { code: 'not_found', param: '$.site_id' });
});
