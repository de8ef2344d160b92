import test from 'ava';
import pg from 'pg';
import { Token } from '../../../src/msp/token.entity.ts';
import { scopedEm } from '../../../src/access/admin-scope.ts';
import { startTestApp, type TestApp } from '../../helpers/app.ts';
import { lockWaits } from '../../helpers/db.ts';
import { createAdministration, createTokenSubscription, insertToken } from '../../helpers/factories.ts';

let app: TestApp;
let adminId: string;
test.before(async () => {
  app = await startTestApp();
  adminId = (await createAdministration(app)).id;
});
test.after.always(async () => { await app?.close(); });

const PATH = '/main/v1/msp-token-link';
const SUBSCRIPTION = '/main/v1/msp-token-subscription';
const at = (offsetMs: number) => new Date(Date.now() + offsetMs).toISOString();
const HOUR = 3_600_000;

const link = (subscriptionId: string, evcoId: string, fields: Record<string, unknown> = {}) =>
  app.request('POST', PATH, { body: { subscription_id: subscriptionId, evco_id: evcoId, ...fields } });

test('create, read: valid_from null defers to the subscription', async (t) => {
  const subscription = await createTokenSubscription(app, adminId, { valid_from: at(-HOUR) });
  const token = await insertToken(app, adminId);
  const created = await link(subscription.id, token.evcoId);
  t.is(created.status, 200, JSON.stringify(created.body));
  t.like(created.body, {
    subscription_id: subscription.id, evco_id: token.evcoId, admin_id: adminId, valid_from: null,
    effective_valid_from: subscription.valid_from, valid_until: null, defunct: false, is_currently_valid: true, external_updated_at: null,
  });
  t.regex(created.body.created_at, /Z$/);
  const read = await app.request('GET', `${PATH}/${created.body.id}`);
  t.deepEqual({ ...read.body, is_currently_valid: true }, created.body);
  const inSubscription = await app.request('GET', `${SUBSCRIPTION}/${subscription.id}`);
  t.deepEqual(inSubscription.body.links, [{
    id: created.body.id, evco_id: token.evcoId, valid_from: null, effective_valid_from: subscription.valid_from, valid_until: null, defunct: false,
  }]);
  const stored = await scopedEm(app.orm).findOneOrFail(Token, { id: token.id });
  t.truthy(stored.firstLinkedAt);

  const missing = await app.request('GET', `${PATH}/0190f5d2-0000-7000-8000-000000000000`);
  t.like(missing.body, { code: 'not_found' });
  t.like((await app.request('GET', `${PATH}/nope`)).body, { code: 'not_found' });
});

test('moving a token: seamless at equal bounds, refused with one millisecond of overlap', async (t) => {
  const token = await insertToken(app, adminId);
  const from = await createTokenSubscription(app, adminId, { valid_from: '2026-01-01T00:00:00Z' });
  const to = await createTokenSubscription(app, adminId, { valid_from: '2026-01-01T00:00:00Z' });
  const old = await link(from.id, token.evcoId);
  t.is(old.status, 200);
  const T = '2026-04-01T00:00:00.000Z';

  const whileOpen = await link(to.id, token.evcoId, { valid_from: T });
  t.is(whileOpen.status, 400);
  t.like(whileOpen.body, { code: 'overlapping_token_link', param: '$.valid_from' });
  t.true(whileOpen.body.message.includes(from.id));

  const closed = await app.request('POST', `${PATH}/${old.body.id}`, { body: { valid_until: T } });
  t.is(closed.status, 200, JSON.stringify(closed.body));
  t.is(closed.body.valid_until, T);
  const early = await link(to.id, token.evcoId, { valid_from: '2026-03-31T23:59:59.999Z' });
  t.like(early.body, { code: 'overlapping_token_link', param: '$.valid_from' });
  const seamless = await link(to.id, token.evcoId, { valid_from: '2026-04-01T02:00:00+02:00' });
  t.is(seamless.status, 200, JSON.stringify(seamless.body));
  t.is(seamless.body.valid_from, T);

  const reopen = await app.request('POST', `${PATH}/${old.body.id}`, { body: { valid_until: '2026-04-01T00:00:00.001Z' } });
  t.like(reopen.body, { code: 'overlapping_token_link' });
  const earlier = await app.request('POST', `${PATH}/${old.body.id}`, { body: { valid_until: '2026-03-01T00:00:00Z' } });
  t.is(earlier.status, 200, 'moving its own bound never clashes with itself');
  const before = await link(to.id, token.evcoId, { valid_from: '2025-01-01T00:00:00Z', valid_until: '2026-01-01T00:00:00Z' });
  t.is(before.status, 200, 'a span before every other is free');
});

