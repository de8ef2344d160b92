// "Currently valid" has one meaning (src/platform/validity.ts, [valid_from, valid_until) at
// validityNow()): GraphQL's isCurrentlyValid / isValid answer what REST's is_currently_valid /
// is_valid answer, for the same records at the bounds. The moment is pinned exactly to a record's
// valid_from (valid) and another's valid_until (not valid), so a transport that reads its own clock
// or re-implements the rule disagrees and fails here.
import test from 'ava';
import { startTestApp, type Auth, type TestApp } from '../helpers/app.ts';
import { createAdministration, createEndUser, insertToken, insertTokenLink, insertTokenSubscription } from '../helpers/factories.ts';
import { pinValidityNowForTests } from '../../src/platform/validity.ts';
import { data } from './graphql.ts';

let app: TestApp;
let adminId: string;
let appAuth: Auth;
test.before(async () => {
  app = await startTestApp();
  await app.stopWorker();
  adminId = (await createAdministration(app)).id;
  appAuth = await app.credential({ role: 'app' });
});
test.after.always(async () => {
  pinValidityNowForTests(null);
  await app?.close();
});

const HOUR = 3_600_000;

/** The records of one case: a subscription, a token linked to it, an end user authorized for the subscription. */
async function record(now: Date, subscription: { from: number; until?: number }, link: { from?: number; until?: number }) {
  const at = (delta: number) => new Date(now.getTime() + delta);
  const sub = await insertTokenSubscription(app, adminId, {
    validFrom: at(subscription.from), validUntil: subscription.until === undefined ? null : at(subscription.until),
  });
  const token = await insertToken(app, adminId);
  const inserted = await insertTokenLink(app, adminId, sub.id, token.id, {
    validFrom: link.from === undefined ? null : at(link.from), validUntil: link.until === undefined ? null : at(link.until),
  });
  const endUser = await createEndUser(app, adminId);
  const authorized = await app.request('POST', `/main/v1/end-user/${endUser.id}/authorization-msp-token-subscription/${sub.id}`, { body: {} });
  if (authorized.status !== 200) throw new Error(JSON.stringify(authorized.body));
  return { subscriptionId: sub.id, evcoId: token.evcoId, linkId: inserted.id, endUserId: endUser.id };
}

type Records = Awaited<ReturnType<typeof record>>;

const ok = (r: { status: number; body: any }) => { if (r.status !== 200) throw new Error(`${r.status} ${JSON.stringify(r.body)}`); return r.body; };

/** What REST answers for the records. */
async function rest(r: Records) {
  return {
    token: ok(await app.request('GET', `/main/v1/msp-token/${r.evcoId}`)).is_currently_valid,
    tokenInList: (ok(await app.request('GET', '/main/v1/msp-token?page_size=1000')).items.find((x: any) => x.evco_id === r.evcoId)).is_currently_valid,
    link: ok(await app.request('GET', `/main/v1/msp-token-link/${r.linkId}`)).is_currently_valid,
    subscription: ok(await app.request('GET', `/main/v1/msp-token-subscription/${r.subscriptionId}`)).is_valid,
    viewerSubscription: ok(await app.request('GET', `/main/v1/${r.endUserId}/msp-token-subscription/${r.subscriptionId}`, { auth: appAuth })).is_currently_valid,
  };
}

/** What GraphQL answers for the same records. */
async function graph(r: Records) {
  const admin = await data(app, `query ($evco: String!, $sub: ID!) {
    token(evcoId: $evco) { isCurrentlyValid links { edges { node { databaseId isCurrentlyValid } } } }
    tokenSubscription(id: $sub) { isValid tokenLinks { edges { node { databaseId isCurrentlyValid } } } }
  }`, { evco: r.evcoId, sub: r.subscriptionId });
  const viewer = ok(await app.request('POST', '/graphql', {
    body: { query: `{ viewer { subscription(id: "${r.subscriptionId}") { isCurrentlyValid } subscriptions { databaseId isCurrentlyValid } } }` },
    auth: appAuth, headers: { 'x-svc-end-user': r.endUserId },
  }));
  if (viewer.errors) throw new Error(JSON.stringify(viewer.errors));
  const linkOf = (edges: any[]) => edges.find((e) => e.node.databaseId === r.linkId).node.isCurrentlyValid;
  return {
    token: admin.token.isCurrentlyValid,
    tokenInList: admin.token.isCurrentlyValid,
    link: linkOf(admin.tokenSubscription.tokenLinks.edges),
    linkOfToken: linkOf(admin.token.links.edges),
    subscription: admin.tokenSubscription.isValid,
    viewerSubscription: viewer.data.viewer.subscription.isCurrentlyValid,
    viewerSubscriptions: viewer.data.viewer.subscriptions.find((s: any) => s.databaseId === r.subscriptionId).isCurrentlyValid,
  };
}

// [case, subscription bounds, link bounds, REST's answers: token and link, subscription] relative to the pinned moment.
const CASES: [string, { from: number; until?: number }, { from?: number; until?: number }, boolean, boolean][] = [
  ['the subscription starts exactly now (the link defers to it)', { from: 0 }, {}, true, true],
  ['the subscription ends exactly now', { from: -24 * HOUR, until: 0 }, {}, false, false],
  ['the link starts exactly now', { from: -24 * HOUR }, { from: 0 }, true, true],
  ['the link ends exactly now', { from: -24 * HOUR }, { until: 0 }, false, true],
  ['the subscription starts a millisecond after now', { from: 1 }, {}, false, false],
  ['the link ended a millisecond ago', { from: -24 * HOUR }, { until: -1 }, false, true],
];

for (const [name, subscription, link, linkValid, subscriptionValid] of CASES) {
  test.serial(`GraphQL answers what REST answers: ${name}`, async (t) => {
    // A moment an hour ahead, pinned: the records' bounds lie exactly on it.
    const now = new Date(Math.floor(Date.now() / 1000) * 1000 + HOUR);
    const records = await record(now, subscription, link);
    pinValidityNowForTests(now);
    try {
      const [r, g] = [await rest(records), await graph(records)];
      t.deepEqual(r, {
        token: linkValid, tokenInList: linkValid, link: linkValid, subscription: subscriptionValid, viewerSubscription: subscriptionValid,
      }, 'REST\'s meaning: [valid_from, valid_until)');
      t.deepEqual(g, { ...r, linkOfToken: r.link, viewerSubscriptions: r.viewerSubscription }, 'GraphQL agrees with REST');
    } finally {
      pinValidityNowForTests(null);
    }
  });
}

test.serial('a defunct subscription or link is not currently valid, in both transports', async (t) => {
  const now = new Date(Math.floor(Date.now() / 1000) * 1000 + HOUR);
  const records = await record(now, { from: -HOUR }, {});
  ok(await app.request('PUT', `/main/v1/msp-token-link/${records.linkId}/defunct`, { body: {} }));
  pinValidityNowForTests(now);
  try {
    const [r, g] = [await rest(records), await graph(records)];
    t.like(r, { token: false, link: false, subscription: true });
    t.deepEqual(g, { ...r, linkOfToken: r.link, viewerSubscriptions: r.viewerSubscription });
  } finally {
    pinValidityNowForTests(null);
  }
});
