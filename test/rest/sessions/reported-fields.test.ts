// What the sender reports with a session comes back with it: the roaming split of the public
// integration guide, connector_format, and one cpo_session_id in every representation.
import test from 'ava';
import { startTestApp, type TestApp } from '../../helpers/app.ts';
import { createAdministration } from '../../helpers/factories.ts';
import { pricedSubscription, pricingResults, processed, sessionBody } from '../../helpers/session-factories.ts';
import { cpoSessionBody, createLocatedEvse, settledCpoSession } from '../../helpers/cpo-factories.ts';

let app: TestApp;
let evcoId: string;
let adminId: string;
test.before(async () => {
  app = await startTestApp();
  adminId = (await createAdministration(app)).id;
  ({ evcoId } = await pricedSubscription(app, adminId));
});
test.after.always(async () => { await app?.close(); });

const api = (path: string) => `/main/v1${path}`;

const ROAMING = {
  total_roaming_amount_excl_vat: '7.25',
  total_roaming_flat_amount_excl_vat: '0.5',
  total_roaming_energy_amount_excl_vat: '5.250000',
  total_roaming_time_amount_excl_vat: '1.50',
  total_roaming_reservation_amount_excl_vat: '0',
  total_roaming_amount_incl_vat: '8.77',
};

test('the roaming split, session_id and connector_format are known fields, stored and returned with the session', async (t) => {
  const body = sessionBody(evcoId, { ...ROAMING, connector_format: 'CABLE' });
  const r = await app.request('POST', api('/charge-session'), { body });
  t.is(r.status, 200, JSON.stringify(r.body));
  t.is(r.headers.get('x-svc-unknown-fields'), null);
  await processed(app, r.body.id);
  const expected = {
    session_id: body.session_id,
    connector_format: 'cable',
    total_roaming_amount_excl_vat: '7.25',
    total_roaming_flat_amount_excl_vat: '0.50',
    total_roaming_energy_amount_excl_vat: '5.25',
    total_roaming_time_amount_excl_vat: '1.50',
    total_roaming_reservation_amount_excl_vat: '0.00',
    total_roaming_amount_incl_vat: '8.77',
  };
  t.like((await app.request('GET', api(`/msp-charge-session/${r.body.id}`))).body, expected);
  const list = await app.request('GET', api('/msp-charge-session?page_size=1000'));
  t.like(list.body.items.find((s: { id: string }) => s.id === r.body.id), expected);
  const original = await app.request('GET', api(`/msp-charge-session-original/${r.body.id}`));
  t.is(original.body.body.total_roaming_energy_amount_excl_vat, '5.250000', 'the body is kept exactly as received');
});

test('a session without them answers null; the deprecated total_cost names fill the current ones', async (t) => {
  const plain = await app.request('POST', api('/charge-session'), { body: sessionBody(evcoId) });
  const session = (await app.request('GET', api(`/msp-charge-session/${plain.body.id}`))).body;
  for (const name of Object.keys(ROAMING)) t.is(session[name], null, name);
  t.is(session.connector_format, null);
  const old = await app.request('POST', api('/charge-session'), { body: sessionBody(evcoId, { total_cost_excl_vat: '2.1', total_cost_incl_vat: '2.54' }) });
  t.like((await app.request('GET', api(`/msp-charge-session/${old.body.id}`))).body, {
    total_roaming_amount_excl_vat: '2.10', total_roaming_amount_incl_vat: '2.54',
  });
});

test('fields the endpoint does not know are not shown: a CPO session reports its roaming total, not the split', async (t) => {
  const body = { ...sessionBody(evcoId), evse_uid: `EVSE-F-${Date.now()}`, total_roaming_amount_excl_vat: '3.0', total_roaming_flat_amount_excl_vat: '1.00',
    cpo_session_id: 'X-1' };
  const r = await app.request('POST', api('/cpo-charge-session'), { body });
  const unknown = r.headers.get('x-svc-unknown-fields') ?? '';
  t.regex(unknown, /\$\.total_roaming_flat_amount_excl_vat/);
  t.notRegex(unknown, /\$\.total_roaming_amount_excl_vat/);
  const cpo = (await app.request('GET', api(`/cpo-charge-session/${r.body.id}`))).body;
  t.like(cpo, { total_roaming_amount_excl_vat: '3.00', total_sales_amount_excl_vat: '3.00', total_roaming_flat_amount_excl_vat: null });
  t.is(cpo.cpo_session_id, body.session_id);
});

test('cpo_session_id is the same in the session and in its pricing result', async (t) => {
  const named = sessionBody(evcoId, { cpo_session_id: 'CPO-SESSION-77' });
  const unnamed = sessionBody(evcoId);
  for (const [body, expected] of [[named, 'CPO-SESSION-77'], [unnamed, unnamed.session_id]] as const) {
    const r = await app.request('POST', api('/charge-session'), { body });
    const session = await processed(app, r.body.id);
    const [result] = await pricingResults(app, r.body.id);
    t.is(session.cpo_session_id, expected);
    t.is(result.cpo_session_id, expected);
    t.is((await app.request('GET', api(`/msp-charge-session-priced/${result.id}`))).body.cpo_session_id, expected);
  }
});

