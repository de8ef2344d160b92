// An EVSE ID that moves to another EVSE keeps its history: sessions match the EVSE that held the
// ID at their start (seen here through safe configuration mode on the old holder).
import test from 'ava';
import { startTestApp, type TestApp } from '../../helpers/app.ts';
import { cpoSessionBody, createEvse, createLocatedEvse, createReimbursementPlan, reimburseEvse, settledCpoSession } from '../../helpers/cpo-factories.ts';
import { createAdministration, createCustomer, okCall } from '../../helpers/factories.ts';
import { ensureVatRate, pricedSubscription, processed, sessionBody, submitSession } from '../../helpers/session-factories.ts';

let app: TestApp;
test.before(async () => {
  app = await startTestApp();
  await ensureVatRate(app);
});
test.after.always(async () => { await app?.close(); });

test('sessions before the move match the old EVSE, sessions after it the new one', async (t) => {
  const admin = (await createAdministration(app)).id;
  const sub = await pricedSubscription(app, admin);
  const evseId = `NL*MOV*E${process.pid}`;
  const old = await createEvse(app, admin, { evse_id: evseId, dropout_all_chargesessions: true });
  const next = await createEvse(app, admin);

  const before = await submitSession(app, sessionBody(sub.evcoId, { evse_id: evseId }));
  t.is((await processed(app, before.id)).status, 'dropout', 'matched the old holder, in safe configuration mode');

  const moved = await app.request('POST', `/main/v1/cpo-evse/${next.evse_uid}`, { body: { evse_id: evseId.replaceAll('*', '') } });
  t.is(moved.status, 200);
  const movedAt = Date.now();
  t.is((await app.request('GET', `/main/v1/cpo-evse/${old.evse_uid}`)).body.evse_id, null, 'the old EVSE lost the ID');
  await new Promise((resolve) => setTimeout(resolve, 1200));

  const after = await submitSession(app, sessionBody(sub.evcoId, {
    evse_id: evseId, start_date_time: new Date(movedAt + 200).toISOString(), end_date_time: new Date(movedAt + 900).toISOString(), total_energy_kwh: '0.005',
  }));
  const afterDone = await processed(app, after.id);
  t.is(afterDone.status, 'priced', JSON.stringify(afterDone));
  const earlier = await submitSession(app, sessionBody(sub.evcoId, { evse_id: evseId, start_date_time: '2026-03-03T10:00:00+01:00', end_date_time: '2026-03-03T11:00:00+01:00' }));
  t.is((await processed(app, earlier.id)).status, 'dropout', 'a late session from before the move still matches the old holder');
});

test('a CPO session naming an EVSE ID by its holder at the start: that EVSE\'s location, and its owner reimbursed', async (t) => {
  const admin = (await createAdministration(app)).id;
  const x = await createLocatedEvse(app, admin);
  const owner = await createCustomer(app, admin, { reimbursement_vat: 'Exempt' });
  const plan = await createReimbursementPlan(app, admin, {}, { energy: '0.10' });
  await reimburseEvse(app, admin, owner.id, plan.id, x.evse_uid);
  const y = await createLocatedEvse(app, admin);
  await okCall(app, 'POST', `/cpo-evse/${y.evse_uid}`, { evse_id: x.evse_id });
  // The CPMS names an uid we do not know and the EVSE ID, which X held at the session's start.
  const hours = (day: string) => ({ start_date_time: `2026-03-${day}T10:00:00Z`, end_date_time: `2026-03-${day}T11:00:00Z` });
  for (const [uid, fields] of [['UNKNOWN-UID', hours('03')], ['UNKNOWN-UID-2', { ...hours('04'), location_id: x.location_id }]] as const) {
    const stored = await submitSession(app, cpoSessionBody(uid, { evse_id: x.evse_id, ...fields }), '/main/v1/cpo-charge-session');
    const session = await settledCpoSession(app, stored.id);
    t.like(session, { status: 'processed', location_id: x.location_id, total_reimbursement_amount_excl_vat: '1.00' }, uid);
    const records = (await okCall(app, 'GET', `/cpo-charge-session-reimbursement?charge_session_id=${session.id}`)).items;
    t.deepEqual(records.map((r: any) => r.customer_id), [owner.id], uid);
  }
});

// Found by probing (2026-11-29): an EVSE ID of separators only normalizes to "" (refused since; one
// stored before stays), and the last fallback matched a session's "-" to it: another
// administration's Exempt owner made the driver's session VAT-free.
test('a session whose evse_id normalizes to "" matches no EVSE, not one stored with "***"', async (t) => {
  const a = (await createAdministration(app)).id;
  const b = (await createAdministration(app)).id;
  const { evcoId } = await pricedSubscription(app, a, { plan: { use_customer_reimbursement_vat: true } });
  const evse = await createEvse(app, b);
  await app.orm.em.fork().getConnection().execute(`update cpo_evse set evse_id = '***', evse_id_normalized = '' where evse_uid = ?`, [evse.evse_uid]);
  const owner = await createCustomer(app, b, { reimbursement_vat: 'Exempt' });
  const plan = await createReimbursementPlan(app, b, {}, { energy: '0.10' });
  await reimburseEvse(app, b, owner.id, plan.id, evse.evse_uid);
  const stored = await submitSession(app, sessionBody(evcoId, { evse_id: '-' }));
  t.is((await processed(app, stored.id)).status, 'priced');
  const [result] = (await okCall(app, 'GET', `/msp-charge-session-priced?charge_session_id=${stored.id}`)).items;
  t.true(result.subtotals.length > 0);
  t.false(result.subtotals.some((s: any) => s.vat_kind === 'exempt'), JSON.stringify(result.subtotals));
});
