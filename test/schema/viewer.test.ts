// The GraphQL viewer root for apps: "my subscription, my sessions with prices, my invoices" in one
// query, with the App API's scoping (a second end user gets nothing), immediate revocation and
// the schema's limits; App credentials read nothing else, Admin credentials get no viewer.
import test from 'ava';
import { startTestApp, type Auth, type TestApp } from '../helpers/app.ts';
import { boxInState, configureBilling, createSeries } from '../helpers/billing-factories.ts';
import { createAdministration, createEndUser } from '../helpers/factories.ts';
import { pricedSubscription, processed, sessionBody, submitSession } from '../helpers/session-factories.ts';

let app: TestApp;
let adminId: string;
let appAuth: Auth;
test.before(async () => {
  app = await startTestApp();
  adminId = (await createAdministration(app)).id;
  appAuth = await app.credential({ role: 'app' });
});
test.after.always(async () => { await app?.close(); });

const MY_THINGS = `{ viewer {
  endUser { databaseId }
  subscriptions { databaseId monetaryCredit planName }
  chargeSessions(first: 10) { databaseId totalAmountExclVat totalAmountInclVat subtotals { kind amountExclVat vatAmountUnrounded } }
  billingBoxes { databaseId documents { filename path } }
} }`;

function viewer(endUserId: string | null, query = MY_THINGS, auth: Auth = appAuth) {
  return app.request('POST', '/graphql', { body: { query }, auth, headers: endUserId ? { 'x-svc-end-user': endUserId } : {} });
}

async function world() {
  const priced = await pricedSubscription(app, adminId, { credit: '10.00' });
  const session = await submitSession(app, sessionBody(priced.evcoId));
  await processed(app, session.id);
  const manager = await createEndUser(app, adminId);
  const stranger = await createEndUser(app, adminId);
  const r = await app.request('POST', `/main/v1/end-user/${manager.id}/authorization-customer/${priced.customerId}`, { body: { role: 'manager' } });
  if (r.status !== 200) throw new Error(JSON.stringify(r.body));
  const driver = await createEndUser(app, adminId);
  const d = await app.request('POST', `/main/v1/end-user/${driver.id}/authorization-msp-token-subscription/${priced.subscriptionId}`, { body: {} });
  if (d.status !== 200) throw new Error(JSON.stringify(d.body));
  return { ...priced, sessionId: session.id, manager, stranger, driver };
}

const ok = (r: { status: number; body: any }) => { if (r.status !== 200) throw new Error(JSON.stringify(r.body)); return r.body; };

/** A finalized box (with its PDF) of the customer. */
async function finalizedBox(customerId: string) {
  await configureBilling(app, adminId);
  await createSeries(app, adminId).catch(() => null);
  const item = ok(await app.request('POST', '/main/v1/billing-custom-item', {
    body: {
      time_zone: 'Europe/Amsterdam', date: '2026-11-02', party_id: customerId, admin_id: adminId, description: 'Service', quantity: '1',
      unit: 'pcs', unit_price_excl_vat: '10.00', vat_kind: 'standard',
    },
  }));
  ok(await app.request('POST', `/main/v1/billing-box/${item.box_id}/close`));
  ok(await app.request('POST', `/main/v1/billing-box/${item.box_id}/approve`));
  await boxInState(app, item.box_id, 'ready');
  return ok(await app.request('POST', `/main/v1/billing-box/${item.box_id}/finalize`));
}

