// A CPO's delta sync of our tokens (GET tokens?date_from=...) sees every change of what we publish of
// a token, also the changes made outside the token's own row: its current customer blocked or
// unblocked (REST and GraphQL), a link made, ended or defunct, its subscription ended, defunct or
// corrected to a blocked customer, and a link or subscription starting or ending at its bound (the
// bounds job). `valid` is whether our authorization would let the token start now. Each moves the token's
// last_updated into the window, and so to the end of the list; paging follows the items, so a token
// that moves while a CPO pages through the list is not skipped, nor is any other.
// Found by probing (2026-11-28): a delta sync kept a blocked customer's tokens as valid.
import test from 'ava';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { createAdministration, createCustomer, createTokenSubscription, insertToken, okCall } from '../helpers/factories.ts';
import { pricedSubscription } from '../helpers/session-factories.ts';
import { data } from '../schema/graphql.ts';
import { scopedEm } from '../../src/access/admin-scope.ts';
import { TOKEN_VALIDITY_BOUNDS, touchTokensAtPassedBounds } from '../../src/ocpi/token-validity-bounds.ts';
import { CRONTAB } from '../../src/worker/tasks.ts';
import type { CpoPeer } from './cpo-peer.ts';
import { registeredCpo } from './ocpi-app.ts';

let app: TestApp;
let adminId: string;
let cpo: CpoPeer;
test.before(async () => {
  app = await startTestApp();
  adminId = (await createAdministration(app)).id;
  ({ cpo } = await registeredCpo(app));
});
test.after.always(async () => { await cpo?.close(); await app?.close(); });

interface Published { contract_id: string; valid: boolean; last_updated: string }

/** Every token a CPO's sync with `query` receives, following the Link of each page. */
async function sync(query: string, limit = 100): Promise<Published[]> {
  const tokens: Published[] = [];
  for (let url: string | null = `${app.url}/ocpi/2.2.1/emsp/tokens?limit=${limit}${query ? `&${query}` : ''}`; url;) {
    const r = await cpo.call('GET', url, { dataSchema: 'tokens' });
    if (r.status !== 200) throw new Error(`${url}: ${r.status} ${JSON.stringify(r.body)}`);
    tokens.push(...r.body.data);
    url = /^<([^>]+)>; rel="next"$/.exec(r.headers.get('link') ?? '')?.[1] ?? null;
  }
  return tokens;
}

/** A moment after everything written so far (the stamps are milliseconds apart): a CPO's last sync. */
async function moment(): Promise<string> {
  await new Promise((resolve) => setTimeout(resolve, 15));
  const at = new Date().toISOString();
  await new Promise((resolve) => setTimeout(resolve, 15));
  return at;
}

const since = (at: string) => `date_from=${encodeURIComponent(at)}`;
const find = (tokens: Published[], evcoId: string) => tokens.find((token) => token.contract_id === evcoId);

/** The token as a delta sync since `at` receives it: listed, `valid` as expected, last_updated in the window. */
async function assertSynced(t: import('ava').ExecutionContext, at: string, evcoId: string, valid: boolean, what: string) {
  const delta = await sync(since(at));
  const token = find(delta, evcoId);
  t.truthy(token, `${what}: ${evcoId} is in the delta sync since ${at}`);
  if (!token) return;
  t.is(token.valid, valid, what);
  t.true(Date.parse(token.last_updated) >= Date.parse(at), `${what}: last_updated ${token.last_updated} is not before ${at}`);
}

test.serial('blocking a customer (REST) puts its token in a delta sync, not valid; unblocking puts it there again, valid', async (t) => {
  const { evcoId, customerId } = await pricedSubscription(app, adminId);
  const unrelated = await insertToken(app, adminId);
  const beforeBlock = await moment();
  t.falsy(find(await sync(since(beforeBlock)), evcoId), 'nothing changed yet');

  await okCall(app, 'POST', `/customer/${customerId}/block-charge-auth-requests`, {});
  await assertSynced(t, beforeBlock, evcoId, false, 'blocked');
  t.falsy(find(await sync(since(beforeBlock)), unrelated.evcoId), 'an unrelated token stays out of the window');
  // Before the block (date_to exclusive) the token was not changed.
  t.falsy(find(await sync(`date_to=${encodeURIComponent(beforeBlock)}`), evcoId));
  // The whole list is in last_updated order: the blocked token comes after the unrelated one.
  const all = await sync('', 2);
  const times = all.map((token) => Date.parse(token.last_updated));
  t.deepEqual(times, [...times].sort((a, b) => a - b));
  t.true(all.findIndex((token) => token.contract_id === evcoId) > all.findIndex((token) => token.contract_id === unrelated.evcoId));

  const beforeUnblock = await moment();
  await okCall(app, 'POST', `/customer/${customerId}/unblock-charge-auth-requests`, {});
  await assertSynced(t, beforeUnblock, evcoId, true, 'unblocked');

  // Unblocking a customer that is not blocked changes nothing.
  const beforeRepeat = await moment();
  await okCall(app, 'POST', `/customer/${customerId}/unblock-charge-auth-requests`, {});
  t.falsy(find(await sync(since(beforeRepeat)), evcoId));
});

