// An EVSE uid and a location id are identifiers, compared in any casing (interface spec, convention
// 5), in the lists' filters too: a session's, a drop-out case's and a reimbursement's copies were
// compared as written, so a filter in another casing found nothing, and the EVSE's own spelling missed
// the sessions a sender wrote in another casing (found by probing).
import test from 'ava';
import { startTestApp, type TestApp } from '../../helpers/app.ts';
import { createAdministration, createCustomer, okCall } from '../../helpers/factories.ts';
import { cpoSessionBody, createLocatedEvse, createReimbursementPlan, reimburseEvse, settledCpoSession } from '../../helpers/cpo-factories.ts';
import { ensureVatRate } from '../../helpers/session-factories.ts';

let app: TestApp;
let adminId: string;
test.before(async () => {
  app = await startTestApp();
  await ensureVatRate(app);
  adminId = (await createAdministration(app)).id;
});
test.after.always(async () => { await app?.close(); });

const ok = (method: string, path: string, body?: unknown) => okCall(app, method, path, body);
const ids = (list: { items: { id: string }[] }) => list.items.map((item) => item.id).sort();

test('sessions, their reimbursements and drop-out cases are found by evse_uid and location_id in any casing', async (t) => {
  const customer = await createCustomer(app, adminId, { reimbursement_vat: 'Applies' });
  const plan = await createReimbursementPlan(app, adminId, {}, { energy: '0.25' });
  const evse = await createLocatedEvse(app, adminId, { evse_uid: `Evse-Mixed-${process.pid}` });
  await reimburseEvse(app, adminId, customer.id, plan.id, evse.evse_uid);
  const asEvse = await ok('POST', '/cpo-charge-session', cpoSessionBody(evse.evse_uid));
  // The sender spells the uid in capitals: the same EVSE (matched in any casing), stored as sent.
  const asSent = await ok('POST', '/cpo-charge-session', cpoSessionBody(evse.evse_uid.toUpperCase()));
  await settledCpoSession(app, asEvse.id);
  await settledCpoSession(app, asSent.id);
  const both = [asEvse.id, asSent.id].sort();
  for (const uid of [evse.evse_uid, evse.evse_uid.toLowerCase(), evse.evse_uid.toUpperCase()]) {
    t.deepEqual(ids(await ok('GET', `/cpo-charge-session?evse_uid=${uid}`)), both, `sessions by evse_uid ${uid}`);
    const reimbursed = (await ok('GET', `/cpo-charge-session-reimbursement?evse_uid=${uid}`)).items.map((r: any) => r.charge_session_id).sort();
    t.deepEqual(reimbursed, both, `reimbursements by evse_uid ${uid}`);
  }
  for (const location of [evse.location_id, evse.location_id.toLowerCase()]) {
    t.deepEqual(ids(await ok('GET', `/cpo-charge-session?location_id=${location}`)), both, `sessions by location_id ${location}`);
  }
  t.deepEqual(ids(await ok('GET', '/cpo-charge-session?evse_uid=no-such-evse')), []);
});

test('drop-out cases are found by evse_uid in any casing', async (t) => {
  const evse = await createLocatedEvse(app, adminId, { evse_uid: `Evse-Drop-${process.pid}`, dropout_all_chargesessions: true });
  const received = await ok('POST', '/cpo-charge-session', cpoSessionBody(evse.evse_uid));
  await settledCpoSession(app, received.id);
  const cases = ids(await ok('GET', `/cpo-dropout-case?evse_uid=${evse.evse_uid}`));
  t.is(cases.length, 1);
  t.deepEqual(ids(await ok('GET', `/cpo-dropout-case?evse_uid=${evse.evse_uid.toLowerCase()}`)), cases);
  t.deepEqual(ids(await ok('GET', `/cpo-dropout-case?evse_uid=${evse.evse_uid.toUpperCase()}`)), cases);
});
