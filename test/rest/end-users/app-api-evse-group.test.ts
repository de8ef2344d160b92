// The MSP EVSE-group endpoint with EVSE data in the instance (its own app: the demo mode of
// app-api.test.ts needs an instance without EVSEs).
import test from 'ava';
import { startTestApp, type TestApp } from '../../helpers/app.ts';
import { createEvse, createLocation } from '../../helpers/cpo-factories.ts';
import { createAdministration, createEndUser } from '../../helpers/factories.ts';
import { pricedSubscription } from '../../helpers/session-factories.ts';

let app: TestApp;
test.before(async () => { app = await startTestApp(); });
test.after.always(async () => { await app?.close(); });

test('EVSEs within the radius, grouped per location, nearest first, with the end user\'s price; no demo groups', async (t) => {
  const adminId = (await createAdministration(app)).id;
  const near = await createLocation(app, adminId, { latitude: '52.090000', longitude: '5.110000', name: 'Near' });
  const further = await createLocation(app, adminId, { latitude: '52.100000', longitude: '5.120000', name: 'Further' });
  const far = await createLocation(app, adminId, { latitude: '51.900000', longitude: '4.480000', name: 'Rotterdam' });
  for (const location of [near, near, further, far]) {
    await createEvse(app, adminId, { location_id: location.location_id, connectors: [{ id: '1', standard: 'IEC_62196_T2', power_type: 'ac_3phase', max_power_kw: '22' }] });
  }
  const priced = await pricedSubscription(app, adminId);
  const user = await createEndUser(app, adminId);
  await app.request('POST', `/main/v1/end-user/${user.id}/authorization-msp-token-subscription/${priced.subscriptionId}`, { body: {} });
  const appAuth = await app.credential({ role: 'app' });

  const r = await app.request('GET', `/main/v1/${user.id}/msp-evse-group?latitude=52.09&longitude=5.11&radius_m=5000`, { auth: appAuth });
  t.is(r.status, 200, JSON.stringify(r.body));
  t.deepEqual(r.body.items.map((g: any) => [g.location_id, g.evses.length, g.demo]), [[near.location_id, 2, false], [further.location_id, 1, false]]);
  t.is(r.body.items[0].distance_m, 0);
  t.like(r.body.items[0], { price_per_kwh_excl_vat: '0.50', currency_code: 'EUR', address: { city: 'Utrecht' } });
  t.like(r.body.items[0].evses[0].connectors[0], { id: '1', max_power_kw: '22' });
  const paged = await app.request('GET', `/main/v1/${user.id}/msp-evse-group?latitude=52.09&longitude=5.11&radius_m=5000&page_size=1&page=2`, { auth: appAuth });
  t.like(paged.body, { page: 2, page_size: 1, has_next_page: false });
  t.deepEqual(paged.body.items.map((g: any) => g.location_id), [further.location_id]);
});

test('bad coordinates are 400 naming the query parameter: the shared format (a position: at most 9 decimals), the range, presence', async (t) => {
  const adminId = (await createAdministration(app)).id;
  const user = await createEndUser(app, adminId);
  const appAuth = await app.credential({ role: 'app' });
  const search = (query: string) => app.request('GET', `/main/v1/${user.id}/msp-evse-group?${query}`, { auth: appAuth });
  t.is((await search('latitude=52.090737&longitude=-5.110000')).status, 200);
  t.is((await search('latitude=52.090737123&longitude=5.11')).status, 200, 'a phone position with 9 decimals');
  for (const [query, param, message] of [
    ['latitude=52.0907371234&longitude=5.11', 'latitude', 'at most 9 decimals'],
    ['latitude=52.09&longitude=5.11e1', 'longitude', 'at most 9 decimals'],
    ['latitude=90.000001&longitude=5.11', 'latitude', 'must lie in -90..90'],
    ['latitude=52.09&longitude=-180.5', 'longitude', 'must lie in -180..180'],
    ['longitude=5.11', 'latitude', 'is required'],
  ]) {
    const r = await search(query);
    t.is(r.status, 400, query);
    t.is(r.body.query_param, param, query);
    t.regex(r.body.message, new RegExp(message), query);
  }
});