test.serial('blocking and unblocking a customer over GraphQL moves its tokens as well', async (t) => {
  const { evcoId, customerId } = await pricedSubscription(app, adminId);
  const beforeBlock = await moment();
  await data(app, 'mutation ($id: ID!) { blockCustomerChargeAuthRequests(id: $id) { id } }', { id: customerId });
  await assertSynced(t, beforeBlock, evcoId, false, 'blocked over GraphQL');
  const beforeUnblock = await moment();
  await data(app, 'mutation ($id: ID!) { unblockCustomerChargeAuthRequests(id: $id) { id } }', { id: customerId });
  await assertSynced(t, beforeUnblock, evcoId, true, 'unblocked over GraphQL');
});

test.serial('a link made, ended, opened again and made defunct, and its subscription ended, opened and defunct, each move the token, valid as authorization decides', async (t) => {
  // The token was linked before (to a subscription ended), so linking it again changes nothing of its
  // own row: only what it is linked to.
  const token = await insertToken(app, adminId);
  const earlier = await createTokenSubscription(app, adminId);
  await okCall(app, 'POST', '/msp-token-link', { subscription_id: earlier.id, evco_id: token.evcoId, valid_until: '2026-02-01T00:00:00Z' });
  const subscription = await createTokenSubscription(app, adminId);
  t.false(find(await sync(''), token.evcoId)!.valid, 'no current subscription: not valid (authorization: no_valid_link)');

  let at = await moment();
  const link = await okCall(app, 'POST', '/msp-token-link', { subscription_id: subscription.id, evco_id: token.evcoId, valid_from: '2026-02-01T00:00:00Z' });
  await assertSynced(t, at, token.evcoId, true, 'linked');

  at = await moment();
  await okCall(app, 'POST', `/msp-token-link/${link.id}`, { valid_until: '2026-03-01T00:00:00Z' });
  await assertSynced(t, at, token.evcoId, false, 'that link ended');

  at = await moment();
  await okCall(app, 'POST', `/msp-token-link/${link.id}`, { valid_until: null });
  await assertSynced(t, at, token.evcoId, true, 'that link open again');

  at = await moment();
  await okCall(app, 'PUT', `/msp-token-link/${link.id}/defunct`, {});
  await assertSynced(t, at, token.evcoId, false, 'that link defunct');

  at = await moment();
  await okCall(app, 'POST', '/msp-token-link', { subscription_id: subscription.id, evco_id: token.evcoId, valid_from: '2026-03-01T00:00:00Z' });
  await assertSynced(t, at, token.evcoId, true, 'linked again');

  at = await moment();
  await okCall(app, 'POST', `/msp-token-subscription/${subscription.id}`, { valid_until: '2026-04-01T00:00:00Z' });
  await assertSynced(t, at, token.evcoId, false, 'the subscription ended');

  at = await moment();
  await okCall(app, 'POST', `/msp-token-subscription/${subscription.id}`, { valid_until: null });
  await assertSynced(t, at, token.evcoId, true, 'the subscription open again');

  at = await moment();
  await okCall(app, 'PUT', `/msp-token-subscription/${subscription.id}/defunct`, {});
  await assertSynced(t, at, token.evcoId, false, 'the subscription defunct');

  // Linked to a blocked customer's subscription: current, but not valid.
  const blockedCustomer = await createCustomer(app, adminId);
  await okCall(app, 'POST', `/customer/${blockedCustomer.id}/block-charge-auth-requests`, {});
  const blocked = await createTokenSubscription(app, adminId, { customer_id: blockedCustomer.id });
  at = await moment();
  await okCall(app, 'POST', '/msp-token-link', { subscription_id: blocked.id, evco_id: token.evcoId, valid_from: '2026-04-01T00:00:00Z' });
  await assertSynced(t, at, token.evcoId, false, 'linked to the blocked customer\'s subscription');
  at = await moment();
  await okCall(app, 'POST', `/customer/${blockedCustomer.id}/unblock-charge-auth-requests`, {});
  await assertSynced(t, at, token.evcoId, true, 'that customer unblocked');
});

