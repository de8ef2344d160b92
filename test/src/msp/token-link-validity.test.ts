// One rule for "may this link start a session now" (TokenLink.isCurrentlyUsable, src/contracts/contract-entity.ts):
// REST is_currently_valid and GraphQL isCurrentlyValid agree, also when only the subscription ended.
import test from 'ava';
import { startTestApp, type TestApp } from '../../helpers/app.ts';
import { createAdministration, insertToken, insertTokenLink, insertTokenSubscription } from '../../helpers/factories.ts';
import { data } from '../../schema/graphql.ts';

let app: TestApp;
test.before(async () => { app = await startTestApp(); });
test.after.always(async () => { await app?.close(); });

const QUERY = `query ($id: ID!) { tokenSubscription(id: $id) { tokenLinks { edges { node { databaseId isCurrentlyValid } } } } }`;

for (const [name, subscription, link, expected] of [
  ['both valid', {}, {}, true],
  ['the subscription ended, the link did not', { validUntil: new Date('2026-02-01T00:00:00Z') }, {}, false],
  ['the link ended', {}, { validUntil: new Date('2026-02-01T00:00:00Z') }, false],
  ['the subscription is defunct', { defunct: true }, {}, false],
] as const) {
  test(`REST and GraphQL agree: ${name}`, async (t) => {
    const admin = (await createAdministration(app)).id;
    const sub = await insertTokenSubscription(app, admin, { validFrom: new Date('2026-01-01T00:00:00Z'), ...subscription });
    const token = await insertToken(app, admin);
    const inserted = await insertTokenLink(app, admin, sub.id, token.id, link);
    const rest = await app.request('GET', `/main/v1/msp-token-link/${inserted.id}`);
    t.is(rest.status, 200, JSON.stringify(rest.body));
    t.is(rest.body.is_currently_valid, expected);
    const graph = await data(app, QUERY, { id: sub.id });
    t.deepEqual(graph.tokenSubscription.tokenLinks.edges.map((e: any) => e.node.isCurrentlyValid), [expected]);
  });
}
