// CPO sessions through the pipeline over HTTP: matching with retries and drop-outs, the
// dropout-all switch, and the reimbursement of EVSE owners (plans, inputs, VAT property).
import test from 'ava';

process.env.SVC_MATCH_RETRIES = '2';
process.env.SVC_MATCH_RETRY_SECONDS = '0.2';

const { startTestApp } = await import('../../helpers/app.ts');
const { createAdministration, createCustomer, createSubscriptionPlan, createTokenSubscription, insertToken, insertTokenLink } = await import('../../helpers/factories.ts');
const { ensureVatRate, pricedSubscription, pricingResults: resultsOf, processed, sessionBody, submitSession } = await import('../../helpers/session-factories.ts');
const { default: pg } = await import('pg');
const { configureBilling, createSeries } = await import('../../helpers/billing-factories.ts');
const { cpoSessionBody, createArrangement, createLocatedEvse, createLocation, createReimbursementPlan, createEvse, linkEvse, reimburseEvse } = await import('../../helpers/cpo-factories.ts');
type TestApp = Awaited<ReturnType<typeof startTestApp>>;

let app: TestApp;
let admin: string;
test.before(async () => {
  app = await startTestApp();
  admin = (await createAdministration(app)).id;
  await ensureVatRate(app);
});
test.after.always(async () => { await app?.close(); });

const api = (path: string) => `/main/v1${path}`;

async function ok(method: string, path: string, body?: unknown) {
  const r = await app.request(method, api(path), body === undefined ? {} : { body });
  if (r.status !== 200) throw new Error(`${method} ${path}: ${r.status} ${JSON.stringify(r.body)}`);
  return r.body;
}

