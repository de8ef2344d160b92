import test from 'ava';
import { type TestApp } from '../../helpers/app.ts';
import { createAdministration, createCustomer } from '../../helpers/factories.ts';
import { createArrangement, createEvse, linkEvse } from '../../helpers/cpo-factories.ts';
import { createRatePlan, ensureVatRate, pricedSubscription, startPricedApp, pricingResults, processed, sessionBody, submitSession } from '../../helpers/session-factories.ts';

let app: TestApp;
let adminId: string;
let evcoId: string;
test.before(async () => {
  ({ app, adminId, evcoId } = await startPricedApp({ plan: { use_customer_reimbursement_vat: true } }));
});
test.after.always(async () => { await app?.close(); });

const api = (path: string) => `/main/v1${path}`;

async function sessionAt(evseId: string, start = '2026-03-02T10:00:00+01:00') {
  const end = new Date(new Date(start).getTime() + 3_600_000).toISOString();
  const stored = await submitSession(app, sessionBody(evcoId, { evse_id: evseId, start_date_time: start, end_date_time: end }));
  const session = await processed(app, stored.id);
  return { session, result: session.status === 'priced' ? (await pricingResults(app, stored.id))[0] : null };
}

async function owner(reimbursementVat: string) {
  return createCustomer(app, adminId, { reimbursement_vat: reimbursementVat });
}

test('the numbered rules of "Use Customer Reimbursement VAT"', async (t) => {
  // 1. No local EVSE: normal VAT.
  const foreign = await sessionAt('DE*XYZ*E1');
  t.is(foreign.result.subtotals[0].vat_percent, '21.00');
  t.true(foreign.result.explanation.some((l: string) => l.includes('no local EVSE')));

  // 2a. Exactly one arrangement: the owner's property decides (separators of the EVSE ID are optional).
  const exemptEvse = await createEvse(app, adminId, { evse_id: 'NL*VOL*E100' });
  await linkEvse(app, (await createArrangement(app, adminId, (await owner('Exempt')).id)).id, exemptEvse.evse_uid);
  const exempt = await sessionAt('nlvole100');
  t.like(exempt.result.subtotals[0], { vat_kind: 'exempt', vat_percent: '0.00' });
  t.is(exempt.result.total_incl_vat, exempt.result.total_excl_vat);

  const appliesEvse = await createEvse(app, adminId, { evse_id: 'NL*VOL*E101' });
  await linkEvse(app, (await createArrangement(app, adminId, (await owner('Applies')).id)).id, appliesEvse.evse_uid);
  t.is((await sessionAt('NL*VOL*E101')).result.subtotals[0].vat_percent, '21.00');

  const unknownEvse = await createEvse(app, adminId, { evse_id: 'NL*VOL*E102' });
  const unknownOwner = await owner('Unknown');
  await linkEvse(app, (await createArrangement(app, adminId, unknownOwner.id)).id, unknownEvse.evse_uid);
  const unknown = await sessionAt('NL*VOL*E102');
  t.is(unknown.session.dropout_reason, 'reimbursement_vat_unknown');
  // Until the customer property is changed: then a retry prices it.
  await app.request('POST', api(`/customer/${unknownOwner.id}`), { body: { reimbursement_vat: 'Exempt' } });
  await app.request('POST', api(`/msp-dropout-case/${unknown.session.dropout_case_id}/reprocess`), { body: { instruction: 'retry' } });
  const retried = await processed(app, unknown.session.id);
  t.is(retried.status, 'priced');
  t.is((await pricingResults(app, unknown.session.id))[0].subtotals[0].vat_kind, 'exempt');

  // 2b. No arrangement: mandatory drops out, otherwise normal VAT.
  await createEvse(app, adminId, { evse_id: 'NL*VOL*E103', reimbursement_mandatory: true });
  t.is((await sessionAt('NL*VOL*E103')).session.dropout_reason, 'reimbursement_arrangement_missing');
  await createEvse(app, adminId, { evse_id: 'NL*VOL*E104' });
  t.is((await sessionAt('NL*VOL*E104')).result.subtotals[0].vat_percent, '21.00');

  // 2c. More than one: drops out.
  const twice = await createEvse(app, adminId, { evse_id: 'NL*VOL*E105' });
  await linkEvse(app, (await createArrangement(app, adminId, (await owner('Exempt')).id)).id, twice.evse_uid);
  await linkEvse(app, (await createArrangement(app, adminId, (await owner('Applies')).id)).id, twice.evse_uid);
  t.is((await sessionAt('NL*VOL*E105')).session.dropout_reason, 'multiple_reimbursement_arrangements');
});

