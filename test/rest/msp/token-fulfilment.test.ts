import test from 'ava';
import { randomUUID } from 'node:crypto';
import { evcoCheckDigit } from '../../../src/msp/evco-id.ts';
import { TokenLink } from '../../../src/msp/token-link.entity.ts';
import { Token } from '../../../src/msp/token.entity.ts';
import { scopedEm } from '../../../src/access/admin-scope.ts';
import { startTestApp, type TestApp } from '../../helpers/app.ts';
import { createAdministration, insertTokenSeries, insertTokenSubscription } from '../../helpers/factories.ts';

let app: TestApp;
let adminId: string;
let otherAdminId: string;
test.before(async () => {
  app = await startTestApp();
  adminId = (await createAdministration(app)).id;
  otherAdminId = (await createAdministration(app)).id;
});
test.after.always(async () => { await app?.close(); });

const api = (path: string) => `/main/v1${path}`;
const fulfil = (subscriptionId: string, body: Record<string, unknown>, auth?: Awaited<ReturnType<TestApp['credential']>>) =>
  app.request('POST', api(`/msp-token-subscription/${subscriptionId}/token-fulfilment`), { body, auth });
let evcoCounter = 0;
const freshEvco = () => {
  const base = `NLFULC${String(++evcoCounter + Math.floor(Math.random() * 1e6) * 100).padStart(8, '0').slice(-8)}`;
  return `${base}${evcoCheckDigit(base)}`;
};
/** Tokens of one administration (tests run concurrently: each counting test has an administration of its own). */
const countTokens = (admin: string) => scopedEm(app.orm).count(Token, { currentAdmin: admin });

test('token fulfilment issues a requested card from the series and links it', async (t) => {
  const sub = await insertTokenSubscription(app, adminId);
  const series = await insertTokenSeries(app, adminId, { uidType: 'rfid_7byte' });
  const first = await fulfil(sub.id, { form_factor: 'card', token_series_id: series.id });
  t.is(first.status, 200, JSON.stringify(first.body));
  t.like(first.body.token, { form_factor: 'card', fulfilment: 'requested' });
  t.truthy(first.body.token.evco_id);
  t.truthy(first.body.token.evco_id_formatted);
  t.truthy(first.body.token_link.id);
  t.is(first.body.token_link.subscription_id, sub.id);

  const second = await fulfil(sub.id, { form_factor: 'keychain', token_series_id: series.id, token_uid_type_id: 'rfid_4byte', valid_from: '2026-02-01T00:00:00+01:00' });
  t.is(second.status, 200, JSON.stringify(second.body));
  t.is(second.body.token.form_factor, 'keychain');
  t.not(second.body.token.evco_id, first.body.token.evco_id);
  t.is(second.body.token_link.valid_from, '2026-01-31T23:00:00.000Z');

  const link = await scopedEm(app.orm).findOne(TokenLink, { id: second.body.token_link.id }, { populate: ['token'] });
  t.is(link?.token.evcoId, second.body.token.evco_id);
  t.is(link?.token.uidType, 'rfid_4byte');
});

test('parallel fulfilments from one series get distinct numbers', async (t) => {
  const sub = await insertTokenSubscription(app, adminId);
  const series = await insertTokenSeries(app, adminId);
  const responses = await Promise.all(Array.from({ length: 6 }, () => fulfil(sub.id, { form_factor: 'card', token_series_id: series.id })));
  t.true(responses.every((r) => r.status === 200), JSON.stringify(responses.map((r) => r.body)));
  t.is(new Set(responses.map((r) => r.body.token.evco_id)).size, 6);
});

test('only card and keychain can be fulfilled', async (t) => {
  const own = (await createAdministration(app)).id;
  const sub = await insertTokenSubscription(app, own);
  const series = await insertTokenSeries(app, own);
  for (const form_factor of ['sticker', 'virtual', 'plug_and_charge', 'robot', null]) {
    const response = await fulfil(sub.id, { form_factor, token_series_id: series.id });
    t.is(response.status, 400, String(form_factor));
    t.is(response.body.param, '$.form_factor', String(form_factor));
  }
  t.is(await countTokens(own), 0);
});

test('the series must exist and belong to the subscription\'s administration', async (t) => {
  const sub = await insertTokenSubscription(app, adminId);
  const foreign = await insertTokenSeries(app, otherAdminId);
  const missing = await fulfil(sub.id, { form_factor: 'card' });
  t.is(missing.status, 400);
  t.is(missing.body.param, '$.token_series_id');
  const unknown = await fulfil(sub.id, { form_factor: 'card', token_series_id: randomUUID() });
  t.like(unknown.body, { code: 'not_found', param: '$.token_series_id' });
  const other = await fulfil(sub.id, { form_factor: 'card', token_series_id: foreign.id });
  t.is(other.status, 400);
  t.is(other.body.param, '$.token_series_id');
  const noSub = await fulfil(randomUUID(), { form_factor: 'card', token_series_id: foreign.id });
  t.is(noSub.body.code, 'not_found');
});

