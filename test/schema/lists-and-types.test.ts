// Issue 24, "Types" and "Lists": structured values are object types equal to their REST twins,
// startCursor is set on root and child pages, and the operator's list filters (matching and not
// matching rows, bad values as validation errors with the argument's path, scoped credentials).
import test from 'ava';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { configureBilling, createSeries } from '../helpers/billing-factories.ts';
import { createArrangement, createEvse, createLocatedEvse } from '../helpers/cpo-factories.ts';
import { createAdministration } from '../helpers/factories.ts';
import { pricedSubscription, processed, sessionBody, submitSession } from '../helpers/session-factories.ts';
import { countQueries } from '../helpers/sql-count.ts';
import { data, graphql } from './graphql.ts';
import { seedCustomers } from './parties.ts';
import { asGraphql } from './rest-shape.ts';

let app: TestApp;
test.before(async () => { app = await startTestApp(); });
test.after.always(async () => { await app?.close(); });

/** An administration with `customers` customers of `sessions` priced October sessions each. */
async function seedBilled(customers: number, sessions: number) {
  const admin = await createAdministration(app);
  await configureBilling(app, admin.id);
  await createSeries(app, admin.id);
  let ratePlanId: string | undefined;
  const subs: { evcoId: string; customerId: string }[] = [];
  const ids: string[] = [];
  for (let c = 0; c < customers; c++) {
    const sub = await pricedSubscription(app, admin.id, ratePlanId ? { ratePlanId } : {});
    ratePlanId = sub.ratePlanId;
    subs.push(sub as any);
    for (let s = 0; s < sessions; s++) {
      const day = String(2 + s).padStart(2, '0');
      ids.push((await submitSession(app, sessionBody(sub.evcoId, { start_date_time: `2026-10-${day}T10:00:00Z`, end_date_time: `2026-10-${day}T11:00:00Z` }))).id);
    }
  }
  for (const id of ids) await processed(app, id);
  return { adminId: admin.id, subs, sessionIds: ids };
}

const BOXES = `query ($admin: ID, $from: DateTime, $until: DateTime, $party: ID, $state: BillingBoxState) {
  billingBoxes(adminId: $admin, periodFrom: $from, periodUntil: $until, partyId: $party, state: $state, first: 10) {
    edges { node { databaseId partyId
      vatBreakdown { vatKind vatCategory vatPercentage taxableAmount vatAmount }
      documents { filename contentType size primary draft }
      rollups { volume { unit volume } items(first: 20) { subItems { kind label volume unit amountExclVat } } }
    } }
    pageInfo { startCursor endCursor }
  }
}`;

