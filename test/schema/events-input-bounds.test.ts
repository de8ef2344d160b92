// GraphQL holds the event log's filters and a webhook subscription's members to the bounds of REST
// (GET /event, the /webhook-subscription body), not only to the 10,000 characters of any input string.
import test from 'ava';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { createAdministration } from '../helpers/factories.ts';
import { data, failure } from './graphql.ts';

let app: TestApp;
let adminId: string;
test.before(async () => {
  app = await startTestApp();
  adminId = (await createAdministration(app)).id;
});
test.after.always(async () => { await app?.close(); });

const EVENTS = 'query ($kind: String, $resourceId: String, $actor: String) { events(kind: $kind, resourceId: $resourceId, actor: $actor, first: 1) { edges { node { eventId } } } }';
const CREATE = `mutation ($externalReference: String, $adminIds: [String!]) {
  createWebhookSubscription(url: "https://hooks.example.com/svc", kinds: ["customer"], secret: "whsec-bounds-0123456789", adminIds: $adminIds, externalReference: $externalReference) { databaseId }
}`;
const subscriptionCount = async () => Number((await app.orm.em.fork().getConnection().execute('select count(*) as n from webhook_subscription'))[0].n);

test('events: an unknown kind, resourceId or actor over 255 characters is validation_failed at the argument, as REST GET /event', async (t) => {
  for (const [name, max] of [['resourceId', 255], ['actor', 255]] as const) {
    t.like(await failure(app, EVENTS, { [name]: 'x'.repeat(max + 1) }), { code: 'validation_failed', param: `$.${name}` }, name);
    t.deepEqual((await data(app, EVENTS, { [name]: 'x'.repeat(max) })).events.edges, [], `${name} of ${max} characters is a filter`);
  }
  // kind is one of the known event kinds (an enumeration: anything else is refused, not an empty list).
  for (const kind of ['x'.repeat(65), 'x'.repeat(64), 'Customer']) {
    t.like(await failure(app, EVENTS, { kind }), { code: 'validation_failed', param: '$.kind' }, kind);
  }
  t.truthy((await data(app, EVENTS, { kind: 'webhook_subscription' })).events.edges, 'a known kind is a filter');
});

test.serial('createWebhookSubscription: an externalReference over 255 characters is validation_failed and creates nothing', async (t) => {
  const before = await subscriptionCount();
  t.like(await failure(app, CREATE, { adminIds: [adminId], externalReference: 'r'.repeat(256) }),
    { code: 'validation_failed', param: '$.externalReference', data: { createWebhookSubscription: null } });
  t.like(await failure(app, CREATE, { adminIds: ['a'.repeat(65)], externalReference: null }), { code: 'validation_failed', param: '$.adminIds[0]' });
  t.is(await subscriptionCount(), before);
  const created = await data(app, CREATE, { adminIds: [adminId], externalReference: 'r'.repeat(255) });
  t.truthy(created.createWebhookSubscription.databaseId);
  t.is(await subscriptionCount(), before + 1);
});