test('another administration sees nothing', async (t) => {
  const sub = await insertTokenSubscription(app, adminId);
  const series = await insertTokenSeries(app, adminId);
  const issued = await fulfil(sub.id, { form_factor: 'card', token_series_id: series.id });
  const outsider = await app.credential({ adminIds: [otherAdminId] });
  const hidden = await fulfil(sub.id, { form_factor: 'card', token_series_id: series.id }, outsider);
  t.like(hidden.body, { code: 'not_found' });
  const activate = await app.request('POST', api('/msp-token-fulfilment/activate-token'), { body: { evco_id: issued.body.token.evco_id }, auth: outsider });
  t.is(activate.status, 400);
  t.like(activate.body, { code: 'not_found', param: '$.evco_id' });
  const virtual = await app.request('POST', api('/msp-token-subscription/add-virtual-token'), { body: { subscription_id: sub.id, token_series_id: series.id }, auth: outsider });
  t.like(virtual.body, { code: 'not_found', param: '$.subscription_id' });
  const vehicle = await app.request('POST', api(`/msp-token-subscription/${sub.id}/plug-and-charge-vehicle`), { body: { vehicle_vin: 'WVWZZZ1JZXW000001', token_series_id: series.id }, auth: outsider });
  t.like(vehicle.body, { code: 'not_found' });
});

test('activate-token activates once and records the UID', async (t) => {
  const sub = await insertTokenSubscription(app, adminId);
  const series = await insertTokenSeries(app, adminId, { uidType: 'rfid_4byte' });
  const issued = await fulfil(sub.id, { form_factor: 'card', token_series_id: series.id });
  const path = api('/msp-token-fulfilment/activate-token');
  const badUid = await app.request('POST', path, { body: { evco_id: issued.body.token.evco_id, uid: 'not-hex' } });
  t.like(badUid.body, { param: '$.uid' });

  const activated = await app.request('POST', path, { body: { evco_id: issued.body.token.evco_id_formatted, uid: 'a1b2c3d4' } });
  t.is(activated.status, 200, JSON.stringify(activated.body));
  t.is(activated.body.evco_id, issued.body.token.evco_id);
  t.is(activated.body.fulfilment, 'activated');
  t.is(activated.body.uid, 'A1B2C3D4');

  const again = await app.request('POST', path, { body: { evco_id: issued.body.token.evco_id } });
  t.is(again.status, 400);
  t.is(again.body.code, 'already_activated');

  const unknown = await app.request('POST', path, { body: { evco_id: freshEvco() } });
  t.like(unknown.body, { code: 'not_found', param: '$.evco_id' });
  const malformed = await app.request('POST', path, { body: { evco_id: '???' } });
  t.is(malformed.status, 400);
  t.is(malformed.body.param, '$.evco_id');
});

test('plug-and-charge-vehicle issues an eMAID contract for a vehicle', async (t) => {
  const own = (await createAdministration(app)).id;
  const sub = await insertTokenSubscription(app, own);
  const series = await insertTokenSeries(app, own);
  const path = api(`/msp-token-subscription/${sub.id}/plug-and-charge-vehicle`);
  const fromSeries = await app.request('POST', path, { body: { vehicle_vin: 'wvwzzz1jzxw000001', token_series_id: series.id } });
  t.is(fromSeries.status, 200, JSON.stringify(fromSeries.body));
  t.like(fromSeries.body.token, { form_factor: 'plug_and_charge', vehicle_vin: 'WVWZZZ1JZXW000001' });
  t.is(fromSeries.body.token_link.subscription_id, sub.id);
  const stored = await scopedEm(app.orm).findOne(Token, { evcoId: fromSeries.body.token.evco_id });
  t.is(stored?.uidType, 'emaid');
  t.is(stored?.uid, stored?.evcoId.toUpperCase());

  const evco = freshEvco();
  const given = await app.request('POST', path, { body: { vehicle_vin: '1HGCM82633A004352', evco_id: evco } });
  t.is(given.status, 200, JSON.stringify(given.body));
  t.is(given.body.token.evco_id, evco);

  const before = await countTokens(own);
  for (const [body, param] of [
    [{ vehicle_vin: 'WVWZZZ1JZXW00000I', token_series_id: series.id }, '$.vehicle_vin'],
    [{ vehicle_vin: 'WVWZZZ1JZXW00001', token_series_id: series.id }, '$.vehicle_vin'],
    [{ token_series_id: series.id }, '$.vehicle_vin'],
    [{ vehicle_vin: 'WVWZZZ1JZXW000001' }, '$.token_series_id'],
    [{ vehicle_vin: 'WVWZZZ1JZXW000001', token_series_id: series.id, evco_id: freshEvco() }, '$.evco_id'],
    [{ vehicle_vin: 'WVWZZZ1JZXW000001', evco_id: evco }, '$.evco_id'],
  ] as const) {
    const response = await app.request('POST', path, { body });
    t.is(response.status, 400, JSON.stringify(body));
    t.is(response.body.param, param, JSON.stringify(body));
  }
  t.is(await countTokens(own), before, 'nothing was created');
});