test.serial('a box read through GraphQL equals REST; its page costs the same statements for 1 or 6 boxes; box filters', async (t) => {
  const small = await seedBilled(1, 1);
  const large = await seedBilled(6, 2);
  await data(app, '{ administrations { id } }');
  const forSmall = await countQueries(app.orm, () => data(app, BOXES, { admin: small.adminId }));
  let result: Record<string, any> = {};
  const forLarge = await countQueries(app.orm, async () => { result = await data(app, BOXES, { admin: large.adminId }); });
  const boxes = result.billingBoxes.edges.map((e: any) => e.node);
  t.is(boxes.length, 6);
  t.is(forLarge.length, forSmall.length, forLarge.join('\n'));

  const box = boxes[0];
  const rest = (await app.request('GET', `/main/v1/billing-box/${box.databaseId}`)).body;
  t.deepEqual(box.vatBreakdown, asGraphql(rest.vat_breakdown));
  t.deepEqual(box.documents, asGraphql(rest.documents));
  t.deepEqual(box.rollups[0].volume, Object.entries(rest.rollups[0].volume).map(([unit, volume]) => ({ unit, volume })));
  const items = (await app.request('GET', `/main/v1/billing-box/${box.databaseId}/msp-charge-session`)).body.items;
  t.deepEqual(box.rollups.flatMap((r: any) => r.items.map((i: any) => i.subItems)), items.map((i: any) => asGraphql(i.sub_items)));
  t.is(result.billingBoxes.pageInfo.startCursor, box.databaseId);

  const party = boxes[1].partyId;
  t.deepEqual((await data(app, BOXES, { admin: large.adminId, party })).billingBoxes.edges.map((e: any) => e.node.partyId), [party]);
  t.is((await data(app, BOXES, { admin: large.adminId, state: 'FINALIZED' })).billingBoxes.edges.length, 0);
  t.is((await data(app, BOXES, { admin: large.adminId, from: '2026-09-01T00:00:00Z', until: '2026-12-01T00:00:00Z' })).billingBoxes.edges.length, 6);
  t.is((await data(app, BOXES, { admin: large.adminId, from: '2026-11-15T00:00:00Z' })).billingBoxes.edges.length, 0);
  t.is((await data(app, BOXES, { admin: small.adminId, party })).billingBoxes.edges.length, 0, 'filters combine with AND');
  const reversed = await graphql(app, BOXES, { from: '2026-11-01T00:00:00Z', until: '2026-10-01T00:00:00Z' });
  t.like(reversed.body.errors?.[0].extensions, { code: 'validation_failed', param: '$.periodUntil' });
  const badParty = await graphql(app, BOXES, { party: 'nonsense' });
  t.like(badParty.body.errors?.[0].extensions, { param: '$.partyId' });
  const scoped = await app.credential({ adminIds: [small.adminId] });
  t.is((await data(app, BOXES, { admin: large.adminId }, scoped)).billingBoxes.edges.length, 0, 'a scoped credential sees only its administrations');
});

const SESSIONS = `query ($customer: ID, $token: String, $from: DateTime, $until: DateTime, $status: ChargeSessionStatus, $first: Int, $after: String, $last: Int, $before: String) {
  chargeSessions(customerId: $customer, tokenEvcoId: $token, startFrom: $from, startUntil: $until, status: $status, first: $first, after: $after, last: $last, before: $before) {
    edges { cursor node { databaseId tokenEvcoId startDateTime } } pageInfo { startCursor endCursor hasNextPage hasPreviousPage }
  }
}`;

test.serial('session filters: customer, token, date range; startCursor on first/after and last/before; chargeSession by REST id', async (t) => {
  const { subs, sessionIds } = await seedBilled(2, 3);
  const [one, two] = subs;
  const ofOne = (await data(app, SESSIONS, { customer: one.customerId, first: 10 })).chargeSessions;
  t.deepEqual(ofOne.edges.map((e: any) => e.node.databaseId), sessionIds.slice(0, 3));
  t.true(ofOne.edges.every((e: any) => e.node.tokenEvcoId === one.evcoId));
  t.deepEqual((await data(app, SESSIONS, { token: two.evcoId, first: 10 })).chargeSessions.edges.map((e: any) => e.node.databaseId), sessionIds.slice(3));
  t.is((await data(app, SESSIONS, { token: 'NL-XXX-C00000000', first: 10 })).chargeSessions.edges.length, 0);
  const dated = await data(app, SESSIONS, { customer: one.customerId, from: '2026-10-03T00:00:00Z', until: '2026-10-04T00:00:00Z', first: 10 });
  t.deepEqual(dated.chargeSessions.edges.map((e: any) => e.node.databaseId), [sessionIds[1]]);
  t.is((await data(app, SESSIONS, { customer: one.customerId, status: 'RECEIVED', first: 10 })).chargeSessions.edges.length, 0);

  const first = (await data(app, SESSIONS, { customer: one.customerId, first: 2 })).chargeSessions;
  t.is(first.pageInfo.startCursor, first.edges[0].cursor);
  const after = (await data(app, SESSIONS, { customer: one.customerId, first: 2, after: first.pageInfo.endCursor })).chargeSessions;
  t.is(after.pageInfo.startCursor, sessionIds[2]);
  const before = (await data(app, SESSIONS, { customer: one.customerId, last: 1, before: sessionIds[2] })).chargeSessions;
  t.is(before.pageInfo.startCursor, sessionIds[1]);
  t.true(before.pageInfo.hasPreviousPage);

  const bad = await graphql(app, SESSIONS, { customer: 'nonsense', first: 1 });
  t.like(bad.body.errors?.[0].extensions, { param: '$.customerId' });
  const reversed = await graphql(app, SESSIONS, { from: '2026-11-01T00:00:00Z', until: '2026-10-01T00:00:00Z' });
  t.like(reversed.body.errors?.[0].extensions, { code: 'validation_failed', param: '$.startUntil' });

  const { chargeSession } = await data(app, 'query ($id: ID!) { chargeSession(id: $id) { databaseId } }', { id: sessionIds[0] });
  t.deepEqual(chargeSession, { databaseId: sessionIds[0] });
  t.is((await data(app, 'query ($id: ID!) { chargeSession(id: $id) { databaseId } }', { id: 'nonsense' })).chargeSession, null);
});