test('an open-ended link on an expired subscription still holds the token', async (t) => {
  const token = await insertToken(app, adminId);
  const expired = await createTokenSubscription(app, adminId, { valid_from: '2025-01-01T00:00:00Z', valid_until: '2025-06-01T00:00:00Z' });
  t.false(expired.is_valid);
  const old = await link(expired.id, token.evcoId);
  t.is(old.status, 200);
  t.false(old.body.is_currently_valid);
  const fresh = await createTokenSubscription(app, adminId, { valid_from: at(0) });
  const refused = await link(fresh.id, token.evcoId);
  t.like(refused.body, { code: 'overlapping_token_link', param: '$.valid_from' });
  const refusedOnCreate = await app.request('POST', SUBSCRIPTION, {
    body: { valid_from: at(0), customer_id: fresh.customer_id, plan_id: fresh.plan_id, links: [{ evco_id: token.evcoId }] },
  });
  t.like(refusedOnCreate.body, { code: 'overlapping_token_link', param: '$.links[0].valid_from' });
  const defunct = await app.request('PUT', `${PATH}/${old.body.id}/defunct`);
  t.true(defunct.body.defunct);
  t.is((await link(fresh.id, token.evcoId)).status, 200, 'a defunct link holds nothing');
});

test('is_currently_valid at the bounds, relative to now', async (t) => {
  const subscription = await createTokenSubscription(app, adminId, { valid_from: at(-HOUR) });
  const check = async (fields: Record<string, unknown>) => {
    const response = await link(subscription.id, (await insertToken(app, adminId)).evcoId, fields);
    t.is(response.status, 200, JSON.stringify(response.body));
    return (await app.request('GET', `${PATH}/${response.body.id}`)).body.is_currently_valid;
  };
  t.true(await check({ valid_from: at(0) }), 'valid from the instant valid_from is reached');
  t.false(await check({ valid_from: at(-HOUR), valid_until: at(0) }), 'no longer valid at valid_until');
  t.false(await check({ valid_from: at(60_000) }));
  t.true(await check({ valid_until: at(60_000) }));

  const notYet = await createTokenSubscription(app, adminId, { valid_from: at(60_000) });
  const onFuture = await link(notYet.id, (await insertToken(app, adminId)).evcoId, { valid_from: at(-HOUR) });
  t.false(onFuture.body.is_currently_valid, 'the subscription must be valid too');
});

test('valid_until must lie after the (effective) valid_from', async (t) => {
  const subscription = await createTokenSubscription(app, adminId, { valid_from: '2026-01-01T00:00:00Z' });
  const token = await insertToken(app, adminId);
  const deferring = await link(subscription.id, token.evcoId, { valid_until: '2026-01-01T00:00:00Z' });
  t.like(deferring.body, { code: 'invalid_input', param: '$.valid_until' });
  const own = await link(subscription.id, token.evcoId, { valid_from: '2026-02-01T00:00:00Z', valid_until: '2026-01-31T00:00:00Z' });
  t.like(own.body, { param: '$.valid_until' });
  const ok = await link(subscription.id, token.evcoId, { valid_until: '2026-02-01T00:00:00Z' });
  t.is(ok.status, 200);
  const backwards = await app.request('POST', `${PATH}/${ok.body.id}`, { body: { valid_from: '2026-03-01T00:00:00Z' } });
  t.like(backwards.body, { param: '$.valid_until' });
});

