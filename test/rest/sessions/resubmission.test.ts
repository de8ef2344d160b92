// A session sent again under a stored identity (decisions.md "Resubmission"): the same content is
// an idempotent duplicate, other content replaces a waiting or dropped-out session and reprocesses
// it, and is refused for a priced one.
import test from 'ava';
import { createLocatedEvse } from '../../helpers/cpo-factories.ts';
import { startTestApp, type TestApp } from '../../helpers/app.ts';
import { createAdministration, insertToken } from '../../helpers/factories.ts';
import { pricedSubscription, pricingResults, processed, sessionBody, submitSession } from '../../helpers/session-factories.ts';
import { startWorker, type RunningWorker } from '../../../src/worker/worker.ts';

let app: TestApp;
let evcoId: string;
let adminId: string;
let worker: RunningWorker | undefined;
test.before(async () => {
  app = await startTestApp();
  adminId = (await createAdministration(app)).id;
  ({ evcoId } = await pricedSubscription(app, adminId));
});
test.after.always(async () => {
  await worker?.stop();
  await app?.close();
});

const api = (path: string) => `/main/v1${path}`;
const get = async (path: string) => (await app.request('GET', api(path))).body;

async function pricedSession(body: Record<string, unknown>, path = api('/charge-session')) {
  const stored = await submitSession(app, body, path);
  const session = await processed(app, stored.id);
  if (session.status !== 'priced') throw new Error(`not priced: ${JSON.stringify(session)}`);
  return session;
}

test.serial('a session still waiting to be processed takes the corrected data', async (t) => {
  await app.stopWorker();
  const body = sessionBody(evcoId, { total_energy_kwh: '10' });
  const stored = await submitSession(app, body);
  const corrected = await submitSession(app, { ...body, total_energy_kwh: '14', remark: 'meter re-read' });
  t.like(corrected, { id: stored.id, status: 'received', duplicate: false });
  t.is((await get(`/msp-charge-session/${stored.id}`)).total_energy_kwh, '14.00');
  t.is((await get(`/msp-charge-session-original/${stored.id}`)).body.remark, 'meter re-read');
  worker = await startWorker(app.orm, app.databaseUrl);
  t.is((await processed(app, stored.id)).status, 'priced');
  const results = await pricingResults(app, stored.id);
  t.is(results.length, 1);
  t.is(results[0].total_excl_vat, '7.00', '14 kWh at 0.50');
});

test('the same content sent again is a duplicate: decimals by value, timestamps as instants, identifiers and enumerations as read, key order, absent = null', async (t) => {
  const tariff = { id: 'T1', currency: 'EUR', tariff_alt_url: null, elements: [{ price_components: [{ type: 'ENERGY', price: 0.25, step_size: 1 }] }] };
  const body = sessionBody(evcoId, { total_energy_kwh: '12.0', power_type: 'ac_3phase', total_roaming_amount_excl_vat: '3.1', historical_tariff: tariff });
  const session = await pricedSession(body);
  const same: Record<string, unknown> = {
    historical_tariff: { elements: [{ price_components: [{ step_size: 1, price: 0.25, type: 'ENERGY' }] }], currency: 'EUR', id: 'T1' },
    power_type: 'AC_3_PHASE', total_cost_excl_vat: '3.100', cpo_id: 'nlabc', evse_id: 'nlabce1234',
    start_date_time: '2026-03-02T09:00:00Z', end_date_time: '2026-03-02T12:00:00+02:00', total_energy_kwh: '12.00',
    address: { country: 'nl', postal_code: '3511 ED', city: 'Utrecht', street: 'Stationsplein 1' },
  };
  const reordered: Record<string, unknown> = Object.fromEntries([...Object.entries({ ...body, ...same })].reverse());
  delete reordered.total_roaming_amount_excl_vat;
  const again = await app.request('POST', api('/charge-session'), { body: reordered });
  t.is(again.status, 200, JSON.stringify(again.body));
  t.like(again.body, { id: session.id, status: 'priced', duplicate: true });
  t.is((await pricingResults(app, session.id)).length, 1);
});

test('a priced session sent with other content is refused and nothing changes', async (t) => {
  const body = sessionBody(evcoId, { total_energy_kwh: '12.0' });
  const session = await pricedSession(body);
  const original = await get(`/msp-charge-session-original/${session.id}`);
  const cases: [Record<string, unknown>, string][] = [
    [{ total_energy_kwh: '12.5' }, '$.total_energy_kwh'],
    [{ address: { ...body.address, city: 'Amersfoort' } }, '$.address.city'],
    [{ end_date_time: '2026-03-02T11:00:01+01:00', total_energy_kwh: '13' }, '$.end_date_time'],
    [{ remark: 'late correction' }, '$.remark'],
  ];
  for (const [changes, param] of cases) {
    const r = await app.request('POST', api('/charge-session'), { body: { ...body, ...changes } });
    t.is(r.status, 400, JSON.stringify(changes));
    t.like(r.body, { code: 'conflicting_resubmission', param });
  }
  t.deepEqual(await get(`/msp-charge-session/${session.id}`), session);
  t.deepEqual(await get(`/msp-charge-session-original/${session.id}`), original);
  t.is((await pricingResults(app, session.id)).length, 1);
});