test('customers by a part of their name; a child connection sets startCursor too', async (t) => {
  const admin = (await createAdministration(app)).id;
  const ids = await seedCustomers(app, admin, 3, { addresses: 3, mandates: 0 });
  const { customers } = await data(app, 'query ($id: ID!) { customers(adminId: $id, first: 10) { edges { node { databaseId name } } } }', { id: admin });
  const name = customers.edges[1].node.name as string;
  const search = `query ($q: String, $id: ID) { customers(adminId: $id, nameContains: $q, first: 10) { edges { node { databaseId } } } }`;
  const found = await data(app, search, { id: admin, q: name.slice(1).toUpperCase() });
  t.true(found.customers.edges.some((e: any) => e.node.databaseId === ids[1]));
  t.is((await data(app, search, { id: admin, q: 'no such name here' })).customers.edges.length, 0);
  t.is((await data(app, search, { id: admin, q: '%%%' })).customers.edges.length, 0, 'LIKE wildcards are literal');
  const short = await graphql(app, search, { q: 'ab' });
  t.like(short.body.errors?.[0].extensions, { code: 'validation_failed', param: '$.nameContains' });

  const child = await data(app, `query ($id: ID!) { customer(id: $id) { billingAddresses(first: 2) { edges { cursor } pageInfo { startCursor endCursor } } } }`, { id: ids[0] });
  const page = child.customer.billingAddresses;
  t.is(page.pageInfo.startCursor, page.edges[0].cursor);
  const next = await data(app, `query ($id: ID!, $after: String) { customer(id: $id) { billingAddresses(first: 2, after: $after) { edges { cursor } pageInfo { startCursor } } } }`,
    { id: ids[0], after: page.pageInfo.endCursor });
  t.is(next.customer.billingAddresses.pageInfo.startCursor, next.customer.billingAddresses.edges[0].cursor);
  const back = await data(app, `query ($id: ID!, $before: String) { customer(id: $id) { billingAddresses(last: 1, before: $before) { edges { cursor } pageInfo { startCursor } } } }`,
    { id: ids[0], before: next.customer.billingAddresses.edges[0].cursor });
  t.is(back.customer.billingAddresses.pageInfo.startCursor, page.edges[1].cursor);
});