test('merge-update, deprecated PUT and single-field endpoints', async (t) => {
  const subscription = await createTokenSubscription(app, adminId, { valid_from: '2026-01-01T00:00:00Z' });
  const token = await insertToken(app, adminId);
  const created = await link(subscription.id, token.evcoId, { valid_from: '2026-02-01T00:00:00Z', valid_until: '2026-12-01T00:00:00Z' });
  const id = created.body.id;

  const merged = await app.request('POST', `${PATH}/${id}`, { body: { external_updated_at: '2026-05-01T00:00:00Z' } });
  t.like(merged.body, { valid_from: '2026-02-01T00:00:00.000Z', valid_until: '2026-12-01T00:00:00.000Z', external_updated_at: '2026-05-01T00:00:00.000Z' });
  const deferred = await app.request('POST', `${PATH}/${id}`, { body: { valid_from: null } });
  t.like(deferred.body, { valid_from: null, effective_valid_from: '2026-01-01T00:00:00.000Z' });

  const replaced = await app.request('PUT', `${PATH}/${id}`, { body: { valid_from: '2026-03-01T00:00:00Z' } });
  t.is(replaced.status, 200, JSON.stringify(replaced.body));
  t.like(replaced.body, { valid_from: '2026-03-01T00:00:00.000Z', valid_until: null, external_updated_at: null });

  const until = await app.request('PUT', `${PATH}/${id}/valid-until`, { body: { valid_until: '2026-04-01T00:00:00Z' } });
  t.is(until.body.valid_until, '2026-04-01T00:00:00.000Z');
  const noUntil = await app.request('DELETE', `${PATH}/${id}/valid-until`);
  t.is(noUntil.body.valid_until, null);
  const from = await app.request('PUT', `${PATH}/${id}/valid-from`, { body: { valid_from: '2026-03-15T00:00:00Z' } });
  t.is(from.body.valid_from, '2026-03-15T00:00:00.000Z');
  const noFrom = await app.request('DELETE', `${PATH}/${id}/valid-from`, { body: { external_updated_at: '2026-06-01T00:00:00Z' } });
  t.like(noFrom.body, { valid_from: null, external_updated_at: '2026-06-01T00:00:00.000Z' });
  const missingValue = await app.request('PUT', `${PATH}/${id}/valid-from`, { body: {} });
  t.like(missingValue.body, { param: '$.valid_from' });

  const wrongType = await app.request('POST', `${PATH}/${id}`, { body: { valid_until: 5 } });
  t.like(wrongType.body, { code: 'validation_failed', param: '$.valid_until' });
  const unknown = await app.request('POST', `${PATH}/${id}`, { body: { defunct: false, subscription_id: 'x' } });
  t.is(unknown.status, 200);
  t.is(unknown.headers.get('x-svc-unknown-fields'), '$.defunct,$.subscription_id');
  const badCreate = await app.request('POST', PATH, { body: { subscription_id: subscription.id } });
  t.like(badCreate.body, { param: '$.evco_id' });
  const badEvco = await link(subscription.id, 'NL-INS-000000001-X');
  t.like(badEvco.body, { code: 'invalid_input', param: '$.evco_id' });
});