// Found by probing: components naming their own vat_kind (reduced, standard) kept that VAT.
test('an owner exempt from VAT makes the whole session exempt, components with a vat_kind of their own too', async (t) => {
  await ensureVatRate(app, 'NL', '9', 'reduced');
  const definition = { rates: { energy: { price: '0.50', vat_kind: 'reduced' }, flat: { price: '1.00', vat_kind: 'standard' } }, rules: [] };
  const ratePlanId = await createRatePlan(app, [{ valid_from: '2025-01-01T00:00:00Z', definition }]);
  const own = await pricedSubscription(app, adminId, { ratePlanId, plan: { use_customer_reimbursement_vat: true } });
  const evse = await createEvse(app, adminId, { evse_id: 'NL*VOL*E110' });
  await linkEvse(app, (await createArrangement(app, adminId, (await owner('Exempt')).id)).id, evse.evse_uid);
  const stored = await submitSession(app, sessionBody(own.evcoId, { evse_id: 'NL*VOL*E110' }));
  t.is((await processed(app, stored.id)).status, 'priced');
  const [result] = await pricingResults(app, stored.id);
  t.deepEqual(result.subtotals.map((s: any) => `${s.kind}:${s.vat_kind}:${s.vat_percent}`), ['energy:exempt:0.00', 'flat:exempt:0.00']);
  t.is(result.total_incl_vat, result.total_excl_vat);
});

test('arrangements count when valid at the session start, bounds exact', async (t) => {
  const evse = await createEvse(app, adminId, { evse_id: 'NL*VOL*E200', reimbursement_mandatory: true });
  const arrangement = await createArrangement(app, adminId, (await owner('Exempt')).id, { valid_from: '2026-03-01T00:00:00+01:00' });
  await linkEvse(app, arrangement.id, evse.evse_uid, { valid_until: '2026-03-10T00:00:00+01:00' });
  t.is((await sessionAt('NL*VOL*E200', '2026-02-28T23:00:00+01:00')).session.dropout_reason, 'reimbursement_arrangement_missing');
  t.is((await sessionAt('NL*VOL*E200', '2026-03-01T00:00:00+01:00')).result.subtotals[0].vat_kind, 'exempt');
  t.is((await sessionAt('NL*VOL*E200', '2026-03-10T00:00:00+01:00')).session.dropout_reason, 'reimbursement_arrangement_missing');
});

test('sessions at an EVSE in safe configuration drop out and are retried when it is switched off', async (t) => {
  const evse = await createEvse(app, adminId, { evse_id: 'NL*VOL*E300' });
  const on = await app.request('PUT', api(`/cpo-evse/${evse.evse_uid}/dropout-all-chargesessions`), { body: { dropout_all_chargesessions: true } });
  t.true(on.body.dropout_all_chargesessions);
  const held = await sessionAt('NL*VOL*E300');
  t.is(held.session.dropout_reason, 'evse_dropout_all_chargesessions');
  const off = await app.request('PUT', api(`/cpo-evse/${evse.evse_uid}/dropout-all-chargesessions`), { body: { dropout_all_chargesessions: false, reprocess_dropouts: true } });
  t.false(off.body.dropout_all_chargesessions);
  t.is((await processed(app, held.session.id)).status, 'priced');
  const missing = await app.request('PUT', api(`/cpo-evse/${evse.evse_uid}/dropout-all-chargesessions`), { body: {} });
  t.is(missing.body.param, '$.dropout_all_chargesessions');
});

test('at an EVSE of another administration the owner decides all the same, but the driver\'s administration never reads who the owner is', async (t) => {
  const other = (await createAdministration(app)).id;
  const plan = { plan: { use_customer_reimbursement_vat: true } };
  const driver = await pricedSubscription(app, adminId, plan);
  const limited = await app.credential({ adminIds: [adminId] });
  const evseOf = async (evseId: string, reimbursementVat: string) => {
    const evse = await createEvse(app, other, { evse_id: evseId });
    const ownerOf = await createCustomer(app, other, { reimbursement_vat: reimbursementVat });
    const arrangement = await createArrangement(app, other, ownerOf.id);
    await linkEvse(app, arrangement.id, evse.evse_uid);
    return { evse, owner: ownerOf.id, arrangement: arrangement.id };
  };
  const exempt = await evseOf('NL*XAD*E1', 'Exempt');
  const unknown = await evseOf('NL*XAD*E2', 'Unknown');
  const submit = async (evseId: string, start: string) => {
    const r = await app.request('POST', api('/charge-session'), { auth: limited, body: sessionBody(driver.evcoId, {
      evse_id: evseId, start_date_time: start, end_date_time: new Date(new Date(start).getTime() + 3_600_000).toISOString(),
    }) });
    t.is(r.status, 200, JSON.stringify(r.body));
    return processed(app, r.body.id);
  };

  const priced = await submit('NL*XAD*E1', '2026-03-05T10:00:00+01:00');
  const [result] = (await app.request('GET', api(`/msp-charge-session-priced?charge_session_id=${priced.id}`), { auth: limited })).body.items;
  t.like(result.subtotals[0], { vat_kind: 'exempt', vat_percent: '0.00' });
  t.true(result.explanation.some((line: string) => line.includes('owner of EVSE')));
  const dropped = await submit('NL*XAD*E2', '2026-03-05T12:00:00+01:00');
  t.is(dropped.dropout_reason, 'reimbursement_vat_unknown');
  const dropoutCase = (await app.request('GET', api(`/msp-dropout-case/${dropped.dropout_case_id}`), { auth: limited })).body;
  const read = JSON.stringify([result, dropped, dropoutCase]);
  t.deepEqual([exempt.owner, exempt.arrangement, unknown.owner, unknown.arrangement, other].filter((id) => read.includes(id)), [],
    'no id of the other administration in what the driver\'s administration reads');
});
