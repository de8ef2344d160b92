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
import { createAdministration, createCustomer, createTokenSubscription, insertToken, insertTokenSeries, okCall } from '../helpers/factories.ts';
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

// A token's published identity (OCPI: uid and type) that changes is kept as a retired identity and
// published `valid: false`, last_updated the moment it was retired: a CPO keying its tokens by uid and
// type (and allowing them offline, whitelist ALLOWED) learns that the former card is no longer valid.
// Found by probing (2026-11-29): a replaced card, a token's first uid and an activation with a uid left
// the former identity valid at the CPO for ever (the old card charged on, billed or free).

interface Identity { uid: string; type: string; contract_id: string; valid: boolean; whitelist: string; last_updated: string; issuer: string }

const hex = () => Array.from({ length: 8 }, () => '0123456789ABCDEF'[Math.floor(Math.random() * 16)]).join('');
const entries = (tokens: Published[], uid: string, type: string) => (tokens as unknown as Identity[])
  .filter((token) => token.uid.toUpperCase() === uid.toUpperCase() && token.type === type);

/** The former identity in a delta sync since `at`, once, not valid, last_updated in the window, as the token had it. */
async function assertRetired(t: import('ava').ExecutionContext, at: string, uid: string, type: string, evcoId: string, what: string) {
  const delta = await sync(since(at));
  const found = entries(delta, uid, type);
  t.is(found.length, 1, `${what}: ${type} ${uid} is listed once in the delta sync since ${at}`);
  const [former] = found;
  if (!former) return;
  t.like(former, { uid, type, contract_id: evcoId, valid: false, whitelist: 'ALLOWED', country_code: 'NL' } as Partial<Identity>, what);
  t.true(Date.parse(former.last_updated) >= Date.parse(at), `${what}: last_updated ${former.last_updated} is not before ${at}`);
  // The full list has it too (a CPO's first full sync after the change), once.
  t.is(entries(await sync(''), uid, type).length, 1, `${what}: once in the full list`);
}

test.serial('a replaced RFID uid: the former card is in a delta sync, not valid; the new one valid', async (t) => {
  const { evcoId, customerId } = await pricedSubscription(app, adminId);
  const [oldUid, newUid] = [hex(), hex()];
  await okCall(app, 'POST', `/msp-token/${evcoId}`, { uid: oldUid, token_uid_type_id: 'rfid_4byte' });
  t.like(entries(await sync(''), oldUid, 'RFID')[0], { valid: true });

  const at = await moment();
  await okCall(app, 'POST', `/msp-token/${evcoId}`, { uid: newUid });
  await assertRetired(t, at, oldUid, 'RFID', evcoId, 'the replaced card');
  t.like(entries(await sync(since(at)), newUid, 'RFID')[0], { valid: true, contract_id: evcoId });

  // Blocking the customer moves the token (its new card), not the retired card, which stays not valid.
  const beforeBlock = await moment();
  await okCall(app, 'POST', `/customer/${customerId}/block-charge-auth-requests`, {});
  const delta = await sync(since(beforeBlock));
  t.like(entries(delta, newUid, 'RFID')[0], { valid: false });
  t.is(entries(delta, oldUid, 'RFID').length, 0, 'the retired card does not move again');
  t.false(entries(await sync(''), oldUid, 'RFID')[0]!.valid);
});

test.serial('a token that gets its first uid: its earlier identity (its evco id as OTHER) is in a delta sync, not valid', async (t) => {
  const { evcoId } = await pricedSubscription(app, adminId);
  t.like(entries(await sync(''), evcoId, 'OTHER')[0], { valid: true });
  const uid = hex();
  const at = await moment();
  await okCall(app, 'POST', `/msp-token/${evcoId}`, { uid, token_uid_type_id: 'rfid_4byte' });
  await assertRetired(t, at, evcoId, 'OTHER', evcoId, 'the identity before the first uid');
  t.like(entries(await sync(since(at)), uid, 'RFID')[0], { valid: true });
});

test.serial('an app token that gets a uid: its earlier identity (its evco id as APP_USER) is retired', async (t) => {
  const subscription = await createTokenSubscription(app, adminId);
  const issued = await okCall(app, 'POST', '/msp-token-subscription/add-virtual-token', { subscription_id: subscription.id, evco_id: `NLAPP${String(Date.now()).slice(-9)}` });
  const evcoId = issued.token.evco_id;
  t.like(entries(await sync(''), evcoId, 'APP_USER')[0], { valid: true });
  const at = await moment();
  await okCall(app, 'POST', `/msp-token/${evcoId}`, { uid: `app-user-${hex()}` });
  await assertRetired(t, at, evcoId, 'APP_USER', evcoId, 'the app token before its uid');
});

test.serial('a fulfilled card activated with its UID: the identity before activation is in a delta sync, not valid', async (t) => {
  const { subscriptionId } = await pricedSubscription(app, adminId);
  const series = await insertTokenSeries(app, adminId);
  const issued = await okCall(app, 'POST', `/msp-token-subscription/${subscriptionId}/token-fulfilment`, { form_factor: 'card', token_series_id: series.id });
  const evcoId = issued.token.evco_id;
  t.like(entries(await sync(''), evcoId, 'OTHER')[0], { valid: true });
  const uid = hex();
  const at = await moment();
  await okCall(app, 'POST', '/msp-token-fulfilment/activate-token', { evco_id: evcoId, uid });
  await assertRetired(t, at, evcoId, 'OTHER', evcoId, 'the card before activation');
  t.like(entries(await sync(since(at)), uid, 'RFID')[0], { valid: true, contract_id: evcoId });
});

