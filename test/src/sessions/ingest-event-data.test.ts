// Ingestion writes a session and its `create` event in one statement, with the event's data
// rendered before the statement from the row it stores (src/sessions/ingest-session.service.ts):
// that data is what the GET answers right after, for bodies with every reported field, for both
// endpoints, and for sessions written in one statement with a repeat.
import test from 'ava';
import { startTestApp, type TestApp } from '../../helpers/app.ts';
import { sessionBody } from '../../helpers/session-factories.ts';

let app: TestApp;
test.before(async () => {
  app = await startTestApp();
  // Nothing processes the sessions: the GETs answer them as received.
  await app.stopWorker();
});
test.after.always(async () => { await app?.close(); });

const api = (path: string) => `/main/v1${path}`;

async function createData(id: string): Promise<unknown[]> {
  const rows = await app.orm.em.fork().execute<{ data: unknown }[]>(
    `select data from svc_event where resource_id = ? and modification = 'create' order by id`, [id]);
  return rows.map((row) => row.data);
}

const REPORTED = {
  total_roaming_amount_excl_vat: '7.25', total_roaming_flat_amount_excl_vat: '0.5', total_roaming_energy_amount_excl_vat: '5.250000',
  total_roaming_time_amount_excl_vat: '1.50', total_roaming_reservation_amount_excl_vat: '0', total_roaming_amount_incl_vat: '8.77',
  connector_format: 'CABLE', connector_standard: 'IEC_62196_T2', cpo_session_id: 'CPO-77', cpo_cdr_id: 'CDR-77', remark: 'a remark',
  total_idle_seconds: 120, power_type: 'AC_3_PHASE', unknown_member: { kept: [1, 2.50, 'x'] },
};

test('a session\'s create event holds what the GET answers right after, for every reported field and both endpoints', async (t) => {
  const msp = sessionBody('NL-EVD-C12345678-X', { ...REPORTED, total_energy_kwh: '12.3456' });
  const cpo = {
    ...sessionBody('NL-EVD-C12345678-X', { ...REPORTED, tariff_code: 'T1', total_sales_amount_excl_vat: '3.1' }),
    evse_uid: 'EVSE-EVD', cpo_id: undefined, total_energy_kwh: undefined,
    charge_periods: [
      { start_date_time: '2026-03-02T10:00:00+01:00', dimensions: [{ type: 'ENERGY', volume: '2.5' }] },
      { start_date_time: '2026-03-02T10:30:00+01:00', dimensions: [{ type: 'energy', volume: '1.250001' }] },
    ],
  };
  for (const [path, body, get] of [['/charge-session', msp, '/msp-charge-session'], ['/cpo-charge-session', cpo, '/cpo-charge-session']] as const) {
    const r = await app.request('POST', api(path), { body: JSON.parse(JSON.stringify(body)) });
    t.is(r.status, 200, JSON.stringify(r.body));
    t.deepEqual(await createData(r.body.id), [(await app.request('GET', api(`${get}/${r.body.id}`))).body], path);
  }
});

test('sessions written by one statement with a repeat: one create event each, with its own data', async (t) => {
  const bodies = Array.from({ length: 5 }, (_, i) => sessionBody('NL-EVD-C12345678-X', { total_energy_kwh: `${i + 1}.5`, ...(i === 2 ? REPORTED : {}) }));
  const answers = await Promise.all([...bodies, bodies[1]].map((body) => app.request('POST', api('/charge-session'), { body })));
  t.true(answers.every((r) => r.status === 200));
  t.is(answers[5].body.id, answers[1].body.id);
  for (const r of answers.slice(0, 5)) t.deepEqual(await createData(r.body.id), [(await app.request('GET', api(`/msp-charge-session/${r.body.id}`))).body]);
});

test('sessions of two credentials written by one statement: each create event names the credential that sent it', async (t) => {
  const [first, second] = [await app.credential({ role: 'admin' }), await app.credential({ role: 'admin' })];
  const sent = Array.from({ length: 40 }, (_, i) => ({ auth: i % 2 ? second : first, body: sessionBody('NL-EVD-C12345678-X', { total_energy_kwh: `${i + 1}.25` }) }));
  const answers = await Promise.all(sent.map(({ auth, body }) => app.request('POST', api('/charge-session'), { auth, body })));
  t.true(answers.every((r) => r.status === 200 && r.body.duplicate === false));
  const actors = await app.orm.em.fork().execute<{ resource_id: string; actor: string }[]>(
    `select resource_id, actor from svc_event where modification = 'create' and resource_id = any(?::text[])`, [`{${answers.map((r) => r.body.id).join(',')}}`]);
  const actorOf = new Map(actors.map((row) => [row.resource_id, row.actor]));
  t.deepEqual(answers.map((r) => actorOf.get(r.body.id)), sent.map(({ auth }) => auth.publicId));
});
