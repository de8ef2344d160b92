import test from 'ava';
import { startTestApp, type TestApp } from '../../helpers/app.ts';
import { createEvse } from '../../helpers/cpo-factories.ts';
import { createAdministration } from '../../helpers/factories.ts';

let app: TestApp;
test.before(async () => { app = await startTestApp(); });
test.after.always(async () => { await app?.close(); });

test('locations: created, merge-updated with decimal coordinates, and named by their EVSEs', async (t) => {
  const admin = (await createAdministration(app)).id;
  const created = await app.request('POST', '/main/v1/cpo-evse-location', {
    body: { admin_id: admin, location_id: `LOC-${admin}`, name: 'Station', latitude: '52.090737', longitude: '5.121420',
      address: { street: 'Stationsplein 1', city: 'Utrecht', country: 'nl' }, time_zone: 'Europe/Amsterdam', cpo_id: 'NL*VOL' },
  });
  t.is(created.status, 200, JSON.stringify(created.body));
  t.is(created.body.latitude, '52.090737');
  t.is(created.body.longitude, '5.12142');
  t.is(created.body.address.country, 'NL');
  const merged = await app.request('POST', `/main/v1/cpo-evse-location/LOC-${admin}`, {
    body: { address: { postal_code: '3511 ED' }, deactivated_at: '2026-12-01T00:00:00Z' },
  });
  t.deepEqual(merged.body.address, { street: 'Stationsplein 1', postal_code: '3511 ED', city: 'Utrecht', country: 'NL' });
  t.is(merged.body.deactivated_at, '2026-12-01T00:00:00.000Z');
  t.is(merged.body.name, 'Station');

  const evse = await createEvse(app, admin, { location_id: `LOC-${admin}`, connectors: [{ id: '1', power_type: 'ac_2phase_split', max_power_kw: '7.4' }] });
  t.is(evse.location_id, `LOC-${admin}`);
  t.is(evse.connectors[0].power_type, 'ac_2phase_split');
  const listed = await app.request('GET', '/main/v1/cpo-evse');
  t.is(listed.body.items.find((e: any) => e.evse_uid === evse.evse_uid).location_id, `LOC-${admin}`);
  const detached = await app.request('POST', `/main/v1/cpo-evse/${evse.evse_uid}`, { body: { location_id: null } });
  t.is(detached.body.location_id, null);
});

test('bad coordinates, zones and power types are 400 at their place; a foreign location is not found', async (t) => {
  const admin = (await createAdministration(app)).id;
  const base = { admin_id: admin, location_id: `BAD-${admin}` };
  for (const [body, param] of [
    [{ latitude: '91.0' }, '$.latitude'], [{ longitude: 52.1 }, '$.longitude'], [{ latitude: '1e3' }, '$.latitude'], [{ time_zone: 'Mars/Base' }, '$.time_zone'],
  ] as const) {
    const r = await app.request('POST', '/main/v1/cpo-evse-location', { body: { ...base, ...body } });
    t.is(r.status, 400, JSON.stringify(body));
    t.is(r.body.param, param);
  }
  t.is((await app.request('GET', `/main/v1/cpo-evse-location/BAD-${admin}`)).status, 400);
  const badPower = await app.request('POST', '/main/v1/cpo-evse', { body: { admin_id: admin, evse_uid: `E-${admin}`, connectors: [{ id: '1', power_type: 'ac_9phase' }] } });
  t.is(badPower.status, 400);
  t.is(badPower.body.param, '$.connectors[0].power_type');
  const other = (await createAdministration(app)).id;
  await app.request('POST', '/main/v1/cpo-evse-location', { body: { admin_id: other, location_id: `OTHER-${other}` } });
  const limited = await app.credential({ role: 'admin', adminIds: [admin] });
  const foreign = await app.request('POST', '/main/v1/cpo-evse', { body: { admin_id: admin, evse_uid: `F-${admin}`, location_id: `OTHER-${other}` }, auth: limited });
  t.is(foreign.status, 400);
  t.is(foreign.body.param, '$.location_id');
});

test('a time_zone of "" is 400 at $.time_zone on create and merge-update, not stored as ""; null clears it (since 2026-11-29)', async (t) => {
  const admin = (await createAdministration(app)).id;
  const locationId = `TZ-${admin}`;
  const created = await app.request('POST', '/main/v1/cpo-evse-location', { body: { admin_id: admin, location_id: locationId, time_zone: '' } });
  t.like(created.body, { code: 'invalid_input', param: '$.time_zone' });
  t.is((await app.request('GET', `/main/v1/cpo-evse-location/${locationId}`)).body.code, 'not_found', 'no location stored');
  await app.request('POST', '/main/v1/cpo-evse-location', { body: { admin_id: admin, location_id: locationId, time_zone: 'Europe/Amsterdam' } });
  const stored = (await app.request('GET', `/main/v1/cpo-evse-location/${locationId}`)).body;
  const updated = await app.request('POST', `/main/v1/cpo-evse-location/${locationId}`, { body: { time_zone: '', name: 'Depot' } });
  t.like(updated.body, { code: 'invalid_input', param: '$.time_zone' });
  t.deepEqual((await app.request('GET', `/main/v1/cpo-evse-location/${locationId}`)).body, stored, 'nothing changed');
  const cleared = await app.request('POST', `/main/v1/cpo-evse-location/${locationId}`, { body: { time_zone: null } });
  t.is(cleared.body.time_zone, null);
});