test('EVSEs by administration and location, reimbursement arrangements by administration and customer, a webhook subscription\'s delivery attempts', async (t) => {
  const admin = (await createAdministration(app)).id;
  const other = (await createAdministration(app)).id;
  const located = await createLocatedEvse(app, admin);
  const plain = await createEvse(app, admin);
  await createEvse(app, other);
  const EVSES = 'query ($admin: ID, $location: String) { evses(adminId: $admin, locationId: $location, first: 10) { edges { node { evseUid } } pageInfo { startCursor } } }';
  const ofAdmin = (await data(app, EVSES, { admin })).evses;
  t.deepEqual(ofAdmin.edges.map((e: any) => e.node.evseUid).sort(), [located.evse_uid, plain.evse_uid].sort());
  t.truthy(ofAdmin.pageInfo.startCursor);
  t.deepEqual((await data(app, EVSES, { admin, location: located.location_id })).evses.edges.map((e: any) => e.node.evseUid), [located.evse_uid]);
  t.deepEqual((await data(app, EVSES, { admin: other, location: located.location_id })).evses.edges, []);
  const scoped = await app.credential({ adminIds: [other] });
  t.deepEqual((await data(app, EVSES, { admin }, scoped)).evses.edges, [], 'a scoped credential sees only its administrations');
  const longLocation = await graphql(app, EVSES, { location: 'x'.repeat(65) });
  t.like(longLocation.body.errors?.[0].extensions, { code: 'validation_failed', param: '$.locationId' });

  const [owner, second] = await seedCustomers(app, admin, 2);
  const arrangement = await createArrangement(app, admin, owner);
  await createArrangement(app, admin, second);
  const ARRANGEMENTS = 'query ($admin: ID, $customer: ID) { reimbursementArrangements(adminId: $admin, customerId: $customer, first: 10) { edges { node { databaseId customerId } } } }';
  t.is((await data(app, ARRANGEMENTS, { admin })).reimbursementArrangements.edges.length, 2);
  t.deepEqual((await data(app, ARRANGEMENTS, { admin, customer: owner })).reimbursementArrangements.edges.map((e: any) => e.node),
    [{ databaseId: arrangement.id, customerId: owner }]);
  t.deepEqual((await data(app, ARRANGEMENTS, { admin: other, customer: owner })).reimbursementArrangements.edges, []);
  t.deepEqual((await data(app, ARRANGEMENTS, { admin }, scoped)).reimbursementArrangements.edges, []);
  const badCustomer = await graphql(app, ARRANGEMENTS, { customer: 'nonsense' });
  t.like(badCustomer.body.errors?.[0].extensions, { code: 'validation_failed', param: '$.customerId' });

  const subscription = (await app.request('POST', '/main/v1/webhook-subscription', {
    body: { url: 'http://127.0.0.1:9/hook', kinds: ['customer'], secret: 'a-secret-of-enough-length-1234', admin_ids: [admin] },
  })).body;
  const em = app.orm.em.fork();
  await em.getConnection().execute(`insert into webhook_attempt (subscription_id, event_id, attempt, succeeded, status_code, error, duration_ms, attempted_at)
    values ('${subscription.id}', 1, 1, false, 500, 'boom', 12, now()), ('${subscription.id}', 1, 2, true, 200, null, 8, now())`);
  const rest = (await app.request('GET', `/main/v1/webhook-subscription/${subscription.id}/delivery`)).body.items;
  const DELIVERIES = `query ($id: ID!) { node(id: $id) { ... on WebhookSubscription {
    deliveryAttempts(first: 10) { edges { node { databaseId eventId attempt succeeded statusCode error durationMs attemptedAt } } pageInfo { startCursor } } } } }`;
  const { node } = await data(app, DELIVERIES, { id: (await data(app, 'query { webhookSubscriptions(first: 50) { edges { node { id databaseId } } } }'))
    .webhookSubscriptions.edges.find((e: any) => e.node.databaseId === subscription.id).node.id });
  t.deepEqual(node.deliveryAttempts.edges.map((e: any) => e.node), rest.map((a: any) => ({
    databaseId: a.id, eventId: a.event_id, attempt: a.attempt, succeeded: a.succeeded, statusCode: a.status_code, error: a.error, durationMs: a.duration_ms, attemptedAt: a.attempted_at,
  })));
  t.is(node.deliveryAttempts.pageInfo.startCursor, rest[0].id);
});
