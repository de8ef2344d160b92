// GraphQL twins of POST /roaming-connection/{id}/ocpi/register (both directions) and POST
// /webhook-subscription/{id}/redeliver: the same services, the same answers as REST's reads.
// And webhook subscriptions as nodes.
import test from 'ava';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { createAdministration } from '../helpers/factories.ts';
import { createRoamingConnection } from '../helpers/roaming-factories.ts';
import { startCpoPeer } from '../ocpi/cpo-peer.ts';
import { data, failure, graphql, restBody } from './graphql.ts';

let app: TestApp;
test.before(async () => { app = await startTestApp(); });
test.after.always(async () => { await app?.close(); });

const REGISTER = `mutation ($id: ID!, $u: String, $t: String) { registerOcpiConnection(id: $id, versionsUrl: $u, token: $t) {
  roamingConnectionId status version versionsUrl ourVersionsUrl tokenA parties { role countryCode partyId } endpoints { identifier } } }`;

test('registerOcpiConnection: issues a token A (answered once), or registers with the peer, like REST', async (t) => {
  const waiting = (await createRoamingConnection(app, { kind: 'provider_facilitated' })).id as string;
  const issued = (await data(app, REGISTER, { id: waiting })).registerOcpiConnection;
  t.like(issued, { roamingConnectionId: waiting, status: 'token_a_issued' });
  t.truthy(issued.tokenA);
  const rest = await restBody(app, `/roaming-connection/${waiting}/ocpi`);
  t.like(rest, { status: 'token_a_issued', our_versions_url: issued.ourVersionsUrl });
  t.is(rest.token_a, undefined, 'a later read does not show the token A');

  const cpo = await startCpoPeer();
  try {
    const connection = (await createRoamingConnection(app, { kind: 'provider_facilitated' })).id as string;
    t.like(await failure(app, REGISTER, { id: connection, u: 'not a url', t: cpo.tokenForService }), { code: 'validation_failed', param: '$.versionsUrl' });
    t.like(await restBody(app, `/roaming-connection/${connection}/ocpi`).catch(() => ({ status: 'none' })), { status: 'none' }, 'nothing stored');
    const registered = (await data(app, REGISTER, { id: connection, u: cpo.versionsUrl, t: cpo.tokenForService })).registerOcpiConnection;
    t.like(registered, { status: 'registered', version: '2.2.1', versionsUrl: cpo.versionsUrl, tokenA: null });
    t.true(registered.endpoints.length > 0);
    t.like(await restBody(app, `/roaming-connection/${connection}/ocpi`), { status: 'registered', versions_url: cpo.versionsUrl });
    t.like(await failure(app, REGISTER, { id: connection }), { code: 'invalid_input' });
  } finally {
    await cpo.close();
  }
  t.like(await failure(app, REGISTER, { id: 'nonsense' }), { code: 'not_found' });
});

test('redeliverWebhookSubscription: delivers again from an event on (the REST service), bad event ids at their argument', async (t) => {
  const created = (await data(app, `mutation { createWebhookSubscription(url: "https://hooks.example.com/a", kinds: ["customer"],
    secret: "whsec-redeliver-0123456789") { databaseId } }`)).createWebhookSubscription;
  const { events } = await data(app, '{ events(first: 1) { edges { node { eventId } } } }');
  const fromEventId = events.edges[0].node.eventId;
  const REDELIVER = 'mutation ($id: ID!, $e: String!) { redeliverWebhookSubscription(id: $id, fromEventId: $e) { databaseId url disabled } }';
  t.like((await data(app, REDELIVER, { id: created.databaseId, e: fromEventId })).redeliverWebhookSubscription, { databaseId: created.databaseId, disabled: false });
  const rest = await app.request('POST', `/main/v1/webhook-subscription/${created.databaseId}/redeliver`, { body: { from_event_id: fromEventId } });
  t.is(rest.status, 200);
  t.like(await failure(app, REDELIVER, { id: created.databaseId, e: 'abc' }), { code: 'invalid_input', param: '$.fromEventId' });
  t.like(await failure(app, REDELIVER, { id: created.databaseId, e: '1'.repeat(21) }), { code: 'validation_failed', param: '$.fromEventId' });
  t.like(await failure(app, REDELIVER, { id: created.databaseId, e: '999999999' }), { code: 'not_found', param: '$.fromEventId' });
});