test('one query: my subscription, my sessions with prices, my invoices; a second end user sees nothing', async (t) => {
  const w = await world();
  const box = await finalizedBox(w.customerId);
  const mine = await viewer(w.manager.id);
  t.is(mine.status, 200, JSON.stringify(mine.body));
  t.falsy(mine.body.errors, JSON.stringify(mine.body.errors));
  const v = mine.body.data.viewer;
  t.is(v.endUser.databaseId, w.manager.id);
  t.deepEqual(v.subscriptions.map((s: any) => [s.databaseId, s.monetaryCredit]), [[w.subscriptionId, '5.00']], 'the session used 5.00 of the 10.00 credit');
  t.is(v.chargeSessions.length, 1);
  t.like(v.chargeSessions[0], { databaseId: w.sessionId });
  t.like(v.chargeSessions[0].subtotals.find((s: any) => s.kind === 'energy'), { amountExclVat: '5.00' });
  const invoice = v.billingBoxes.find((b: any) => b.databaseId === box.id);
  const pdf = invoice.documents.find((d: any) => d.filename.endsWith('.pdf'));
  const download = await app.request('GET', pdf.path, { auth: appAuth });
  t.is(download.status, 200);
  t.is(download.headers.get('content-type'), 'application/pdf');

  const driver = (await viewer(w.driver.id)).body.data.viewer;
  t.deepEqual(driver.chargeSessions.map((s: any) => s.databaseId), [w.sessionId]);
  t.deepEqual(driver.billingBoxes, [], 'a subscription authorization shows no invoices');

  const theirs = await viewer(w.stranger.id, `{ viewer {
    subscriptions { databaseId } chargeSessions { databaseId } billingBoxes { databaseId }
    subscription(id: "${w.subscriptionId}") { databaseId } chargeSession(id: "${w.sessionId}") { databaseId }
  } }`);
  t.falsy(theirs.body.errors, JSON.stringify(theirs.body.errors));
  t.deepEqual(theirs.body.data.viewer, { subscriptions: [], chargeSessions: [], billingBoxes: [], subscription: null, chargeSession: null });
});

test('revoking the authorization empties the viewer on the next request', async (t) => {
  const w = await world();
  t.is((await viewer(w.manager.id)).body.data.viewer.chargeSessions.length, 1);
  await app.request('POST', `/main/v1/end-user/${w.manager.id}/authorization-customer/${w.customerId}`, { body: { defunct: true } });
  const after = (await viewer(w.manager.id)).body.data.viewer;
  t.deepEqual([after.subscriptions, after.chargeSessions, after.billingBoxes], [[], [], []]);
});

test('App credentials: only the viewer and the App API\'s mutations, the header names a visible end user; Admin credentials get no viewer', async (t) => {
  const w = await world();
  const other = await viewer(w.manager.id, '{ viewer { endUser { databaseId } } administrations { id } }');
  t.is(other.status, 403);
  t.is(other.body.errors?.[0].extensions?.code, 'FORBIDDEN');
  const mutation = await viewer(w.manager.id, 'mutation { __typename }');
  t.is(mutation.status, 403);
  const adminMutation = await viewer(w.manager.id, `mutation { createEndUserSite(adminId: "${adminId}") { databaseId } }`);
  t.is(adminMutation.status, 403, 'only the App API\'s mutations (test/schema/end-users-mutations.test.ts)');
  const noHeader = await viewer(null, '{ viewer { endUser { databaseId } } }');
  t.is(noHeader.body.errors?.[0].extensions?.code, 'not_found');
  const unknown = await viewer('00000000-0000-7000-8000-000000000000', '{ viewer { endUser { databaseId } } }');
  t.is(unknown.body.errors?.[0].extensions?.code, 'not_found');
  const otherAdmin = await createAdministration(app);
  const limited = await app.credential({ role: 'app', adminIds: [otherAdmin.id] });
  const outside = await viewer(w.manager.id, '{ viewer { endUser { databaseId } } }', limited);
  t.is(outside.body.errors?.[0].extensions?.code, 'not_found');
  const admin = await viewer(w.manager.id, '{ viewer { endUser { databaseId } } }', app.admin);
  t.is(admin.body.errors?.[0].extensions?.code, 'FORBIDDEN');
});

test('the schema\'s limits hold: more than 100 per list is refused', async (t) => {
  const w = await world();
  const big = await viewer(w.manager.id, '{ viewer { chargeSessions(first: 101) { databaseId } } }');
  t.truthy(big.body.errors?.length);
  t.is(big.body.errors?.[0].extensions?.param, '$.first');
  // page is bounded like the REST App API's (nine digits).
  const far = await viewer(w.manager.id, '{ viewer { chargeSessions(first: 1, page: 1000000000) { databaseId } } }');
  t.is(far.body.errors?.[0].extensions?.param, '$.page');
  const last = await viewer(w.manager.id, '{ viewer { chargeSessions(first: 1, page: 999999999) { databaseId } } }');
  t.falsy(last.body.errors, JSON.stringify(last.body.errors));
});