test('a defunct link keeps its bounds and stays defunct', async (t) => {
  const subscription = await createTokenSubscription(app, adminId);
  const created = await link(subscription.id, (await insertToken(app, adminId)).evcoId);
  const defunct = await app.request('PUT', `${PATH}/${created.body.id}/defunct`, { body: { external_updated_at: '2026-02-01T00:00:00Z' } });
  t.is(defunct.status, 200);
  t.like(defunct.body, { defunct: true, is_currently_valid: false, external_updated_at: '2026-02-01T00:00:00.000Z' });
  t.is((await app.request('PUT', `${PATH}/${created.body.id}/defunct`)).status, 200, 'idempotent');
  const moved = await app.request('POST', `${PATH}/${created.body.id}`, { body: { valid_until: '2026-03-01T00:00:00Z' } });
  t.like(moved.body, { code: 'token_link_defunct', param: '$.valid_until' });
  const stamped = await app.request('POST', `${PATH}/${created.body.id}`, { body: { external_updated_at: '2026-03-01T00:00:00Z' } });
  t.like(stamped.body, { defunct: true, external_updated_at: '2026-03-01T00:00:00.000Z' });
  const onDefunctSubscription = await createTokenSubscription(app, adminId);
  await app.request('PUT', `${SUBSCRIPTION}/${onDefunctSubscription.id}/defunct`);
  const refused = await link(onDefunctSubscription.id, (await insertToken(app, adminId)).evcoId);
  t.like(refused.body, { code: 'subscription_defunct', param: '$.subscription_id' });
});

test('concurrent links of one token to two subscriptions: exactly one wins', async (t) => {
  for (let round = 0; round < 3; round++) {
    const token = await insertToken(app, adminId);
    const subscriptions = await Promise.all([1, 2, 3, 4].map(() => createTokenSubscription(app, adminId)));
    const responses = await Promise.all(subscriptions.map((s) => link(s.id, token.evcoId)));
    t.is(responses.filter((r) => r.status === 200).length, 1, JSON.stringify(responses.map((r) => r.body)));
    for (const refused of responses.filter((r) => r.status !== 200)) t.is(refused.body.code, 'overlapping_token_link');
  }
});

test('a token moves to the subscription\'s administration; other administrations see nothing', async (t) => {
  const otherAdmin = (await createAdministration(app)).id;
  const token = await insertToken(app, adminId);
  const here = await createTokenSubscription(app, adminId, { valid_from: '2026-01-01T00:00:00Z' });
  const first = await link(here.id, token.evcoId, { valid_until: '2026-05-01T00:00:00Z' });
  const there = await createTokenSubscription(app, otherAdmin, { valid_from: '2026-01-01T00:00:00Z' });

  const onlyHere = await app.credential({ role: 'admin', adminIds: [adminId] });
  const onlyThere = await app.credential({ role: 'admin', adminIds: [otherAdmin] });
  const overlapping = await link(there.id, token.evcoId);
  t.like(overlapping.body, { code: 'overlapping_token_link' });
  const invisibleToken = await app.request('POST', PATH, { auth: onlyThere, body: { subscription_id: there.id, evco_id: token.evcoId, valid_from: '2026-05-01T00:00:00Z' } });
  t.like(invisibleToken.body, { code: 'not_found', param: '$.evco_id' });
  const invisibleSubscription = await app.request('POST', PATH, { auth: onlyHere, body: { subscription_id: there.id, evco_id: token.evcoId, valid_from: '2026-05-01T00:00:00Z' } });
  t.like(invisibleSubscription.body, { code: 'not_found', param: '$.subscription_id' });

  const moved = await link(there.id, token.evcoId, { valid_from: '2026-05-01T00:00:00Z' });
  t.is(moved.status, 200, JSON.stringify(moved.body));
  t.is(moved.body.admin_id, otherAdmin);
  const stored = await scopedEm(app.orm).findOneOrFail(Token, { id: token.id });
  t.is(stored.currentAdmin.id, otherAdmin);
  t.is(stored.initialAdmin.id, adminId);

  const history = await app.request('GET', `${PATH}/${first.body.id}`, { auth: onlyHere });
  t.is(history.status, 200, 'the old link stays visible in its administration');
  t.is(history.body.evco_id, token.evcoId);
  const subscriptionHere = await app.request('GET', `${SUBSCRIPTION}/${here.id}`, { auth: onlyHere });
  t.is(subscriptionHere.body.links[0].evco_id, token.evcoId);
  for (const [method, path, body] of [
    ['GET', `${PATH}/${moved.body.id}`, undefined],
    ['POST', `${PATH}/${moved.body.id}`, { valid_until: '2026-06-01T00:00:00Z' }],
    ['PUT', `${PATH}/${moved.body.id}`, {}],
    ['PUT', `${PATH}/${moved.body.id}/defunct`, undefined],
    ['DELETE', `${PATH}/${moved.body.id}/valid-from`, undefined],
  ] as const) {
    const response = await app.request(method, path, { auth: onlyHere, body });
    t.like(response.body, { code: 'not_found' }, `${method} ${path}`);
  }
  const untouched = await app.request('GET', `${PATH}/${moved.body.id}`);
  t.like(untouched.body, { defunct: false, valid_until: null });
});