test('a dropped-out session sent with corrected data is priced with it and its drop-out case is resolved', async (t) => {
  const body = sessionBody(evcoId, { total_energy_kwh: '5000' });
  const stored = await submitSession(app, body);
  const dropped = await processed(app, stored.id);
  t.is(dropped.dropout_reason, 'validity_plausible_energy');
  const corrected = await submitSession(app, { ...body, total_energy_kwh: '50.0' });
  t.like(corrected, { id: stored.id, status: 'received', duplicate: false });
  const session = await processed(app, stored.id);
  t.is(session.status, 'priced', JSON.stringify(session));
  t.is(session.total_energy_kwh, '50.00');
  t.is(session.dropout_case_id, null);
  const [result] = await pricingResults(app, stored.id);
  t.is(result.total_excl_vat, '25.00', '50 kWh at 0.50');
  t.like(await get(`/msp-dropout-case/${dropped.dropout_case_id}`), { status: 'resolved', resolution: 'retry' });
  t.is((await app.request('POST', api('/charge-session'), { body: { ...body, total_energy_kwh: '5000' } })).body.code, 'conflicting_resubmission',
    'once priced, the old data is a conflict too');
});

test('a case shared by several sessions stays open until the last of them is corrected', async (t) => {
  const { evcoId: evco } = await pricedSubscription(app, (await createAdministration(app)).id);
  const bodies = [sessionBody(evco, { total_energy_kwh: '4000' }), sessionBody(evco, { total_energy_kwh: '4000' })];
  const ids = [];
  for (const body of bodies) ids.push((await submitSession(app, body)).id);
  const dropped = await Promise.all(ids.map((id) => processed(app, id)));
  const caseId = dropped[0].dropout_case_id;
  t.is(dropped[1].dropout_case_id, caseId);
  await submitSession(app, { ...bodies[0], total_energy_kwh: '40' });
  t.like(await get(`/msp-dropout-case/${caseId}`), { status: 'open', session_count: 1 });
  t.is((await processed(app, ids[0])).status, 'priced');
  await submitSession(app, { ...bodies[1], total_energy_kwh: '40' });
  t.like(await get(`/msp-dropout-case/${caseId}`), { status: 'resolved' });
  t.is((await processed(app, ids[1])).status, 'priced');
});

test('POST /cpo-charge-session: the same rules', async (t) => {
  const evse = await createLocatedEvse(app, adminId);
  const body = { ...sessionBody(evcoId), evse_uid: evse.evse_uid, cpo_id: undefined };
  delete body.cpo_id;
  const session = await pricedSession(body, api('/cpo-charge-session'));
  const same = await submitSession(app, { ...body, evse_uid: body.evse_uid.toLowerCase(), total_energy_kwh: '10.000' }, api('/cpo-charge-session'));
  t.like(same, { id: session.id, duplicate: true });
  const other = await app.request('POST', api('/cpo-charge-session'), { body: { ...body, total_energy_kwh: '11' } });
  t.like(other.body, { code: 'conflicting_resubmission', param: '$.total_energy_kwh' });
});

test('concurrent corrections and the worker: every answer is 200 or a conflict, and the price uses the stored data', async (t) => {
  const body = sessionBody(evcoId, { total_energy_kwh: '10' });
  const stored = await submitSession(app, body);
  const answers = await Promise.all(['11', '12', '13', '14', '15', '16'].map((kwh) => app.request('POST', api('/charge-session'), {
    body: { ...body, total_energy_kwh: kwh },
  })));
  for (const r of answers) {
    t.true(r.status === 200 || r.body.code === 'conflicting_resubmission', JSON.stringify(r.body));
    if (r.status === 200) t.is(r.body.id, stored.id);
  }
  const session = await processed(app, stored.id);
  const results = await pricingResults(app, stored.id);
  t.is(results.length, 1);
  const kwh = Number(session.total_energy_kwh);
  t.is(results[0].total_excl_vat, (kwh / 2).toFixed(2), 'priced with the data stored last');
});

// Found by probing: processing kept a session's administration when its token resolved to none
// (`coalesce`), so a session of A resubmitted with a token of B that has no link stayed A's: A read B's
// token on it and could change it again, B's own resubmission was 400 duplicate.
test('a session resubmitted with another administration\'s token belongs to no administration until its token resolves', async (t) => {
  const a = (await createAdministration(app)).id;
  const b = (await createAdministration(app)).id;
  const ownToken = (await pricedSubscription(app, a)).evcoId;
  const unlinked = (await insertToken(app, b)).evcoId;
  const asA = await app.credential({ role: 'admin', adminIds: [a] });
  const asB = await app.credential({ role: 'admin', adminIds: [b] });
  const body = sessionBody(ownToken, { total_energy_kwh: '5000' });
  const stored = await app.request('POST', api('/charge-session'), { body, auth: asA });
  t.like(await processed(app, stored.body.id), { status: 'dropout', admin_id: a });

  t.like(await submitSession(app, { ...body, evco_id: unlinked, total_energy_kwh: '10' }), { id: stored.body.id, duplicate: false });
  const dropped = await processed(app, stored.body.id);
  t.like(dropped, { status: 'dropout', dropout_reason: 'no_valid_subscription', admin_id: null });
  t.like(await get(`/msp-dropout-case/${dropped.dropout_case_id}`), { admin_id: null });
  t.is((await app.request('GET', api(`/msp-charge-session/${stored.body.id}`), { auth: asA })).body.code, 'not_found');
  t.like((await app.request('POST', api('/charge-session'), { body: { ...body, total_energy_kwh: '12' }, auth: asA })).body,
    { code: 'duplicate', param: '$.session_id' });
  const byB = await app.request('POST', api('/charge-session'), { body: { ...body, evco_id: unlinked, total_energy_kwh: '11' }, auth: asB });
  t.like(byB.body, { id: stored.body.id, duplicate: false }, 'B submits sessions of its own token');
});
