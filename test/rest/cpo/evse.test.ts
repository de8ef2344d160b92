import test from 'ava';
import { startTestApp, type TestApp } from '../../helpers/app.ts';
import { createAdministration, createCustomer } from '../../helpers/factories.ts';
import { createArrangement, createEvse, linkEvse } from '../../helpers/cpo-factories.ts';

let app: TestApp;
let adminId: string;
test.before(async () => {
  app = await startTestApp();
  adminId = (await createAdministration(app)).id;
});
test.after.always(async () => { await app?.close(); });

const api = (path: string) => `/main/v1${path}`;

test('EVSEs: create (deprecated), get with connectors, merge-update, list, errors', async (t) => {
  const evse = await createEvse(app, adminId, { connectors: [{ id: '1', standard: 'IEC_62196_T2', power_type: 'ac_3phase', max_power_kw: '22' }] });
  t.like(evse, { admin_id: adminId, dropout_all_chargesessions: false, reimbursement_mandatory: false });
  const got = await app.request('GET', api(`/cpo-evse/${evse.evse_uid}`));
  t.deepEqual(got.body.connectors, [{ id: '1', standard: 'IEC_62196_T2', power_type: 'ac_3phase', max_power_kw: '22' }]);
  const updated = await app.request('POST', api(`/cpo-evse/${evse.evse_uid}`), { body: { reimbursement_mandatory: true, evse_id: 'NL*VOL*E9' } });
  t.like(updated.body, { reimbursement_mandatory: true, evse_id: 'NL*VOL*E9', connectors: got.body.connectors });
  const list = await app.request('GET', api('/cpo-evse'));
  t.true(list.body.items.some((e: { evse_uid: string }) => e.evse_uid === evse.evse_uid));
  const duplicate = await app.request('POST', api('/cpo-evse'), { body: { admin_id: adminId, evse_uid: evse.evse_uid.toLowerCase() } });
  t.like(duplicate.body, { code: 'duplicate', param: '$.evse_uid' });
  const badConnector = await app.request('POST', api(`/cpo-evse/${evse.evse_uid}`), { body: { connectors: [{ id: '1', max_power_kw: 22 }] } });
  t.is(badConnector.body.param, '$.connectors[0].max_power_kw');
  const missing = await app.request('POST', api('/cpo-evse/NO-SUCH-EVSE'), { body: {} });
  t.is(missing.body.code, 'not_found');
  for (const [method, path] of [['PUT', `/cpo-evse/${evse.evse_uid}`], ['PUT', `/cpo-evse/${evse.evse_uid}/reimbursement-mandatory`]]) {
    t.is((await app.request(method, api(path), { body: {} })).status, 404, `${method} ${path} was removed`);
  }
});

test('arrangements and links: create, update, defunct cascades; validity checks', async (t) => {
  const customer = await createCustomer(app, adminId);
  const evse = await createEvse(app, adminId);
  const arrangement = await createArrangement(app, adminId, customer.id, { custom_fields: { contract: 'A-1' }, external_reference: `ARR-${Date.now()}` });
  t.like(arrangement, { customer_id: customer.id, valid_from: '2026-01-01T00:00:00.000Z', defunct: false });
  const merged = await app.request('POST', api(`/cpo-reimbursement-arrangement/${arrangement.id}`), { body: { buyer_reference: 'PO-1', custom_fields: { region: 'north' } } });
  t.deepEqual(merged.body.custom_fields, { contract: 'A-1', region: 'north' });
  const backwards = await app.request('POST', api(`/cpo-reimbursement-arrangement/${arrangement.id}`), { body: { valid_until: '2025-01-01T00:00:00Z' } });
  t.is(backwards.body.param, '$.valid_until');
  const link = await linkEvse(app, arrangement.id, evse.evse_uid);
  t.like(link, { arrangement_id: arrangement.id, evse_uid: evse.evse_uid, valid_from: null, defunct: false });
  const ended = await app.request('POST', api(`/cpo-reimbursement-link/${link.id}`), { body: { valid_until: '2026-06-01T00:00:00Z' } });
  t.is(ended.body.valid_until, '2026-06-01T00:00:00.000Z');
  const unknownEvse = await app.request('POST', api('/cpo-reimbursement-link'), { body: { arrangement_id: arrangement.id, evse_uid: 'NOPE' } });
  t.like(unknownEvse.body, { code: 'not_found', param: '$.evse_uid' });

  const defunct = await app.request('PUT', api(`/cpo-reimbursement-arrangement/${arrangement.id}/defunct`));
  t.true(defunct.body.defunct);
  const links = await app.request('GET', api('/cpo-reimbursement-link?page_size=1000'));
  t.true(links.body.items.find((l: { id: string }) => l.id === link.id).defunct, 'the link became defunct too');
  const ofEvse = await app.request('GET', api(`/cpo-reimbursement-link?evse_uid=${evse.evse_uid}&arrangement_id=${arrangement.id}`));
  t.deepEqual(ofEvse.body.items.map((l: { id: string; evse_uid: string }) => [l.id, l.evse_uid]), [[link.id, evse.evse_uid]], 'filtered by its EVSE');
  const frozen = await app.request('POST', api(`/cpo-reimbursement-arrangement/${arrangement.id}`), { body: { buyer_reference: 'PO-2' } });
  t.is(frozen.body.code, 'reimbursement_arrangement_defunct');
});