test('an overlap with a link of another administration names no ids of it', async (t) => {
  const otherAdmin = (await createAdministration(app)).id;
  const token = await insertToken(app, adminId);
  const here = await createTokenSubscription(app, adminId, { valid_from: '2026-01-01T00:00:00Z' });
  const held = await link(here.id, token.evcoId, { valid_until: '2026-06-01T00:00:00Z' });
  const there = await createTokenSubscription(app, otherAdmin, { valid_from: '2026-01-01T00:00:00Z' });
  t.is((await link(there.id, token.evcoId, { valid_from: '2026-06-01T00:00:00Z' })).status, 200);

  const onlyThere = await app.credential({ role: 'admin', adminIds: [otherAdmin] });
  const later = await createTokenSubscription(app, otherAdmin, { valid_from: '2026-01-01T00:00:00Z' });
  const refused = await app.request('POST', PATH, {
    auth: onlyThere, body: { subscription_id: later.id, evco_id: token.evcoId, valid_from: '2026-02-01T00:00:00Z', valid_until: '2026-03-01T00:00:00Z' },
  });
  t.like(refused.body, { code: 'overlapping_token_link', param: '$.valid_from' });
  t.false(refused.body.message.includes(here.id));
  t.false(refused.body.message.includes(held.body.id));
  t.true(refused.body.message.includes('another administration'));
});

test('the token goes with its latest link: filling a gap in the past does not move it', async (t) => {
  const otherAdmin = (await createAdministration(app)).id;
  const token = await insertToken(app, adminId);
  const current = await createTokenSubscription(app, adminId, { valid_from: '2026-01-01T00:00:00Z' });
  t.is((await link(current.id, token.evcoId)).status, 200);
  const past = await createTokenSubscription(app, otherAdmin, { valid_from: '2025-01-01T00:00:00Z' });
  t.is((await link(past.id, token.evcoId, { valid_until: '2026-01-01T00:00:00Z' })).status, 200);
  const stored = await scopedEm(app.orm).findOneOrFail(Token, { id: token.id });
  t.is(stored.currentAdmin.id, adminId);
});