test.serial('a uid that leaves OCPI\'s lengths: the former identity is retired, not left valid', async (t) => {
  const { evcoId } = await pricedSubscription(app, adminId);
  const uid = hex();
  await okCall(app, 'POST', `/msp-token/${evcoId}`, { uid, token_uid_type_id: 'rfid_4byte' });
  const at = await moment();
  await okCall(app, 'POST', `/msp-token/${evcoId}`, { uid: 'E'.repeat(40), token_uid_type_id: 'app_user' });
  await assertRetired(t, at, uid, 'RFID', evcoId, 'the card before a uid OCPI cannot carry');
});

test.serial('a uid changed only in its casing is the same identity: nothing is retired', async (t) => {
  const { evcoId } = await pricedSubscription(app, adminId);
  const uid = `app-${hex().toLowerCase()}`;
  await okCall(app, 'POST', `/msp-token/${evcoId}`, { uid, token_uid_type_id: 'app_user' });
  const at = await moment();
  await okCall(app, 'POST', `/msp-token/${evcoId}`, { uid: uid.toUpperCase() });
  const delta = await sync(since(at));
  t.deepEqual(entries(delta, uid, 'RFID').map((token) => token.valid), [true]);
});

test.serial('a former identity taken again is no longer listed as retired: by another token, or by the token itself', async (t) => {
  const a = await pricedSubscription(app, adminId);
  const b = await pricedSubscription(app, adminId);
  const [x, y, z] = [hex(), hex(), hex()];
  await okCall(app, 'POST', `/msp-token/${a.evcoId}`, { uid: x, token_uid_type_id: 'rfid_4byte' });
  await okCall(app, 'POST', `/msp-token/${a.evcoId}`, { uid: y });
  t.deepEqual(entries(await sync(''), x, 'RFID').map((token) => [token.contract_id, token.valid]), [[a.evcoId, false]]);

  // Another token takes x: x is that token's, valid, and listed once.
  const at = await moment();
  await okCall(app, 'POST', `/msp-token/${b.evcoId}`, { uid: x, token_uid_type_id: 'rfid_4byte' });
  t.deepEqual(entries(await sync(''), x, 'RFID').map((token) => [token.contract_id, token.valid]), [[b.evcoId, true]]);
  t.deepEqual(entries(await sync(since(at)), x, 'RFID').map((token) => [token.contract_id, token.valid]), [[b.evcoId, true]]);
  // b's earlier identity (its evco id as OTHER) is retired in the same change.
  t.deepEqual(entries(await sync(since(at)), b.evcoId, 'OTHER').map((token) => token.valid), [false]);

  // The token takes its former uid back: y is retired, x... is b's; a goes z then y again.
  await okCall(app, 'POST', `/msp-token/${a.evcoId}`, { uid: z });
  t.deepEqual(entries(await sync(''), y, 'RFID').map((token) => token.valid), [false]);
  await okCall(app, 'POST', `/msp-token/${a.evcoId}`, { uid: y });
  t.deepEqual(entries(await sync(''), y, 'RFID').map((token) => [token.contract_id, token.valid]), [[a.evcoId, true]]);
  t.deepEqual(entries(await sync(''), z, 'RFID').map((token) => token.valid), [false]);
});

test.serial('retired identities are paged with the tokens: one order by last_updated, the same X-Total-Count on every page, none skipped or repeated', async (t) => {
  const start = await moment();
  const made: string[] = [];
  for (let i = 0; i < 3; i++) {
    const { evcoId } = await pricedSubscription(app, adminId);
    await okCall(app, 'POST', `/msp-token/${evcoId}`, { uid: hex(), token_uid_type_id: 'rfid_4byte' });
    await okCall(app, 'POST', `/msp-token/${evcoId}`, { uid: hex() });
    made.push(evcoId);
  }
  const key = (token: Identity) => `${token.type}|${token.uid}|${token.valid}`;
  const all = (await sync(since(start))) as unknown as Identity[];
  // Each token: its current card (valid), its first card and its evco id (OTHER) retired.
  t.is(all.length, 9);
  t.is(new Set(all.map(key)).size, 9);
  const times = all.map((token) => Date.parse(token.last_updated));
  t.deepEqual(times, [...times].sort((p, q) => p - q));

  // Pages of 2 by the next-page Link (after) and by offset: the same items in the same order, the count 9 throughout.
  for (const mode of ['link', 'offset'] as const) {
    const seen: Identity[] = [];
    let url: string | null = `${app.url}/ocpi/2.2.1/emsp/tokens?limit=2&${since(start)}`;
    let offset = 0;
    while (url) {
      const r = await cpo.call('GET', url, { dataSchema: 'tokens' });
      t.is(r.status, 200);
      t.is(r.headers.get('x-total-count'), '9', mode);
      seen.push(...r.body.data);
      const next = /^<([^>]+)>; rel="next"$/.exec(r.headers.get('link') ?? '')?.[1] ?? null;
      offset += 2;
      url = mode === 'link' ? next : next && `${app.url}/ocpi/2.2.1/emsp/tokens?limit=2&offset=${offset}&${since(start)}`;
    }
    t.deepEqual(seen.map(key), all.map(key), mode);
  }
  // date_to before the changes: none of them.
  t.is((await sync(`date_to=${encodeURIComponent(start)}`) as unknown as Identity[]).filter((token) => made.includes(token.contract_id)).length, 0);
});