test('add-virtual-token issues an app token and links it', async (t) => {
  const own = (await createAdministration(app)).id;
  const sub = await insertTokenSubscription(app, own);
  const series = await insertTokenSeries(app, own);
  const path = api('/msp-token-subscription/add-virtual-token');
  const fromSeries = await app.request('POST', path, { body: { subscription_id: sub.id, token_series_id: series.id, uid: 'user-42' } });
  t.is(fromSeries.status, 200, JSON.stringify(fromSeries.body));
  t.like(fromSeries.body.token, { form_factor: 'virtual', uid: 'user-42' });
  t.is(fromSeries.body.token_link.subscription_id, sub.id);

  const evco = freshEvco();
  const given = await app.request('POST', path, { body: { subscription_id: sub.id, evco_id: evco } });
  t.is(given.status, 200, JSON.stringify(given.body));
  const stored = await scopedEm(app.orm).findOne(Token, { evcoId: evco });
  t.is(stored?.uidType, 'app_user');
  t.is(stored?.formFactor, 'virtual');

  const before = await countTokens(own);
  const duplicate = await app.request('POST', path, { body: { subscription_id: sub.id, evco_id: evco.toLowerCase() } });
  t.like(duplicate.body, { code: 'duplicate', param: '$.evco_id' });
  const badUid = await app.request('POST', path, { body: { subscription_id: sub.id, token_series_id: series.id, uid: 'no spaces allowed' } });
  t.like(badUid.body, { param: '$.uid' });
  const neither = await app.request('POST', path, { body: { subscription_id: sub.id } });
  t.like(neither.body, { param: '$.token_series_id' });
  const noSub = await app.request('POST', path, { body: { token_series_id: series.id } });
  t.like(noSub.body, { param: '$.subscription_id' });
  t.is(await countTokens(own), before, 'nothing was created');
});

// Found by probing: one eMA id sent at once with and without its check character made two tokens
// (the unique index compares the id as written), in 5 rounds of 5.
test('one eMA id in several spellings at once (check character, separators, casing) makes one token', async (t) => {
  const sub = await insertTokenSubscription(app, adminId);
  const other = await insertTokenSubscription(app, adminId);
  for (let round = 0; round < 5; round++) {
    const full = freshEvco();
    const base = full.slice(0, 14);
    const spellings = [base, full, `${base.slice(0, 2)}-${base.slice(2, 5)}-${base.slice(5)}`.toLowerCase()];
    const answers = await Promise.all(spellings.map((evco, i) => app.request('POST', api('/msp-token-subscription/add-virtual-token'),
      { body: { subscription_id: (i % 2 ? other : sub).id, evco_id: evco } })));
    t.is(answers.filter((r) => r.status === 200).length, 1, JSON.stringify(answers.map((r) => r.body.code ?? r.status)));
    t.true(answers.every((r) => r.status === 200 || r.body.code === 'duplicate'));
    t.is(await scopedEm(app.orm).count(Token, { evcoId: { $like: `${base}%` } }, { filters: false }), 1);
  }
});

// Found by probing: two virtual tokens took one app-user uid, and OCPI listed two APP_USER tokens of
// one uid (a roaming partner keys tokens by uid and type, so it took the second for the first).
test('a uid is one token\'s of its OCPI type, in any casing: add-virtual-token, at once too, and activate-token', async (t) => {
  const sub = await insertTokenSubscription(app, adminId);
  const uid = `user-${randomUUID().slice(0, 8)}`;
  const add = (evco: string, value: string) => app.request('POST', api('/msp-token-subscription/add-virtual-token'), { body: { subscription_id: sub.id, evco_id: evco, uid: value } });
  const answers = await Promise.all([add(freshEvco(), uid), add(freshEvco(), uid.toUpperCase())]);
  t.deepEqual(answers.map((r) => r.status).sort(), [200, 400], JSON.stringify(answers.map((r) => r.body)));
  t.like(answers.find((r) => r.status === 400)!.body, { code: 'duplicate', param: '$.uid' });
  t.like((await add(freshEvco(), uid)).body, { code: 'duplicate', param: '$.uid' });
  t.is(await scopedEm(app.orm).count(Token, { uid }, { filters: false }), 1);
  // A card may carry the same text as an app user's uid: another OCPI type.
  const series = await insertTokenSeries(app, adminId, { uidType: 'rfid_7byte' });
  const card = await fulfil(sub.id, { form_factor: 'card', token_series_id: series.id });
  const first = await fulfil(sub.id, { form_factor: 'card', token_series_id: series.id });
  const activate = (evco: string, value: string) => app.request('POST', api('/msp-token-fulfilment/activate-token'), { body: { evco_id: evco, uid: value } });
  t.is((await activate(card.body.token.evco_id, '04A1B2C3D4E5F6')).status, 200);
  t.like((await activate(first.body.token.evco_id, '04a1b2c3d4e5f6')).body, { code: 'duplicate', param: '$.uid' });
});