// Found by probing (2026-11-29): a link read the token before taking its row lock, and em.lock()
// does not read it again, so of two links at once the second wrote what it had read before the
// first committed: its own time as the first link's, and (the token's administration looking
// unchanged to it) not the move back to the administration of the latest link.
test('two first links of one token at once: the token keeps the first one\'s time and goes with the latest link', async (t) => {
  const otherAdmin = (await createAdministration(app)).id;
  const token = await insertToken(app, adminId);
  const past = await createTokenSubscription(app, otherAdmin, { valid_from: '2025-01-01T00:00:00Z' });
  const current = await createTokenSubscription(app, adminId, { valid_from: '2026-01-01T00:00:00Z' });
  // The test holds the token's row, so that both links read the token before either gets its lock;
  // the first to wait for it is the first to get it.
  const db = new pg.Client({ connectionString: app.databaseUrl });
  await db.connect();
  t.teardown(() => db.end());
  await db.query('begin');
  await db.query('select 1 from msp_token where id = $1 for update', [token.id]);
  const waiting = async (n: number) => {
    for (const until = Date.now() + 10_000; Date.now() < until; await new Promise((resolve) => setTimeout(resolve, 20))) {
      if (await lockWaits(db) >= n) return;
    }
    throw new Error(`not ${n} links waiting for the token`);
  };
  const earlier = link(past.id, token.evcoId, { valid_until: '2026-01-01T00:00:00Z' });
  await waiting(1);
  const later = link(current.id, token.evcoId);
  await waiting(2);
  await db.query('commit');
  const [first, second] = await Promise.all([earlier, later]);
  t.is(first.status, 200, JSON.stringify(first.body));
  t.is(second.status, 200, JSON.stringify(second.body));
  t.like((await app.request('GET', `/main/v1/msp-token/${token.evcoId}`)).body, { current_admin_id: adminId, used: true }, 'the latest link\'s administration');
  const stored = await scopedEm(app.orm).findOneOrFail(Token, { id: token.id }, { filters: false });
  const firstLinkedAt = stored.firstLinkedAt!.getTime();
  t.true(firstLinkedAt <= Date.parse(first.body.created_at) && firstLinkedAt <= Date.parse(second.body.created_at),
    `first linked ${stored.firstLinkedAt!.toISOString()}, the links created ${first.body.created_at} and ${second.body.created_at}`);
});

// Found by probing (2026-11-29): the token went to B with B's future link, and stayed B's when that link
// was undone: B could block A's live token and A could not unblock it.
test('a token goes back to its latest live link\'s administration when a later link is made defunct, its subscription too, or moved', async (t) => {
  const b = (await createAdministration(app)).id;
  const asA = await app.credential({ adminIds: [adminId] });
  const asB = await app.credential({ adminIds: [b] });
  const T = '2030-01-01T00:00:00.000Z';
  for (const undo of ['link defunct', 'subscription defunct', 'link moved before the other']) {
    const subA = await createTokenSubscription(app, adminId, { valid_from: '2026-01-01T00:00:00Z' });
    const token = await insertToken(app, adminId);
    const linkA = (await link(subA.id, token.evcoId, { valid_until: T })).body;
    const subB = await createTokenSubscription(app, b, { valid_from: '2026-01-01T00:00:00Z' });
    const linkB = (await link(subB.id, token.evcoId, { valid_from: T })).body;
    t.is((await app.request('GET', `/main/v1/msp-token/${token.evcoId}`)).body.current_admin_id, b, 'the latest link is B\'s');
    if (undo === 'link defunct') t.is((await app.request('PUT', `${PATH}/${linkB.id}/defunct`, { auth: asB, body: {} })).status, 200);
    if (undo === 'subscription defunct') t.is((await app.request('PUT', `${SUBSCRIPTION}/${subB.id}/defunct`, { auth: asB, body: {} })).status, 200);
    if (undo === 'link moved before the other') {
      t.is((await app.request('POST', `${PATH}/${linkB.id}`, { body: { valid_until: '2031-01-01T00:00:00Z' } })).status, 200);
      const moved = await app.request('POST', `${PATH}/${linkA.id}`, { body: { valid_from: '2031-01-01T00:00:00Z', valid_until: null } });
      t.is(moved.status, 200, JSON.stringify(moved.body));
    }
    t.is((await app.request('GET', `/main/v1/msp-token/${token.evcoId}`)).body.current_admin_id, adminId, undo);
    t.like((await app.request('POST', `/main/v1/msp-token/${token.evcoId}/block-charge-auth-requests`, { auth: asB })).body, { code: 'not_found' }, undo);
    t.is((await app.request('POST', `/main/v1/msp-token/${token.evcoId}/block-charge-auth-requests`, { auth: asA })).status, 200, undo);
  }
});