// Found by probing (2026-11-29): null for url, kinds, secret or disabled was answered as a success and ignored (REST: 400 at the
// member), and the mutation lacked admin_ids and external_reference of REST's merge-update.
test('updateWebhookSubscription merges as REST does: null cannot clear url, kinds, secret or disabled; adminIds and externalReference set and clear', async (t) => {
  const a = (await createAdministration(app)).id;
  const b = (await createAdministration(app)).id;
  const created = await app.request('POST', '/main/v1/webhook-subscription', {
    body: { url: 'https://hooks.example.com/u', kinds: ['customer'], secret: 'whsec-update-0123456789', admin_ids: [a], external_reference: `wh-${process.pid}-u` },
  });
  t.is(created.status, 200, JSON.stringify(created.body));
  const id = created.body.id as string;
  const UPDATE = `mutation ($id: ID!, $url: String, $kinds: [String!], $secret: String, $disabled: Boolean, $adminIds: [String!], $ref: String) {
    updateWebhookSubscription(id: $id, url: $url, kinds: $kinds, secret: $secret, disabled: $disabled, adminIds: $adminIds, externalReference: $ref) {
      databaseId url kinds adminIds disabled } }`;
  for (const member of ['url', 'kinds', 'secret', 'disabled']) {
    const rest = await app.request('POST', `/main/v1/webhook-subscription/${id}`, { body: { [member]: null } });
    t.is(rest.status, 400, member);
    t.like(await failure(app, UPDATE, { id, [member]: null }), { code: rest.body.code, param: `$.${member}` }, member);
  }
  t.like(await restBody(app, `/webhook-subscription/${id}`), { url: 'https://hooks.example.com/u', kinds: ['customer'], disabled: false, admin_ids: [a] }, 'nothing changed');

  const moved = (await data(app, UPDATE, { id, adminIds: [b], ref: `wh-${process.pid}-v` })).updateWebhookSubscription;
  t.deepEqual(moved.adminIds, [b]);
  t.like(await restBody(app, `/webhook-subscription/${id}`), { admin_ids: [b], external_reference: `wh-${process.pid}-v`, url: 'https://hooks.example.com/u' });
  t.like(await failure(app, UPDATE, { id, adminIds: ['no-such-administration'] }), { code: 'not_found', param: '$.adminIds[0]' });
  t.like(await failure(app, UPDATE, { id, ref: '' }), { code: 'validation_failed', param: '$.externalReference' });
  const cleared = (await data(app, UPDATE, { id, adminIds: null, ref: null })).updateWebhookSubscription;
  t.is(cleared.adminIds, null, 'null: every administration, as REST');
  t.like(await restBody(app, `/webhook-subscription/${id}`), { admin_ids: null, external_reference: null });
});

// Found by probing: the loader answered not_found errors where every other node type answers null.
test('node and nodes of a webhook subscription the caller does not see, or that does not exist, are null without errors', async (t) => {
  const a = (await createAdministration(app)).id;
  const b = (await createAdministration(app)).id;
  const hook = await app.request('POST', '/main/v1/webhook-subscription', {
    body: { url: 'https://hooks.example.com/b', kinds: ['customer'], secret: 'whsec-node-0123456789', admin_ids: [b] },
  });
  t.is(hook.status, 200, JSON.stringify(hook.body));
  const gid = (id: string) => Buffer.from(`WebhookSubscription:${id}`).toString('base64');
  const missing = gid('01a2284c-0000-7000-8000-000000000000');
  const QUERY = 'query ($ids: [ID!]!, $id: ID!) { nodes(ids: $ids) { id } node(id: $id) { id } }';
  const limited = await graphql(app, QUERY, { ids: [gid(hook.body.id), missing], id: gid(hook.body.id) }, await app.credential({ adminIds: [a] }));
  t.deepEqual(limited.body, { data: { nodes: [null, null], node: null } });
  const unlimited = await graphql(app, QUERY, { ids: [gid(hook.body.id), missing], id: missing });
  t.deepEqual(unlimited.body, { data: { nodes: [{ id: gid(hook.body.id) }, null], node: null } });
});