test.serial('a link or subscription starting or ending at its bound moves the token at the next run of the bounds job, once', async (t) => {
  const soon = (ms: number) => new Date(Date.now() + ms).toISOString();
  const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
  const em = scopedEm(app.orm);
  const starting = await insertToken(app, adminId);
  const subscription = await createTokenSubscription(app, adminId);
  const ending = await pricedSubscription(app, adminId);
  // Clear of the worker's own run of the job at each minute's start, which would move the tokens first.
  while (new Date().getUTCSeconds() < 3 || new Date().getUTCSeconds() > 50) await wait(500);
  await touchTokensAtPassedBounds(em);

  // A link that starts in a moment, and a subscription of another token that ends at the same moment
  // (set last: on a loaded machine the setup above took longer than the moment).
  const bound = soon(2000);
  await okCall(app, 'POST', '/msp-token-link', { subscription_id: subscription.id, evco_id: starting.evcoId, valid_from: bound });
  await okCall(app, 'POST', `/msp-token-subscription/${ending.subscriptionId}`, { valid_until: bound });
  t.false(find(await sync(''), starting.evcoId)!.valid, 'not started yet');
  t.true(find(await sync(''), ending.evcoId)!.valid, 'not ended yet');

  const beforeBound = await moment();
  await wait(Date.parse(bound) + 200 - Date.now());
  t.falsy(find(await sync(since(beforeBound)), starting.evcoId), 'the bound passed: nothing moved it yet');
  t.true(await touchTokensAtPassedBounds(em) >= 2);
  await assertSynced(t, beforeBound, starting.evcoId, true, 'its link started');
  await assertSynced(t, beforeBound, ending.evcoId, false, 'its subscription ended');

  const afterRun = await moment();
  await touchTokensAtPassedBounds(em);
  const again = await sync(since(afterRun));
  t.falsy(find(again, starting.evcoId), 'a second run moves nothing again');
  t.falsy(find(again, ending.evcoId), 'a second run moves nothing again');
  t.true(CRONTAB.split('\n').includes(`* * * * * ${TOKEN_VALIDITY_BOUNDS}`), 'the worker runs the job every minute');
});

test.serial('a plan-or-customer correction to a blocked customer, and back, moves the token', async (t) => {
  const { evcoId, subscriptionId } = await pricedSubscription(app, adminId);
  const blockedCustomer = await createCustomer(app, adminId);
  await okCall(app, 'POST', `/customer/${blockedCustomer.id}/block-charge-auth-requests`, {});
  const unblockedCustomer = await createCustomer(app, adminId);

  let at = await moment();
  const moved = await okCall(app, 'POST', `/msp-token-subscription/${subscriptionId}/plan-or-customer-correction`, {
    valid_from: '2026-06-01T00:00:00Z', new_customer_id: blockedCustomer.id,
  });
  await assertSynced(t, at, evcoId, false, 'corrected to a blocked customer');

  at = await moment();
  await okCall(app, 'POST', `/msp-token-subscription/${moved.new_subscription.id}/plan-or-customer-correction`, {
    valid_from: '2026-07-01T00:00:00Z', new_customer_id: unblockedCustomer.id,
  });
  await assertSynced(t, at, evcoId, true, 'corrected away from the blocked customer');
});

test.serial('a token that moves to the end while a CPO pages through a sync is listed again, and no other token is skipped', async (t) => {
  const start = await moment();
  const first = await pricedSubscription(app, adminId);
  await moment();
  for (let i = 0; i < 5; i++) await insertToken(app, adminId);
  const before = (await sync(since(start))).map((token) => token.contract_id);
  t.is(before.length, 6);
  t.is(before[0], first.evcoId);

  const seen: string[] = [];
  let url: string | null = `${app.url}/ocpi/2.2.1/emsp/tokens?limit=2&${since(start)}`;
  let pages = 0;
  while (url) {
    const r = await cpo.call('GET', url, { dataSchema: 'tokens' });
    t.is(r.status, 200);
    t.is(r.headers.get('x-total-count'), '6');
    seen.push(...r.body.data.map((token: Published) => token.contract_id));
    // After the first page (the first token on it) its customer is blocked: the token moves behind the others.
    if (++pages === 1) await okCall(app, 'POST', `/customer/${first.customerId}/block-charge-auth-requests`, {});
    url = /^<([^>]+)>; rel="next"$/.exec(r.headers.get('link') ?? '')?.[1] ?? null;
  }
  t.deepEqual(seen, [...before, first.evcoId]);
});

test.serial('the position a next page starts after must be one the list gave: anything else is 2001 naming it', async (t) => {
  for (const bad of ['x', '2026-01-01T00:00:00Z', '2026-01-01T00:00:00Z,not-a-uuid', 'z,0192a3b4-0000-7000-8000-000000000000']) {
    const r = await cpo.call('GET', `${app.url}/ocpi/2.2.1/emsp/tokens?after=${encodeURIComponent(bad)}`);
    t.is(r.status, 400, bad);
    t.is(r.body.status_code, 2001, bad);
    t.regex(r.body.status_message, /^after /, bad);
  }
});
