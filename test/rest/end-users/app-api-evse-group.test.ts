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

const connectors = [{ id: '1', standard: 'IEC_62196_T2', power_type: 'ac_3phase', max_power_kw: '22' }];

test('an end user sees only their own administration\'s locations and EVSEs, whatever the credential\'s limits', async (t) => {
  const a = (await createAdministration(app)).id;
  const b = (await createAdministration(app)).id;
  const locA = await createLocation(app, a, { latitude: '42.000000', longitude: '10.000000', name: 'A station' });
  const evseA = await createEvse(app, a, { location_id: locA.location_id, connectors });
  const locB = await createLocation(app, b, { latitude: '42.000100', longitude: '10.000000', name: 'B private depot' });
  await createEvse(app, b, { location_id: locB.location_id, connectors });
  const user = await createEndUser(app, a);
  for (const auth of [await app.credential({ role: 'app' }), await app.credential({ role: 'app', adminIds: [a, b] })]) {
    const r = await app.request('GET', `/main/v1/${user.id}/msp-evse-group?latitude=42&longitude=10&radius_m=1000`, { auth });
    t.is(r.status, 200, JSON.stringify(r.body));
    t.deepEqual(r.body.items.map((g: any) => [g.location_id, g.evses.map((e: any) => e.evse_uid)]), [[locA.location_id, [evseA.evse_uid]]]);
  }
});

test('every location within the radius is found: across longitude ±180, near a pole, at the edge of the radius', async (t) => {
  const adminId = (await createAdministration(app)).id;
  const east = await createLocation(app, adminId, { latitude: '-16.800000', longitude: '179.990000', name: 'East of 180' });
  const west = await createLocation(app, adminId, { latitude: '-16.800000', longitude: '-179.995000', name: 'West of 180' });
  const pole = await createLocation(app, adminId, { latitude: '89.900000', longitude: '180.000000', name: 'Pole' });
  // 0.04496 degrees of latitude north of 30/20: 4,999 m, within 5 km.
  const edge = await createLocation(app, adminId, { latitude: '30.044960', longitude: '20.000000', name: 'Edge' });
  for (const location of [east, west, pole, edge]) await createEvse(app, adminId, { location_id: location.location_id, connectors });
  const user = await createEndUser(app, adminId);
  const auth = await app.credential({ role: 'app', adminIds: [adminId] });
  const search = async (query: string) => {
    const r = await app.request('GET', `/main/v1/${user.id}/msp-evse-group?${query}`, { auth });
    t.is(r.status, 200, JSON.stringify(r.body));
    return r.body.items.map((g: any) => [g.location_id, g.distance_m]);
  };
  // Either side of the antimeridian, from either side, nearest first.
  t.deepEqual(await search('latitude=-16.8&longitude=-179.99&radius_m=5000'), [[west.location_id, 532], [east.location_id, 2129]]);
  t.deepEqual(await search('latitude=-16.8&longitude=179.995&radius_m=5000'), [[east.location_id, 532], [west.location_id, 1064]]);
  // 22 km away across the North Pole; then 1 m inside the radius due north (a box of 111,320 m a degree missed it).
  t.deepEqual(await search('latitude=89.9&longitude=0&radius_m=50000'), [[pole.location_id, 22239]]);
  t.deepEqual(await search('latitude=30&longitude=20&radius_m=5000'), [[edge.location_id, 4999]]);
});