test('the lists read only the reported fields of each body and answer what the single reads (the whole body) answer', async (t) => {
  // Their energy is the body's total_energy_kwh (10): a total other than the periods' is refused.
  const periods = [{ start_date_time: '2026-03-01T10:00:00Z', dimensions: [{ type: 'ENERGY', volume: '3.5' }] },
    { start_date_time: '2026-03-01T10:30:00Z', dimensions: [{ type: 'energy', volume: '6.5' }] }];
  const msp = [
    sessionBody(evcoId, { ...ROAMING, connector_format: 'Socket', cpo_session_id: 'LIST-1', cpo_cdr_id: 'CDR-1', remark: 'r', tariff_code: 'T1',
      address: { street: 'Oudegracht 1', city: 'Utrecht', country: 'nl' }, charge_periods: periods, auth_ref: 'A-1' }),
    sessionBody(evcoId, { total_cost_excl_vat: '2.1', total_cost_incl_vat: '2.54', cpo_session_id: '', connector_standard: 'IEC_62196_T2' }),
    sessionBody(evcoId, { address: { city: 'Zeist', country: 'NL' }, unknown_member: { kept: true } }),
  ];
  const ids: string[] = [];
  for (const body of msp) {
    const r = await app.request('POST', api('/charge-session'), { body });
    t.is(r.status, 200, JSON.stringify(r.body));
    ids.push(r.body.id);
  }
  const evse = await createLocatedEvse(app, adminId);
  const cpoBody = cpoSessionBody(evse.evse_uid, { charge_periods: periods, tariff_code: 'CPO-T', total_sales_amount_excl_vat: '4.5', remark: 'cpo' });
  const cpoPost = await app.request('POST', api('/cpo-charge-session'), { body: cpoBody });
  t.is(cpoPost.status, 200, JSON.stringify(cpoPost.body));
  const cpoId = cpoPost.body.id;
  await settledCpoSession(app, cpoId);
  // The worker may take a session on between two reads: what processing changes is left out.
  const PROCESSING = ['status', 'updated_at', 'pricing_version', 'dropout_case_id', 'dropout_reason', 'dropout_message', 'admin_id', 'customer_id',
    'subscription_id', 'calculated_roaming_amount_excl_vat', 'calculated_roaming_amount_incl_vat', 'roaming_agreement_id', 'match_attempts',
    'next_match_attempt_at', 'location_id', 'connector_id', 'total_reimbursement_amount_excl_vat', 'roaming_partner_id', 'roaming_amount_difference'];
  const reported = (session: Record<string, unknown> | undefined) => Object.fromEntries(Object.entries(session ?? {}).filter(([name]) => !PROCESSING.includes(name)));
  const mspList = (await app.request('GET', api('/msp-charge-session?page_size=1000'))).body.items as { id: string }[];
  for (const id of [...ids, cpoId]) {
    t.deepEqual(reported(mspList.find((s) => s.id === id)), reported((await app.request('GET', api(`/msp-charge-session/${id}`))).body), id);
  }
  const cpoList = (await app.request('GET', api('/cpo-charge-session?page_size=1000'))).body.items as { id: string }[];
  const cpo = (await app.request('GET', api(`/cpo-charge-session/${cpoId}`))).body;
  t.is(cpo.charge_periods.length, 2);
  t.is(cpo.tariff_code, 'CPO-T');
  t.deepEqual(reported(cpoList.find((s) => s.id === cpoId)), reported(cpo));
  const original = (await app.request('GET', api('/msp-charge-session-original?page_size=1000'))).body.items.find((s: { id: string }) => s.id === ids[0]);
  t.deepEqual(original.body.charge_periods, periods, 'the original list reads the whole body');
});

test('charge period starts are answered as every timestamp, in UTC with milliseconds; the original keeps the sender\'s text', async (t) => {
  // Shared decisions, "Identifiers and time": input accepts any offset; output is UTC with `Z` and milliseconds.
  const sent = '2026-03-02T10:00:00.123456+01:00';
  const evse = await createLocatedEvse(app, adminId);
  const body = cpoSessionBody(evse.evse_uid, { total_energy_kwh: undefined, charge_periods: [{ start_date_time: sent, dimensions: [{ type: 'energy', volume: '10' }] }] });
  const r = await app.request('POST', api('/cpo-charge-session'), { body });
  t.is(r.status, 200, JSON.stringify(r.body));
  await settledCpoSession(app, r.body.id);
  const single = (await app.request('GET', api(`/cpo-charge-session/${r.body.id}`))).body;
  t.is(single.charge_periods[0].start_date_time, '2026-03-02T09:00:00.123Z');
  const listed = (await app.request('GET', api('/cpo-charge-session?page_size=1000'))).body.items.find((s: { id: string }) => s.id === r.body.id);
  t.is(listed.charge_periods[0].start_date_time, '2026-03-02T09:00:00.123Z');
  const original = (await app.request('GET', api(`/msp-charge-session-original/${r.body.id}`))).body;
  t.is(original.body.charge_periods[0].start_date_time, sent);
});
