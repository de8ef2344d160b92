// GraphQL twins of the end users' REST writes: end users, sites, authorizations over customers
// and subscriptions (operators), and the App API's writes (register, cancel, switch-plan) that an
// App credential makes with the X-SVC-End-User header, as `viewer` reads.
import test from 'ava';
import { startTestApp, type Auth, type TestApp } from '../helpers/app.ts';
import { createAdministration, createCustomer, createSubscriptionPlan } from '../helpers/factories.ts';
import { pricedSubscription } from '../helpers/session-factories.ts';
import { data, failure, graphql, restBody } from './graphql.ts';

let app: TestApp;
let adminId: string;
let siteId: string;
let appAuth: Auth;
test.before(async () => {
  app = await startTestApp();
  adminId = (await createAdministration(app)).id;
  const site = await data(app, 'mutation ($a: ID!) { createEndUserSite(adminId: $a, name: "Charge app", externalReference: "gql-site") { databaseId name isDefault } }', { a: adminId });
  siteId = site.createEndUserSite.databaseId;
  appAuth = await app.credential({ role: 'app', siteId });
});
test.after.always(async () => { await app?.close(); });

const CREATE = 'mutation ($i: EndUserInput!) { createEndUser(input: $i) { databaseId username email site { databaseId } administration { databaseId } } }';
const UPDATE = 'mutation ($id: ID!, $i: EndUserInput!) { updateEndUser(id: $id, input: $i) { databaseId username name } }';

test('end-user sites and end users: created and merge-updated through the same services as REST', async (t) => {
  t.like(await restBody(app, `/end-user-site`), { items: [{ id: siteId, name: 'Charge app', external_reference: 'gql-site' }] });
  t.like(await failure(app, 'mutation { createEndUserSite(adminId: "no-such-admin") { databaseId } }', {}), { code: 'not_found', param: '$.adminId' });

  const created = (await data(app, CREATE, { i: { adminId, siteId, username: 'gql-anna', email: 'anna@example.com' } })).createEndUser;
  t.like(created, { username: 'gql-anna', site: { databaseId: siteId }, administration: { databaseId: adminId } });
  t.like(await restBody(app, `/end-user/${created.databaseId}`), { username: 'gql-anna', site_id: siteId, admin_id: adminId });
  const updated = (await data(app, UPDATE, { id: created.databaseId, i: { name: 'Anna' } })).updateEndUser;
  t.like(updated, { username: 'gql-anna', name: 'Anna' });
  const rest = await app.request('POST', `/main/v1/end-user/${created.databaseId}`, { body: { name: 'Anna B.' } });
  t.is(rest.body.name, 'Anna B.');

  t.like(await failure(app, CREATE, { i: { adminId, username: 'GQL-ANNA' } }), { code: 'duplicate', param: '$.input.username' });
  t.like(await failure(app, CREATE, { i: { adminId, username: 'gql-bob', email: 'not an email' } }), { code: 'validation_failed', param: '$.input.email' });
  t.like(await failure(app, UPDATE, { id: created.databaseId, i: { localeId: 'x'.repeat(36) } }), { code: 'validation_failed', param: '$.input.localeId' });
  t.is((await restBody(app, '/end-user?username=gql-bob')).items.length, 0, 'nothing stored');
});

const CUSTOMER_AUTH = `mutation ($u: ID!, $c: ID!, $i: EndUserCustomerAuthorizationInput!) {
  updateEndUserCustomerAuthorization(endUserId: $u, customerId: $c, input: $i) { databaseId customerId role validUntil isCurrentlyValid } }`;
const SUBSCRIPTION_AUTH = `mutation ($u: ID!, $s: ID!, $i: EndUserSubscriptionAuthorizationInput!) {
  updateEndUserSubscriptionAuthorization(endUserId: $u, subscriptionId: $s, input: $i) { databaseId subscriptionId role isCurrentlyValid } }`;

test('authorizations over customers and subscriptions: create, then merge-update the pair, like REST', async (t) => {
  const priced = await pricedSubscription(app, adminId);
  const customer = await createCustomer(app, adminId);
  const endUser = (await data(app, CREATE, { i: { adminId, username: 'gql-carla' } })).createEndUser;
  const owner = (await data(app, CUSTOMER_AUTH, { u: endUser.databaseId, c: customer.id, i: {} })).updateEndUserCustomerAuthorization;
  t.like(owner, { customerId: customer.id, role: 'OWNER', isCurrentlyValid: true });
  const manager = (await data(app, CUSTOMER_AUTH, { u: endUser.databaseId, c: customer.id, i: { role: 'MANAGER' } })).updateEndUserCustomerAuthorization;
  t.is(manager.databaseId, owner.databaseId, 'the same pair is merge-updated');
  t.like(await restBody(app, `/end-user/${endUser.databaseId}/authorization-customer`), { items: [{ id: owner.databaseId, role: 'manager' }] });
  t.like(await failure(app, CUSTOMER_AUTH, { u: endUser.databaseId, c: customer.id, i: { validFrom: '2026-02-01T00:00:00Z', validUntil: '2026-01-01T00:00:00Z' } }),
    { param: '$.input.validUntil' });

  const driver = (await data(app, SUBSCRIPTION_AUTH, { u: endUser.databaseId, s: priced.subscriptionId, i: {} })).updateEndUserSubscriptionAuthorization;
  t.like(driver, { subscriptionId: priced.subscriptionId, role: 'DRIVER' });
  const { endUser: node } = await data(app, `query ($id: ID!) { endUser(id: $id) {
    customerAuthorizations { edges { node { role } } } subscriptionAuthorizations { edges { node { role } } } } }`, { id: endUser.databaseId });
  t.deepEqual([node.customerAuthorizations.edges.length, node.subscriptionAuthorizations.edges.length], [1, 1]);
  t.like(await failure(app, SUBSCRIPTION_AUTH, { u: endUser.databaseId, s: 'nonsense', i: {} }), { code: 'not_found' });
});