/** Polls the CPO session until processing is done with it (not waiting for a matching attempt). */
async function settled(id: string, timeoutMs = 20_000) {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const session = await ok('GET', `/cpo-charge-session/${id}`);
    if (session.status !== 'received') return session;
    if (Date.now() > until) throw new Error(`session ${id} not processed: ${JSON.stringify(session)}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

async function processCpoSession(evseUid: string, overrides: Record<string, unknown> = {}) {
  const stored = await submitSession(app, cpoSessionBody(evseUid, overrides), api('/cpo-charge-session'));
  return settled(stored.id);
}

const reimbursementsOf = async (sessionId: string) => (await ok('GET', `/cpo-charge-session-reimbursement?charge_session_id=${sessionId}`)).items;
const pricingResults = (sessionId: string) => resultsOf(app, sessionId);

/** The events recorded of a resource, with the data they deliver (read from the outbox). */
/** An EVSE of the administration whose owner (VAT Applies) is reimbursed 0.10 a kWh. */
async function reimbursedEvse() {
  const evse = await createLocatedEvse(app, admin);
  const owner = await createCustomer(app, admin, { reimbursement_vat: 'Applies' });
  const plan = await createReimbursementPlan(app, admin, {}, { energy: '0.10' });
  await reimburseEvse(app, admin, owner.id, plan.id, evse.evse_uid);
  return evse;
}

async function eventsOf(resourceId: string): Promise<{ kind: string; admin_id: string | null; data: any }[]> {
  const client = new pg.Client({ connectionString: app.databaseUrl });
  await client.connect();
  try {
    return (await client.query(`select kind, admin_id::text, data from svc_event where resource_id = $1 and modification = 'update' order by id`, [resourceId])).rows;
  } finally { await client.end(); }
}

test('an unknown EVSE is retried with back-off, then drops out; after the EVSE appears, reprocessing matches it', async (t) => {
  const uid = `LATE-${Date.now()}`;
  const stored = await submitSession(app, cpoSessionBody(uid, { connector_id: '1' }), api('/cpo-charge-session'));
  const waiting = await ok('GET', `/cpo-charge-session/${stored.id}`);
  t.is(waiting.status, 'received');
  const dropped = await settled(stored.id);
  t.like(dropped, { status: 'dropout', dropout_reason: 'evse_not_found', match_attempts: 3, total_reimbursement_amount_excl_vat: null });
  const cases = (await ok('GET', `/cpo-dropout-case?reason=evse_not_found&evse_uid=${uid}`)).items;
  t.is(cases.length, 1);
  t.like(cases[0], { evse_uid: uid, status: 'open', session_count: 1 });
  t.is((await app.request('GET', api(`/msp-dropout-case/${cases[0].id}`))).body.code, 'not_found', 'a CPO case is not an MSP case');
  t.false((await ok('GET', '/msp-dropout-case?reason=evse_not_found')).items.some((c: any) => c.id === cases[0].id));

  const location = await createLocation(app, admin);
  await createEvse(app, admin, { evse_uid: uid, location_id: location.location_id, connectors: [{ id: '1', standard: 'IEC_62196_T2' }, { id: '2', standard: 'CHADEMO' }] });
  const resolved = await ok('POST', `/cpo-dropout-case/${cases[0].id}/reprocess`, { instruction: 'retry' });
  t.is(resolved.status, 'resolved');
  const matched = await settled(stored.id);
  t.like(matched, { status: 'processed', location_id: location.location_id, connector_id: '1', admin_id: admin });
  const listed = (await ok('GET', `/cpo-charge-session?location_id=${location.location_id}&status=processed`)).items;
  t.deepEqual(listed.map((s: any) => s.id), [stored.id]);
});

test('a connector or location the EVSE does not have drops out with that reason', async (t) => {
  const evse = await createLocatedEvse(app, admin);
  const connector = await processCpoSession(evse.evse_uid, { connector_id: '9' });
  t.like(connector, { status: 'dropout', dropout_reason: 'connector_not_found' });
  const location = await processCpoSession(evse.evse_uid, { location_id: 'ELSEWHERE' });
  t.like(location, { status: 'dropout', dropout_reason: 'location_not_found' });
  const byStandard = await processCpoSession(evse.evse_uid, { connector_standard: 'IEC_62196_T2' });
  t.like(byStandard, { status: 'processed', connector_id: '1' });
  const bare = await createEvse(app, admin);
  t.like(await processCpoSession(bare.evse_uid), { status: 'dropout', dropout_reason: 'location_not_found' });
});

test('dropout_all_chargesessions: sessions drop out while it is on; switching it off with reprocess_dropouts processes them', async (t) => {
  const evse = await createLocatedEvse(app, admin, { dropout_all_chargesessions: true });
  const first = await processCpoSession(evse.evse_uid);
  const second = await processCpoSession(evse.evse_uid);
  t.like(first, { status: 'dropout', dropout_reason: 'evse_dropout_all_chargesessions' });
  t.is(second.dropout_case_id, first.dropout_case_id);
  const dropoutCase = await ok('GET', `/cpo-dropout-case/${first.dropout_case_id}`);
  t.like(dropoutCase, { evse_uid: evse.evse_uid, session_count: 2 });
  await ok('PUT', `/cpo-evse/${evse.evse_uid}/dropout-all-chargesessions`, { dropout_all_chargesessions: false, reprocess_dropouts: true });
  t.is((await settled(first.id)).status, 'processed');
  t.is((await settled(second.id)).status, 'processed');
});

// Found by probing (2026-11-29): the EVSE's cases were found by LIKE on the uid, whose `_` matched any
// character: switching P_1 off retried PX1's cases, which its operator held back.
test('switching one EVSE off with reprocess_dropouts retries its own cases only, whatever its uid holds', async (t) => {
  const n = process.pid % 10_000;
  const wild = await createLocatedEvse(app, admin, { evse_uid: `W_${n}`, dropout_all_chargesessions: true });
  const other = await createLocatedEvse(app, admin, { evse_uid: `WX${n}`, dropout_all_chargesessions: true });
  const held = await processCpoSession(other.evse_uid);
  const retried = await processCpoSession(wild.evse_uid);
  t.like(held, { status: 'dropout', dropout_reason: 'evse_dropout_all_chargesessions' });
  await ok('PUT', `/cpo-evse/${other.evse_uid}/dropout-all-chargesessions`, { dropout_all_chargesessions: false, reprocess_dropouts: false });
  await ok('PUT', `/cpo-evse/${wild.evse_uid}/dropout-all-chargesessions`, { dropout_all_chargesessions: false, reprocess_dropouts: true });
  t.is((await settled(retried.id)).status, 'processed');
  t.like(await ok('GET', `/cpo-dropout-case/${held.dropout_case_id}`), { status: 'open', session_count: 1 });
  t.is((await ok('GET', `/cpo-charge-session/${held.id}`)).status, 'dropout');
});

// Found by probing (2026-11-29): a processing batch that had read the switch as on before it went off
// dropped its sessions out after the switch's retry had run, into a case nothing retried. The test
// holds the batch before it writes its case (a trigger waiting on the test's advisory lock) and
// switches the EVSE off meanwhile.
test('a batch that read dropout_all_chargesessions as on holds the EVSE: its switch-off waits, then retries what the batch dropped out', async (t) => {
  const evse = await createLocatedEvse(app, admin, { dropout_all_chargesessions: true });
  const db = new pg.Client({ connectionString: app.databaseUrl });
  await db.connect();
  const hold = 736_499_001;
  const trigger = `hold_case_${process.pid}`;
  t.teardown(async () => {
    await db.query(`drop trigger if exists ${trigger} on msp_dropout_case`);
    await db.end();
  });
  await db.query('select pg_advisory_lock($1)', [hold]);
  await db.query(`create function ${trigger}() returns trigger language plpgsql as $$ begin
      if new.group_key like '%|' || '${evse.evse_uid}' then perform pg_advisory_xact_lock(${hold}); end if; return new; end $$`);
  await db.query(`create trigger ${trigger} before insert on msp_dropout_case for each row execute function ${trigger}()`);
  const waiting = async (condition: string) => (await db.query(`select count(*)::int as n from pg_stat_activity
    where datname = current_database() and pid <> pg_backend_pid() and wait_event_type = 'Lock' and ${condition}`)).rows[0].n > 0;
  const until = async (done: () => Promise<boolean>) => {
    for (const end = Date.now() + 10_000; !await done();) {
      if (Date.now() > end) throw new Error('never came');
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  };
  const stored = await submitSession(app, cpoSessionBody(evse.evse_uid), api('/cpo-charge-session'));
  await until(() => waiting(`wait_event = 'advisory'`));
  let answered = false;
  const off = app.request('PUT', api(`/cpo-evse/${evse.evse_uid}/dropout-all-chargesessions`), { body: { dropout_all_chargesessions: false, reprocess_dropouts: true } })
    .finally(() => { answered = true; });
  // The switch waits for the batch's hold on the EVSE (or, without it, has answered).
  await until(async () => answered || waiting(`wait_event <> 'advisory' and query ilike '%evse%'`));
  await db.query('select pg_advisory_unlock($1)', [hold]);
  t.is((await off).status, 200);
  t.is((await settled(stored.id)).status, 'processed');
});

test('the arrangement\'s input wins over the plan\'s from its valid_from; VAT Applies adds the standard rate', async (t) => {
  const evse = await createLocatedEvse(app, admin);
  const owner = await createCustomer(app, admin, { reimbursement_vat: 'Applies' });
  const plan = await createReimbursementPlan(app, admin, { components: ['energy', 'flat'] }, { energy: '0.20', flat: '0.50' });
  const arrangement = await reimburseEvse(app, admin, owner.id, plan.id, evse.evse_uid);
  await ok('PUT', `/cpo-reimbursement-arrangement/${arrangement.id}/calculation-input/2026-03-01/energy`, { value: '0.30' });

  const february = await processCpoSession(evse.evse_uid, { start_date_time: '2026-02-15T10:00:00+01:00', end_date_time: '2026-02-15T11:00:00+01:00' });
  const march = await processCpoSession(evse.evse_uid, { start_date_time: '2026-03-15T10:00:00+01:00', end_date_time: '2026-03-15T11:00:00+01:00' });
  t.is(february.total_reimbursement_amount_excl_vat, '2.50', '10 kWh × 0.20 (plan) + 0.50');
  t.is(march.total_reimbursement_amount_excl_vat, '3.50', '10 kWh × 0.30 (arrangement from March) + 0.50');
  const [record] = await reimbursementsOf(march.id);
  t.like(record, {
    arrangement_id: arrangement.id, customer_id: owner.id, admin_id: admin, currency_code: 'EUR', total_amount_excl_vat: '3.50',
    total_vat_amount: '0.74', total_amount_incl_vat: '4.24', vat_kind: 'standard', vat_percentage: '21.00', vat_country: 'NL', version: 1,
  });
  t.like(record.evse, { evse_uid: evse.evse_uid, location_id: evse.location_id, connector_id: '1' });
  t.deepEqual(record.subtotals.map((s: any) => [s.kind, s.rate, s.amount_excl_vat]), [['energy', '0.30', '3.00'], ['flat', '0.50', '0.50']]);
  t.deepEqual(await ok('GET', `/cpo-charge-session-reimbursement/${record.id}`), record);
});

test('two arrangements on one EVSE each reimburse; Exempt is 0 % exempt; Unknown drops out until the property is set', async (t) => {
  const evse = await createLocatedEvse(app, admin);
  const exempt = await createCustomer(app, admin, { reimbursement_vat: 'Exempt' });
  const unknown = await createCustomer(app, admin, { reimbursement_vat: 'Unknown' });
  const plan = await createReimbursementPlan(app, admin, {}, { energy: '0.10' });
  await reimburseEvse(app, admin, exempt.id, plan.id, evse.evse_uid);
  await reimburseEvse(app, admin, unknown.id, plan.id, evse.evse_uid);
  const dropped = await processCpoSession(evse.evse_uid);
  t.like(dropped, { status: 'dropout', dropout_reason: 'reimbursement_vat_unknown' });
  t.deepEqual(await reimbursementsOf(dropped.id), []);
  await ok('POST', `/customer/${unknown.id}`, { reimbursement_vat: 'Applies' });
  await ok('POST', `/cpo-dropout-case/${dropped.dropout_case_id}/reprocess`, { instruction: 'retry' });
  const session = await settled(dropped.id);
  t.is(session.status, 'processed');
  const records = await reimbursementsOf(session.id);
  t.deepEqual(records.map((r: any) => [r.customer_id, r.vat_kind, r.vat_percentage, r.total_amount_excl_vat, r.total_amount_incl_vat]).sort(), [
    [exempt.id, 'exempt', '0.00', '1.00', '1.00'], [unknown.id, 'standard', '21.00', '1.00', '1.21'],
  ].sort());
  t.is(session.total_reimbursement_amount_excl_vat, '2.00');
});

test('a defunct arrangement (its links defunct too) reimburses no later session; a mandatory EVSE then drops out', async (t) => {
  const evse = await createLocatedEvse(app, admin);
  const owner = await createCustomer(app, admin, { reimbursement_vat: 'Applies' });
  const plan = await createReimbursementPlan(app, admin, {}, { energy: '0.10' });
  const arrangement = await reimburseEvse(app, admin, owner.id, plan.id, evse.evse_uid);
  t.is((await processCpoSession(evse.evse_uid)).total_reimbursement_amount_excl_vat, '1.00');
  await ok('PUT', `/cpo-reimbursement-arrangement/${arrangement.id}/defunct`);
  const links = (await ok('GET', `/cpo-reimbursement-link?arrangement_id=${arrangement.id}`)).items;
  t.true(links.length > 0 && links.every((l: any) => l.defunct));
  const later = await processCpoSession(evse.evse_uid);
  t.like(later, { status: 'processed', total_reimbursement_amount_excl_vat: null });
  await ok('POST', `/cpo-evse/${evse.evse_uid}`, { reimbursement_mandatory: true });
  t.like(await processCpoSession(evse.evse_uid), { status: 'dropout', dropout_reason: 'reimbursement_arrangement_missing' });
});

test('plans in mode cpms_supplied take the reported amount; custom variables and a plan script price with the core', async (t) => {
  const evse = await createLocatedEvse(app, admin);
  const owner = await createCustomer(app, admin, { reimbursement_vat: 'Exempt' });
  const supplied = await createReimbursementPlan(app, admin, { mode: 'cpms_supplied' });
  await reimburseEvse(app, admin, owner.id, supplied.id, evse.evse_uid);
  t.is((await processCpoSession(evse.evse_uid, { total_reimbursement_amount_excl_vat: '4.321' })).total_reimbursement_amount_excl_vat, '4.32');
  t.like(await processCpoSession(evse.evse_uid), { status: 'dropout', dropout_reason: 'reimbursement_amount_missing' });
  // Found by probing (2026-11-29): a second owner's cpms_supplied arrangement on the EVSE was paid the
  // CPMS amount too (20.00 for the 10.00 reported). It drops out for the operator to say whose it is.
  const coOwner = await createCustomer(app, admin, { reimbursement_vat: 'Exempt' });
  await reimburseEvse(app, admin, coOwner.id, supplied.id, evse.evse_uid);
  t.like(await processCpoSession(evse.evse_uid, { total_reimbursement_amount_excl_vat: '10.00' }),
    { status: 'dropout', dropout_reason: 'reimbursement_failed', total_reimbursement_amount_excl_vat: null });

  const other = await createLocatedEvse(app, admin);
  const custom = await createReimbursementPlan(app, admin, { components: ['energy', 'custom'] }, { energy: '0.10', 'custom:grid_fee': '0.75' });
  await reimburseEvse(app, admin, owner.id, custom.id, other.evse_uid);
  const withVariable = await processCpoSession(other.evse_uid);
  t.is(withVariable.total_reimbursement_amount_excl_vat, '1.75');
  const [record] = await reimbursementsOf(withVariable.id);
  t.deepEqual(record.subtotals.map((s: any) => [s.kind, s.component ?? null, s.amount_excl_vat]), [['energy', null, '1.00'], ['other', 'grid_fee', '0.75']]);

  const scripted = await createLocatedEvse(app, admin);
  const script = 'return { subtotals: [{ component: "bonus", label: "Bonus", amount_excl_vat: dec.mul(input.energy_kwh, input.variables.per_kwh) }] };';
  const plan = await createReimbursementPlan(app, admin, { components: ['flat'], script }, { flat: '0.25', 'custom:per_kwh': '0.05' });
  await reimburseEvse(app, admin, owner.id, plan.id, scripted.evse_uid);
  t.is((await processCpoSession(scripted.evse_uid)).total_reimbursement_amount_excl_vat, '0.75', '0.25 + 10 kWh × 0.05');
  const bad = await app.request('POST', api(`/cpo-reimbursement-plan/${plan.id}`), { body: { script: 'return {' } });
  t.is(bad.body.param, '$.script');
  // Found by probing (2026-11-29): a blank script ran as one returning nothing: the custom variables went unpaid.
  for (const blank of ['', '   ', '\n']) {
    const refused = await app.request('POST', api(`/cpo-reimbursement-plan/${custom.id}`), { body: { script: blank } });
    t.like(refused.body, { code: 'invalid_input', param: '$.script' }, JSON.stringify(blank));
  }
});

test('a driver of our own is priced on the MSP side as well; another administration sees none of the CPO side', async (t) => {
  const evse = await reimbursedEvse();
  const driver = await pricedSubscription(app, admin);
  const session = await processCpoSession(evse.evse_uid, { evco_id: driver.evcoId });
  t.like(session, { status: 'priced', total_reimbursement_amount_excl_vat: '1.00' });

  const other = (await createAdministration(app)).id;
  const stranger = await app.credential({ role: 'admin', adminIds: [other] });
  const as = (path: string) => app.request('GET', api(path), { auth: stranger });
  t.deepEqual((await as('/cpo-charge-session-reimbursement')).body.items, []);
  t.deepEqual((await as('/cpo-dropout-case')).body.items, []);
  t.is((await as(`/cpo-charge-session/${session.id}`)).body.code, 'not_found');
  const [record] = await reimbursementsOf(session.id);
  t.is((await as(`/cpo-charge-session-reimbursement/${record.id}`)).body.code, 'not_found');
});

// Found by probing: the owner's reimbursement was withheld while the driver's side sat in a drop-out
// case, and never made when that case was discarded.
test('a driver of our own whose pricing drops out: the EVSE owner is reimbursed all the same, also once the case is discarded', async (t) => {
  const evse = await reimbursedEvse();
  // Our driver, on a subscription plan without a rate plan: the MSP side drops out (rate_plan_missing).
  const msPlan = await createSubscriptionPlan(app, admin);
  const subscription = await createTokenSubscription(app, admin, { plan_id: msPlan.id });
  const token = await insertToken(app, admin);
  await insertTokenLink(app, admin, subscription.id, token.id);
  const session = await processCpoSession(evse.evse_uid, { evco_id: token.evcoId });
  t.like(session, { status: 'dropout', dropout_reason: 'rate_plan_missing', total_reimbursement_amount_excl_vat: '1.00' });
  t.is((await reimbursementsOf(session.id)).length, 1);
  // A retry processes it again: the same amounts, one record.
  await ok('POST', `/msp-dropout-case/${session.dropout_case_id}/reprocess`, { instruction: 'retry' });
  const retried = await settled(session.id);
  t.like(retried, { status: 'dropout', dropout_reason: 'rate_plan_missing' });
  await ok('POST', `/msp-dropout-case/${retried.dropout_case_id}/reprocess`, { instruction: 'discard' });
  const [record, ...more] = await reimbursementsOf(session.id);
  t.is(more.length, 0);
  t.like(record, { total_amount_excl_vat: '1.00' });
  t.is((await ok('GET', `/cpo-charge-session/${session.id}`)).status, 'discarded');
});

// Found by probing: a session reprocessed into a drop-out of the CPO side kept its earlier
// reimbursement record and stayed billed to the owner, also once discarded; a reprocessing that
// changed no amount made a new version (the stored subtotals compared as text, their keys in jsonb's
// order), so a closed box got a reversal and the same line again; a custom variable named as PUT
// accepted it (GridFee) dropped every session of the plan out.
test('a reprocessed session that drops out on the CPO side loses its reimbursement; an unchanged one keeps its version', async (t) => {
  const admin2 = (await createAdministration(app)).id;
  await configureBilling(app, admin2);
  const series = await createSeries(app, admin2, { primary_document_type: 'self_billing_invoice', item_sources: ['cpo_reimbursement'] });
  const owner = await createCustomer(app, admin2, { reimbursement_vat: 'Applies' });
  const evse = await createLocatedEvse(app, admin2);
  const plan = await createReimbursementPlan(app, admin2, { components: ['energy', 'flat'] }, { energy: '0.20', flat: '0.35' });
  await reimburseEvse(app, admin2, owner.id, plan.id, evse.evse_uid);
  const reprice = async (id: string) => { await ok('POST', `/msp-charge-session/${id}/reprice`); return settled(id); };
  const billed = async () => {
    const boxes = (await ok('GET', `/billing-box?series_external_reference=${series.external_reference}`)).items as { id: string; state: string }[];
    const lines: string[] = [];
    for (const box of boxes) for (const item of (await ok('GET', `/billing-box/${box.id}/cpo-charge-session-reimbursement`)).items) lines.push(`${box.state} ${item.entry} ${item.amount_excl_vat}`);
    return lines.sort();
  };
  const done = await processCpoSession(evse.evse_uid);
  t.is(done.total_reimbursement_amount_excl_vat, '2.35');
  const [box] = (await ok('GET', `/billing-box?series_external_reference=${series.external_reference}`)).items;
  await ok('POST', `/billing-box/${box.id}/close`);
  t.is((await reprice(done.id)).total_reimbursement_amount_excl_vat, '2.35');
  t.is((await reimbursementsOf(done.id))[0].version, 1, 'the same amounts: the same version');
  t.deepEqual(await billed(), ['closed original -2.35'], 'nothing billed again');

  await ok('POST', `/customer/${owner.id}`, { reimbursement_vat: 'Unknown' });
  const dropped = await reprice(done.id);
  t.like(dropped, { status: 'dropout', dropout_reason: 'reimbursement_vat_unknown', total_reimbursement_amount_excl_vat: null });
  t.deepEqual(await reimbursementsOf(done.id), []);
  t.deepEqual(await billed(), ['closed original -2.35', 'open reversal 2.35'], 'reversed in the owner\'s next open box');
  await ok('POST', `/cpo-dropout-case/${dropped.dropout_case_id}/reprocess`, { instruction: 'discard' });
  t.deepEqual(await billed(), ['closed original -2.35', 'open reversal 2.35']);

  const custom = await app.request('PUT', api(`/cpo-reimbursement-plan/${plan.id}/calculation-input/2026-01-01/custom/GridFee`), { body: { value: '0.75' } });
  t.is(custom.status, 400, 'a name no subtotal may have');
  t.is((await app.request('PUT', api(`/cpo-reimbursement-plan/${plan.id}/calculation-input/2026-01-01/custom/grid_fee`), { body: { value: '0.75' } })).status, 200);
});

test('bad filters are 400 naming the query parameter', async (t) => {
  for (const [path, param] of [
    ['/cpo-charge-session-reimbursement?charge_session_id=nope', 'charge_session_id'],
    ['/cpo-charge-session?start_from=2026-13-01T00:00:00Z', 'start_from'],
    ['/cpo-charge-session?status=lost', 'status'],
    ['/cpo-dropout-case?status=lost', 'status'],
  ]) {
    const r = await app.request('GET', api(path));
    t.is(r.status, 400, path);
    t.is(r.body.query_param, param, path);
  }
  t.is((await app.request('POST', api('/cpo-dropout-case/0190a0b0-0000-7000-8000-000000000000/reprocess'), { body: { instruction: 'retry' } })).body.code, 'not_found');
});

test('GraphQL reads the same records, CPO sessions and CPO cases as REST', async (t) => {
  const { data } = await import('../../schema/graphql.ts');
  const evse = await createLocatedEvse(app, admin);
  const owner = await createCustomer(app, admin, { reimbursement_vat: 'Applies' });
  const plan = await createReimbursementPlan(app, admin, {}, { energy: '0.15' });
  await reimburseEvse(app, admin, owner.id, plan.id, evse.evse_uid);
  const session = await processCpoSession(evse.evse_uid);
  const [record] = await reimbursementsOf(session.id);
  const answer = await data(app, `query ($sid: ID, $uid: String) {
    cpoChargeSessionReimbursements(chargeSessionId: $sid, first: 10) { edges { node { databaseId totalAmountExclVat totalAmountInclVat vatKind customerId evse { evseUid evseId locationId connectorId address { street city postalCode country } } } } }
    chargeSessions(cpo: true, evseUid: $uid, first: 10) { edges { node { databaseId status locationId connectorId totalReimbursementAmountExclVat } } }
  }`, { sid: session.id, uid: evse.evse_uid });
  t.deepEqual(answer.cpoChargeSessionReimbursements.edges.map((e: any) => e.node), [{
    databaseId: record.id, totalAmountExclVat: record.total_amount_excl_vat, totalAmountInclVat: record.total_amount_incl_vat,
    vatKind: record.vat_kind, customerId: owner.id,
    evse: {
      evseUid: record.evse.evse_uid, evseId: record.evse.evse_id ?? null, locationId: record.evse.location_id ?? null, connectorId: record.evse.connector_id ?? null,
      address: record.evse.address ? {
        street: record.evse.address.street ?? null, city: record.evse.address.city ?? null,
        postalCode: record.evse.address.postal_code ?? null, country: record.evse.address.country ?? null,
      } : null,
    },
  }]);
  t.deepEqual(answer.chargeSessions.edges.map((e: any) => e.node), [{
    databaseId: session.id, status: 'PROCESSED', locationId: session.location_id, connectorId: '1', totalReimbursementAmountExclVat: '1.50',
  }]);
  const dropped = await processCpoSession(evse.evse_uid, { connector_id: 'X' });
  const cases = await data(app, `query ($uid: String) { dropoutCases(side: CPO, evseUid: $uid, first: 5) { edges { node { databaseId reason side evseUid } } } }`,
    { uid: evse.evse_uid });
  t.deepEqual(cases.dropoutCases.edges.map((e: any) => e.node), [{ databaseId: dropped.dropout_case_id, reason: 'connector_not_found', side: 'CPO', evseUid: evse.evse_uid }]);
});

test('resubmission: a session waiting for its EVSE takes the new data; a processed one refuses other content', async (t) => {
  const body = cpoSessionBody(`WAIT-${Date.now()}`);
  const stored = await submitSession(app, body, api('/cpo-charge-session'));
  const replaced = await submitSession(app, { ...body, total_energy_kwh: '12.5' }, api('/cpo-charge-session'));
  t.like(replaced, { id: stored.id, duplicate: false });
  t.is((await ok('GET', `/cpo-charge-session/${stored.id}`)).total_energy_kwh, '12.50');

  const evse = await createLocatedEvse(app, admin);
  const done = await processCpoSession(evse.evse_uid);
  t.is(done.status, 'processed');
  const conflict = await app.request('POST', api('/cpo-charge-session'), {
    body: { ...cpoSessionBody(evse.evse_uid), session_id: done.session_id, total_energy_kwh: '99' },
  });
  t.like(conflict.body, { code: 'conflicting_resubmission', param: '$.total_energy_kwh' });
});

test('a reimbursement reversed out of a closed box that applies again is billed again, as a new version; processing goes on', async (t) => {
  const own = (await createAdministration(app)).id;
  await configureBilling(app, own);
  const series = await createSeries(app, own, { primary_document_type: 'self_billing_invoice', item_sources: ['cpo_reimbursement'] });
  const owner = await createCustomer(app, own, { reimbursement_vat: 'Applies' });
  const evse = await createLocatedEvse(app, own);
  const plan = await createReimbursementPlan(app, own, {}, { energy: '0.20' });
  const arrangement = await reimburseEvse(app, own, owner.id, plan.id, evse.evse_uid);
  const session = await submitSession(app, cpoSessionBody(evse.evse_uid), api('/cpo-charge-session'));
  t.is((await settled(session.id)).total_reimbursement_amount_excl_vat, '2.00');
  const [march] = (await ok('GET', `/billing-box?series_external_reference=${series.external_reference}`)).items;
  await ok('POST', `/billing-box/${march.id}/close`);
  const reprocessed = async () => {
    await ok('POST', `/msp-charge-session/${session.id}/reprice`);
    return settled(session.id);
  };

  // The arrangement ends before the session: the reimbursement is reversed into the next open box.
  await ok('POST', `/cpo-reimbursement-arrangement/${arrangement.id}`, { valid_until: '2026-02-01T00:00:00Z' });
  t.is((await reprocessed()).total_reimbursement_amount_excl_vat, null);
  // It applies again: billed again (this stopped every processing batch on the items' unique key).
  await ok('POST', `/cpo-reimbursement-arrangement/${arrangement.id}`, { valid_until: null });
  t.is((await reprocessed()).total_reimbursement_amount_excl_vat, '2.00');

  const boxes = (await ok('GET', `/billing-box?series_external_reference=${series.external_reference}`)).items as Record<string, any>[];
  const lines: string[] = [];
  for (const box of boxes) {
    for (const item of (await ok('GET', `/billing-box/${box.id}/cpo-charge-session-reimbursement`)).items) lines.push(`${box.state} ${item.entry} ${item.amount_excl_vat}`);
  }
  t.deepEqual(lines.sort(), ['closed original -2.00', 'open original -2.00', 'open reversal 2.00']);
  t.is(boxes.reduce((sum, box) => sum + Math.round(Number(box.total_amount_excl_vat) * 100), 0), -200, 'reimbursed once');
  // Another session is processed as before.
  const next = await submitSession(app, cpoSessionBody(evse.evse_uid, { total_energy_kwh: '5' }), api('/cpo-charge-session'));
  t.is((await settled(next.id)).total_reimbursement_amount_excl_vat, '1.00');
});

// Found by probing: a CPO session of another administration's driver (B's driver at A's EVSE,
// submitted by a credential without a limit) was stored as A's with B's customer, subscription and
// pricing on it: A read them (the CPO and MSP views, its events), listed it by B's customer and
// repriced it (a new result on B's subscription), while B could not see its driver's session.
test('another administration\'s driver at our EVSE: the CPO side is the EVSE\'s administration\'s, the driver\'s side the driver\'s', async (t) => {
  const b = (await createAdministration(app)).id;
  const evse = await reimbursedEvse();
  const driver = await pricedSubscription(app, b);
  const session = await processCpoSession(evse.evse_uid, { evco_id: driver.evcoId });
  t.like(session, { status: 'priced', admin_id: admin, customer_id: driver.customerId, total_reimbursement_amount_excl_vat: '1.00' });
  const asA = await app.credential({ role: 'admin', adminIds: [admin] });
  const asB = await app.credential({ role: 'admin', adminIds: [b] });
  const call = (auth: typeof asA, method: string, path: string) => app.request(method, api(path), { auth });
  const bsData = [b, driver.customerId, driver.subscriptionId];

  // A: its CPO session as of a driver not ours, reimbursed; nothing of B's side.
  const cpoOfA = (await call(asA, 'GET', `/cpo-charge-session/${session.id}`)).body;
  t.like(cpoOfA, {
    status: 'processed', admin_id: admin, customer_id: null, subscription_id: null, pricing_version: 0, total_reimbursement_amount_excl_vat: '1.00',
  });
  t.deepEqual(bsData.filter((v) => JSON.stringify(cpoOfA).includes(v)), []);
  const listedAs = async (status: string) => (await call(asA, 'GET', `/cpo-charge-session?evse_uid=${evse.evse_uid}&status=${status}`)).body.items.map((s: any) => s.id);
  t.deepEqual(await listedAs('processed'), [session.id]);
  t.deepEqual(await listedAs('priced'), []);
  for (const path of [`/msp-charge-session/${session.id}`, `/msp-charge-session-original/${session.id}`]) {
    t.is((await call(asA, 'GET', path)).body.code, 'not_found', path);
  }
  t.deepEqual((await call(asA, 'GET', `/msp-charge-session-priced?charge_session_id=${session.id}`)).body.items, []);
  t.is((await call(asA, 'POST', `/msp-charge-session/${session.id}/reprice`)).body.code, 'not_found');
  t.is((await pricingResults(session.id)).length, 1, 'A\'s reprice made no result');

  // B: its driver's session in the MSP views, as its own; not the CPO side.
  const mspOfB = await call(asB, 'GET', `/msp-charge-session/${session.id}`);
  t.like(mspOfB.body, { status: 'priced', admin_id: b, customer_id: driver.customerId, subscription_id: driver.subscriptionId });
  t.false(JSON.stringify(mspOfB.body).includes(admin));
  t.deepEqual((await call(asB, 'GET', `/msp-charge-session?subscription_id=${driver.subscriptionId}`)).body.items.map((s: any) => s.id), [session.id]);
  t.is((await call(asB, 'GET', `/cpo-charge-session/${session.id}`)).body.code, 'not_found');
  t.is((await call(asB, 'POST', `/msp-charge-session/${session.id}/reprice`)).status, 200);
  await settled(session.id);
  t.deepEqual((await pricingResults(session.id)).map((r: any) => r.version), [1, 2]);

  // Each side's event carries what that administration sees.
  const events = await eventsOf(session.id);
  const ofA = events.filter((e) => e.admin_id === admin);
  const ofB = events.filter((e) => e.admin_id === b);
  t.true(ofA.length > 0 && ofA.every((e) => e.kind === 'cpo_charge_session' && e.data.status === 'processed' && e.data.customer_id === null));
  t.deepEqual(bsData.filter((v) => JSON.stringify(ofA).includes(v)), []);
  t.true(ofB.length > 0 && ofB.every((e) => e.kind === 'msp_charge_session' && e.data.admin_id === b && e.data.customer_id === driver.customerId));
});

// Found by probing: one that stopped on the CPO side (waiting for a matching attempt, or a CPO drop-out)
// kept B's customer, subscription and token on a row whose driver's side was A's: A read them.
test('another administration\'s driver at our EVSE, stopped on the CPO side: the EVSE\'s administration reads nothing of the driver', async (t) => {
  const b = (await createAdministration(app)).id;
  const driver = await pricedSubscription(app, b);
  const asA = await app.credential({ role: 'admin', adminIds: [admin] });
  const bsData = [b, driver.customerId, driver.subscriptionId];
  const configuring = await createLocatedEvse(app, admin, { dropout_all_chargesessions: true });
  const unlocated = await createEvse(app, admin);
  const dropped = await processCpoSession(configuring.evse_uid, { evco_id: driver.evcoId });
  const waiting = (await submitSession(app, cpoSessionBody(unlocated.evse_uid, { evco_id: driver.evcoId }), api('/cpo-charge-session'))).id;
  for (;;) {
    const session = await ok('GET', `/cpo-charge-session/${waiting}`);
    if (session.match_attempts > 0) break;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  for (const id of [dropped.id, waiting]) {
    const seen = [(await app.request('GET', api(`/cpo-charge-session/${id}`), { auth: asA })).body];
    for (const filter of [`customer_id=${driver.customerId}`, `subscription_id=${driver.subscriptionId}`]) {
      seen.push((await app.request('GET', api(`/cpo-charge-session?${filter}`), { auth: asA })).body);
    }
    t.like(seen[0], { id, customer_id: null, subscription_id: null });
    t.deepEqual(bsData.filter((v) => JSON.stringify(seen).includes(v)), [], id);
    const eventsOfA = (await eventsOf(id)).filter((e) => e.admin_id === admin);
    t.deepEqual(bsData.filter((v) => JSON.stringify(eventsOfA).includes(v)), [], id);
  }
});

test('another administration\'s driver at our EVSE whose pricing drops out: the MSP case is the driver\'s administration\'s', async (t) => {
  const b = (await createAdministration(app)).id;
  const evse = await createLocatedEvse(app, admin);
  const noRates = await createSubscriptionPlan(app, b, { name: 'B secret plan' });
  const subscription = await createTokenSubscription(app, b, { plan_id: noRates.id });
  const token = await insertToken(app, b);
  await insertTokenLink(app, b, subscription.id, token.id);
  const session = await processCpoSession(evse.evse_uid, { evco_id: token.evcoId });
  t.like(session, { status: 'dropout', dropout_reason: 'rate_plan_missing' });
  const asA = await app.credential({ role: 'admin', adminIds: [admin] });
  const asB = await app.credential({ role: 'admin', adminIds: [b] });
  const call = (auth: typeof asA, method: string, path: string, body?: unknown) => app.request(method, api(path), { auth, ...(body ? { body } : {}) });

  const cpoOfA = (await call(asA, 'GET', `/cpo-charge-session/${session.id}`)).body;
  t.like(cpoOfA, { status: 'processed', dropout_case_id: null, dropout_reason: null, dropout_message: null });
  t.false(JSON.stringify(cpoOfA).includes('B secret plan'));
  t.is((await call(asA, 'GET', `/msp-dropout-case/${session.dropout_case_id}`)).body.code, 'not_found');
  t.is((await call(asA, 'POST', `/msp-dropout-case/${session.dropout_case_id}/reprocess`, { instruction: 'discard' })).body.code, 'not_found');
  // Found by probing (2026-11-29): filtering A's CPO view by B's case id found A's session (telling it is in B's case).
  t.deepEqual((await call(asA, 'GET', `/cpo-charge-session?dropout_case_id=${session.dropout_case_id}`)).body.items, []);
  const graph = await app.request('POST', '/graphql', { auth: asA, body: {
    query: 'query ($c: ID!) { chargeSessions(first: 10, cpo: true, dropoutCaseId: $c) { edges { node { databaseId } } } }', variables: { c: session.dropout_case_id } } });
  t.deepEqual(graph.body.data?.chargeSessions.edges, [], JSON.stringify(graph.body.errors));
  t.deepEqual((await call(asB, 'GET', `/msp-charge-session?dropout_case_id=${session.dropout_case_id}`)).body.items.map((s: any) => s.id), [session.id]);

  t.like((await call(asB, 'GET', `/msp-dropout-case/${session.dropout_case_id}`)).body, { admin_id: b, reason: 'rate_plan_missing', status: 'open' });
  t.like((await call(asB, 'GET', `/msp-charge-session/${session.id}`)).body, { status: 'dropout', admin_id: b, dropout_case_id: session.dropout_case_id });
  t.is((await call(asB, 'POST', `/msp-dropout-case/${session.dropout_case_id}/reprocess`, { instruction: 'discard' })).status, 200);
  t.is((await call(asB, 'GET', `/msp-charge-session/${session.id}`)).body.status, 'discarded');
  t.is((await call(asA, 'GET', `/cpo-charge-session/${session.id}`)).body.status, 'processed');
});

// Found by probing (2026-11-29): a plan-or-customer correction retried the CPO case of its driver's
// session (matching, reimbursement: the operator's to handle) and opened it anew.
test('a correction of the driver\'s subscription leaves a CPO case of its session to the operator', async (t) => {
  const evse = await createLocatedEvse(app, admin);
  const owner = await createCustomer(app, admin, { reimbursement_vat: 'Unknown' });
  const plan = await createReimbursementPlan(app, admin, {}, { energy: '0.10' });
  await reimburseEvse(app, admin, owner.id, plan.id, evse.evse_uid);
  const driver = await pricedSubscription(app, admin);
  const session = await processCpoSession(evse.evse_uid, { evco_id: driver.evcoId, start_date_time: '2026-03-02T10:00:00Z', end_date_time: '2026-03-02T11:00:00Z' });
  t.like(session, { status: 'dropout', dropout_reason: 'reimbursement_vat_unknown' });
  // A session of the driver's the correction reprices: when it has its second result, the correction's job ran.
  const witness = await submitSession(app, sessionBody(driver.evcoId, { start_date_time: '2026-03-03T10:00:00Z', end_date_time: '2026-03-03T11:00:00Z' }));
  t.is((await processed(app, witness.id)).status, 'priced');
  const newPlan = await createSubscriptionPlan(app, admin, { rate_plan_id: driver.ratePlanId });
  await ok('POST', `/msp-token-subscription/${driver.subscriptionId}/plan-or-customer-correction`, { valid_from: '2026-03-01T00:00:00Z', new_plan_id: newPlan.id });
  for (let i = 0; i < 400 && (await pricingResults(witness.id)).length < 2; i++) await new Promise((resolve) => setTimeout(resolve, 50));
  t.is((await pricingResults(witness.id)).length, 2);
  t.like(await ok('GET', `/cpo-dropout-case/${session.dropout_case_id}`), { status: 'open', session_count: 1 });
  t.like(await ok('GET', `/cpo-charge-session/${session.id}`), { status: 'dropout', dropout_case_id: session.dropout_case_id });
});
