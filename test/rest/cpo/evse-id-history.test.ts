// An EVSE ID that moves to another EVSE keeps its history: sessions match the EVSE that held the
// ID at their start (seen here through safe configuration mode on the old holder).
import test from 'ava';
import { startTestApp, type TestApp } from '../../helpers/app.ts';
import { createEvse } from '../../helpers/cpo-factories.ts';
import { createAdministration } from '../../helpers/factories.ts';
import { pricedSubscription, processed, sessionBody, submitSession } from '../../helpers/session-factories.ts';

let app: TestApp;
test.before(async () => { app = await startTestApp(); });
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