const REGISTER = 'mutation ($i: RegisterEndUserInput!) { registerEndUser(input: $i) { databaseId username siteId } }';
const CANCEL = 'mutation ($s: String!) { cancelViewerSubscription(subscriptionId: $s) { databaseId isCurrentlyValid validUntil } }';
const SWITCH = 'mutation ($s: String!, $p: String, $r: String) { switchViewerSubscriptionPlan(subscriptionId: $s, planId: $p, planExternalReference: $r) { databaseId planId isCurrentlyValid } }';

const asApp = (query: string, variables: Record<string, unknown>, endUserId?: string) => app.request('POST', '/graphql', {
  body: { query, variables }, auth: appAuth, headers: endUserId ? { 'x-svc-end-user': endUserId } : {},
});

test('the App API\'s writes: an App credential registers, cancels and switches plans over GraphQL, as its end user', async (t) => {
  const registered = await asApp(REGISTER, { i: { username: 'gql-dirk' } });
  t.falsy(registered.body.errors, JSON.stringify(registered.body));
  t.like(registered.body.data.registerEndUser, { username: 'gql-dirk', siteId });
  t.like(await restBody(app, `/end-user/${registered.body.data.registerEndUser.databaseId}`), { site_id: siteId, admin_id: adminId });
  const badName = await asApp(REGISTER, { i: { username: '' } });
  t.like(badName.body.errors?.[0].extensions, { code: 'validation_failed', param: '$.input.username' });

  const manager = registered.body.data.registerEndUser.databaseId;
  const a = await pricedSubscription(app, adminId);
  const b = await pricedSubscription(app, adminId);
  for (const s of [a, b]) await data(app, SUBSCRIPTION_AUTH, { u: manager, s: s.subscriptionId, i: { role: 'MANAGER' } });

  const cancelled = await asApp(CANCEL, { s: a.subscriptionId }, manager);
  t.falsy(cancelled.body.errors, JSON.stringify(cancelled.body));
  t.like(cancelled.body.data.cancelViewerSubscription, { databaseId: a.subscriptionId, isCurrentlyValid: false });
  t.truthy((await restBody(app, `/msp-token-subscription/${a.subscriptionId}`)).valid_until, 'REST shows the end');

  const plan = await createSubscriptionPlan(app, adminId, { rate_plan_id: b.ratePlanId, publish_from: '2026-01-01T00:00:00Z' });
  const neither = await asApp(SWITCH, { s: b.subscriptionId }, manager);
  t.like(neither.body.errors?.[0].extensions, { code: 'invalid_input', param: '$.planId' });
  const switched = await asApp(SWITCH, { s: b.subscriptionId, p: plan.id }, manager);
  t.falsy(switched.body.errors, JSON.stringify(switched.body));
  t.like(switched.body.data.switchViewerSubscriptionPlan, { planId: plan.id, isCurrentlyValid: true });
  t.not(switched.body.data.switchViewerSubscriptionPlan.databaseId, b.subscriptionId);

  // Someone else's subscription, no end user, an Admin credential, an Admin mutation by the App: refused.
  const stranger = (await asApp(REGISTER, { i: { username: 'gql-eve' } })).body.data.registerEndUser.databaseId;
  t.like((await asApp(CANCEL, { s: switched.body.data.switchViewerSubscriptionPlan.databaseId }, stranger)).body.errors?.[0].extensions, { code: 'not_found' });
  t.like((await asApp(CANCEL, { s: b.subscriptionId })).body.errors?.[0].extensions, { code: 'not_found' });
  const admin = await graphql(app, CANCEL, { s: b.subscriptionId });
  t.is(admin.status, 403);
  t.like(admin.body.errors?.[0].extensions, { code: 'FORBIDDEN' });
  const adminOnly = await asApp(CREATE, { i: { adminId, username: 'gql-frank' } });
  t.is(adminOnly.status, 403);
  const mixed = await asApp(`mutation { registerEndUser(input: { username: "gql-gina" }) { databaseId } createEndUserSite(adminId: "${adminId}") { databaseId } }`, {});
  t.is(mixed.status, 403);
  t.is((await restBody(app, '/end-user?username=gql-gina')).items.length, 0);
});