test('a credential of another administration sees no EVSE, arrangement or link', async (t) => {
  const customer = await createCustomer(app, adminId);
  const evse = await createEvse(app, adminId);
  const arrangement = await createArrangement(app, adminId, customer.id);
  const link = await linkEvse(app, arrangement.id, evse.evse_uid);
  const other = (await createAdministration(app)).id;
  const outsider = await app.credential({ adminIds: [other] });
  for (const [method, path, body] of [
    ['GET', `/cpo-evse/${evse.evse_uid}`, undefined], ['POST', `/cpo-evse/${evse.evse_uid}`, {}],
    ['GET', `/cpo-reimbursement-arrangement/${arrangement.id}`, undefined], ['POST', `/cpo-reimbursement-link/${link.id}`, {}],
    ['PUT', `/cpo-reimbursement-link/${link.id}/defunct`, {}],
  ] as const) {
    const r = await app.request(method, api(path), { auth: outsider, body });
    t.is(r.body.code, 'not_found', `${method} ${path}`);
  }
  t.deepEqual((await app.request('GET', api('/cpo-evse'), { auth: outsider })).body.items, []);
  t.deepEqual((await app.request('GET', api('/cpo-reimbursement-link'), { auth: outsider })).body.items, []);
});

test('the same EVSE create sent ten times at once: one 200, the others 400 duplicate as a second create, one EVSE stored', async (t) => {
  const evseUid = `AT-ONCE-${Date.now()}`;
  const answers = await Promise.all(Array.from({ length: 10 }, () => app.request('POST', api('/cpo-evse'), {
    body: { admin_id: adminId, evse_uid: evseUid, evse_id: `NL*ONC*E${Date.now() % 100000}` },
  })));
  t.deepEqual(answers.map((a) => a.status).sort(), [200, ...Array(9).fill(400)], JSON.stringify(answers.filter((a) => a.status >= 500).map((a) => a.body)));
  for (const refused of answers.filter((a) => a.status === 400)) t.like(refused.body, { code: 'duplicate', param: '$.evse_uid' });
  const [{ n }] = await app.orm.em.fork().execute<{ n: number }[]>('select count(*)::int as n from cpo_evse where evse_uid = ?', [evseUid]);
  t.is(n, 1);
});

test('an evse_id of separators only (or "") is 400 at $.evse_id on create and merge-update, and nothing is stored (since 2026-11-29)', async (t) => {
  const base = `SEP-${process.pid}`;
  for (const evseId of ['***', '- -', '']) {
    const created = await app.request('POST', api('/cpo-evse'), { body: { admin_id: adminId, evse_uid: `${base}-${evseId.length}`, evse_id: evseId } });
    t.like(created.body, { code: 'invalid_input', param: '$.evse_id' }, JSON.stringify(evseId));
    t.is((await app.request('GET', api(`/cpo-evse/${base}-${evseId.length}`))).body.code, 'not_found', 'no EVSE stored');
  }
  const evse = await createEvse(app, adminId, { evse_id: `NL*SEP*E${process.pid}` });
  const stored = (await app.request('GET', api(`/cpo-evse/${evse.evse_uid}`))).body;
  const updated = await app.request('POST', api(`/cpo-evse/${evse.evse_uid}`), { body: { evse_id: '*-*', reimbursement_mandatory: true } });
  t.like(updated.body, { code: 'invalid_input', param: '$.evse_id' });
  t.deepEqual((await app.request('GET', api(`/cpo-evse/${evse.evse_uid}`))).body, stored, 'nothing changed');
  const unseparated = await app.request('POST', api(`/cpo-evse/${evse.evse_uid}`), { body: { evse_id: `NLSEPE${process.pid}X` } });
  t.is(unseparated.status, 200, 'an EVSE ID without separators is the spec\'s form all the same');
});

test('two connectors of one id (in any casing) are 400 duplicate at the second one\'s id, and nothing is stored (since 2026-11-29)', async (t) => {
  const evse = await createEvse(app, adminId, { connectors: [{ id: 'A', standard: 'IEC_62196_T2' }] });
  const stored = (await app.request('GET', api(`/cpo-evse/${evse.evse_uid}`))).body;
  const twice = await app.request('POST', api(`/cpo-evse/${evse.evse_uid}`), {
    body: { reimbursement_mandatory: true, connectors: [{ id: '1', standard: 'IEC_62196_T2' }, { id: 'a' }, { id: 'A', standard: 'CHADEMO' }] },
  });
  t.like(twice.body, { code: 'duplicate', param: '$.connectors[2].id' });
  t.deepEqual((await app.request('GET', api(`/cpo-evse/${evse.evse_uid}`))).body, stored, 'nothing changed');
  const created = await app.request('POST', api('/cpo-evse'), { body: { admin_id: adminId, evse_uid: `TWICE-${process.pid}`, connectors: [{ id: '1' }, { id: '1' }] } });
  t.like(created.body, { code: 'duplicate', param: '$.connectors[1].id' });
  t.is((await app.request('GET', api(`/cpo-evse/TWICE-${process.pid}`))).body.code, 'not_found', 'no EVSE stored');
});
