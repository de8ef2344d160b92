// Roaming in billing over HTTP: a roaming partner's driver charging at our EVSE (a CPO session) is
// revenue of the EVSE's administration billed to the partner: one box per partner, period, series
// and VAT country; /billing-box/{id}/cpo-charge-session-roaming lists the sessions. What a partner
// charges us as CPO (a session of POST /charge-session) is calculated but not billed by us.
import test from 'ava';
import { startTestApp, type TestApp } from '../../helpers/app.ts';
import { boxesOf, boxInState, configureBilling, createSeries } from '../../helpers/billing-factories.ts';
import { en16931Failures } from '../../helpers/en16931.ts';
import { cpoSessionBody, settledCpoSession, createLocatedEvse, createLocation, createEvse } from '../../helpers/cpo-factories.ts';
import { createAdministration } from '../../helpers/factories.ts';
import { createRatePlan, ensureVatRate, pricedSubscription, processed, sessionBody, submitSession } from '../../helpers/session-factories.ts';
import { createRoamingAgreement, createRoamingConnection, createRoamingPartner, partySuffix, setRoamingEnabled } from '../../helpers/roaming-factories.ts';

let app: TestApp;
test.before(async () => {
  app = await startTestApp();
  await setRoamingEnabled(app, true);
  await ensureVatRate(app, 'NL', '21');
  await ensureVatRate(app, 'BE', '21');
});
test.after.always(async () => { await app?.close(); });

async function cpoSession(evseUid: string, overrides: Record<string, unknown>) {
  return settledCpoSession(app, (await submitSession(app, cpoSessionBody(evseUid, overrides), '/main/v1/cpo-charge-session')).id);
}

/** A partner that is both MSP and CPO, with an agreement for each of our roles. */
async function partnerBothWays(cpoAgreement: Record<string, unknown> = {}) {
  const s = partySuffix();
  const reference = `RP-${s}`;
  const partner = await createRoamingPartner(app, { msp_ids: [`NL-${s}`], cpo_ids: [`NL*${s}`], external_reference: reference });
  const connection = await createRoamingConnection(app, { partner_id: partner.id });
  const asCpo = await createRoamingAgreement(app, connection.id, { role: 'cpo', ...cpoAgreement });
  const asMsp = await createRoamingAgreement(app, connection.id, { role: 'msp' });
  return { partner, reference, connection, asCpo, asMsp, driver: `NL-${s}-C12345678`, cpoId: `NL*${s}` };
}

test('a partner\'s drivers at our EVSEs in two VAT countries give two boxes for the partner; what the partner charges us is not billed', async (t) => {
  const owner = (await createAdministration(app)).id;
  const msp = (await createAdministration(app)).id;
  for (const admin of [owner, msp]) {
    await configureBilling(app, admin);
    await createSeries(app, admin);
  }
  const { partner, reference, asCpo, asMsp, driver, cpoId } = await partnerBothWays();
  const nl = await createLocatedEvse(app, owner);
  const beLocation = await createLocation(app, owner, { address: { street: 'Korenmarkt 1', city: 'Gent', postal_code: '9000', country: 'BE' },
    time_zone: 'Europe/Brussels' });
  const be = await createEvse(app, owner, { location_id: beLocation.location_id, connectors: [{ id: '1', standard: 'IEC_62196_T2', power_type: 'ac_3phase', max_power_kw: '22' }] });

  const atNl = await cpoSession(nl.evse_uid, { evco_id: driver, total_roaming_amount_excl_vat: '4.00' });
  const atBe = await cpoSession(be.evse_uid, { evco_id: driver, total_sales_amount_excl_vat: '2', time_zone: 'Europe/Brussels',
    address: { street: 'Korenmarkt 1', city: 'Gent', postal_code: '9000', country: 'BE' } });
  t.like(atNl, { status: 'processed', admin_id: owner, roaming_partner_id: partner.id, roaming_agreement_id: asCpo.id,
    total_roaming_amount_excl_vat: '4.00', calculated_roaming_amount_excl_vat: '4.00', calculated_roaming_amount_incl_vat: '4.84' });
  t.like(atBe, { status: 'processed', roaming_partner_id: partner.id, total_roaming_amount_excl_vat: '2.00', total_sales_amount_excl_vat: '2.00',
    calculated_roaming_amount_excl_vat: '2.00' });

  const graph = await app.request('POST', '/graphql', { body: { query: `{ chargeSessions(first: 10, cpo: true, evseUid: "${nl.evse_uid}") {
    edges { node { databaseId roamingPartnerId roamingAgreementId calculatedRoamingAmountExclVat } } } }` } });
  t.falsy(graph.body.errors);
  t.deepEqual(graph.body.data.chargeSessions.edges.map((e: any) => e.node),
    [{ databaseId: atNl.id, roamingPartnerId: partner.id, roamingAgreementId: asCpo.id, calculatedRoamingAmountExclVat: '4.00' }]);

  // The partner as CPO charging our MSP customer: calculated (what it will invoice us), not billed by us.
  const { evcoId } = await pricedSubscription(app, msp);
  const charged = await processed(app, (await submitSession(app, sessionBody(evcoId, { cpo_id: cpoId, total_roaming_amount_excl_vat: '9.00' }))).id);
  t.like(charged, { status: 'priced', roaming_agreement_id: asMsp.id, calculated_roaming_amount_excl_vat: '9.00' });

  const boxes = await boxesOf(app, `?party_external_reference=${reference}`);
  t.is(boxes.length, 2);
  t.true(boxes.every((b) => b.party_kind === 'roaming_partner' && b.party_id === partner.id && b.admin_id === owner));
  const [beBox, nlBox] = boxes.sort((a, b) => a.vat_country.localeCompare(b.vat_country));
  t.deepEqual([beBox.vat_country, nlBox.vat_country], ['BE', 'NL']);

  const nlItems = await app.request('GET', `/main/v1/billing-box/${nlBox.id}/cpo-charge-session-roaming`);
  t.is(nlItems.status, 200);
  t.is(nlItems.body.items.length, 1);
  t.like(nlItems.body.items[0], { cpo_charge_session_id: atNl.id, amount_excl_vat: '4.00', vat_country: 'NL', entry: 'original' });
  t.deepEqual((await app.request('GET', `/main/v1/billing-box/${beBox.id}/cpo-charge-session-roaming`)).body.items
    .map((i: any) => [i.cpo_charge_session_id, i.amount_excl_vat]), [[atBe.id, '2.00']]);

  // The partner's box becomes an invoice to the partner: 4.00 + 21 % VAT.
  for (const step of ['close', 'approve']) t.is((await app.request('POST', `/main/v1/billing-box/${nlBox.id}/${step}`)).status, 200);
  await boxInState(app, nlBox.id, 'ready');
  t.is((await app.request('POST', `/main/v1/billing-box/${nlBox.id}/finalize`)).body.state, 'finalized');
  const xml = (await app.request('GET', `/main/v1/billing-box/${nlBox.id}/document`, { headers: { accept: 'application/xml' } })).body as string;
  t.true(xml.includes(partner.name));
  t.regex(xml, /<cbc:PayableAmount currencyID="EUR">4.84<\/cbc:PayableAmount>/);
  t.deepEqual(await en16931Failures(xml), []);
});

test('the agreement\'s rate plan prices what we charge; a difference with the CPMS amount is shown; no agreement is a CPO drop-out', async (t) => {
  const owner = (await createAdministration(app)).id;
  await configureBilling(app, owner);
  await createSeries(app, owner);
  const plan = await createRatePlan(app, [{ valid_from: '2025-01-01T00:00:00Z', definition: { rates: { energy: { price: '0.35' } }, rules: [] } }]);
  const { partner, reference, asCpo, driver } = await partnerBothWays({ rate_plan_id: plan, valid_from: '2026-03-01T00:00:00Z' });
  const evse = await createLocatedEvse(app, owner);

  // 10 kWh × 0.35 = 3.50 excl. VAT against the CPMS's 3.00.
  const priced = await cpoSession(evse.evse_uid, { evco_id: driver, total_roaming_amount_excl_vat: '3.00' });
  t.like(priced, { status: 'processed', roaming_agreement_id: asCpo.id, calculated_roaming_amount_excl_vat: '3.50', calculated_roaming_amount_incl_vat: '4.24',
    roaming_amount_difference: 'reported 3.00 excl. VAT, calculated 3.50 (difference 0.50)' });
  const [box] = await boxesOf(app, `?party_external_reference=${reference}`);
  t.is(box.party_id, partner.id);
  t.like((await app.request('GET', `/main/v1/billing-box/${box.id}/cpo-charge-session-roaming`)).body.items[0], { amount_excl_vat: '3.50' });

  // Before the agreement's valid_from: a CPO drop-out case, nothing billed.
  const early = await cpoSession(evse.evse_uid, { evco_id: driver, start_date_time: '2026-02-28T10:00:00+01:00', end_date_time: '2026-02-28T11:00:00+01:00' });
  t.like(early, { status: 'dropout', dropout_reason: 'roaming_agreement_missing', calculated_roaming_amount_excl_vat: null });
  const cases = (await app.request('GET', `/main/v1/cpo-dropout-case?reason=roaming_agreement_missing&evse_uid=${evse.evse_uid}`)).body.items;
  t.is(cases.length, 1);
  t.is((await boxesOf(app, `?party_external_reference=${reference}`)).length, 1);

  // A driver of no roaming partner: processed, nothing charged.
  const stranger = await cpoSession(evse.evse_uid, { evco_id: 'NL-ZZZ-C99999999', total_roaming_amount_excl_vat: '1.00' });
  t.like(stranger, { status: 'processed', roaming_partner_id: null, calculated_roaming_amount_excl_vat: null });
});

test('bad roaming amounts on a CPO session are refused with their field and store nothing', async (t) => {
  const owner = (await createAdministration(app)).id;
  const evse = await createLocatedEvse(app, owner);
  for (const [field, value] of [['total_roaming_amount_excl_vat', '-1'], ['total_sales_amount_excl_vat', '1,50'], ['total_roaming_amount_excl_vat', 3]] as const) {
    const body = cpoSessionBody(evse.evse_uid, { [field]: value });
    const r = await app.request('POST', '/main/v1/cpo-charge-session', { body });
    t.is(r.status, 400);
    t.is(r.body.param, `$.${field}`);
    const listed = await app.request('GET', `/main/v1/cpo-charge-session?evse_uid=${evse.evse_uid}`);
    t.is(listed.status, 200);
    t.deepEqual(listed.body.items, []);
  }
});

test('a partner\'s sessions at our EVSE processed before we had a series are billed to the partner when the series comes', async (t) => {
  const owner = (await createAdministration(app)).id;
  await configureBilling(app, owner);
  const { partner, reference, driver } = await partnerBothWays();
  const evse = await createLocatedEvse(app, owner);
  const session = await cpoSession(evse.evse_uid, { evco_id: driver, total_roaming_amount_excl_vat: '4.00' });
  t.like(session, { status: 'processed', roaming_partner_id: partner.id, calculated_roaming_amount_excl_vat: '4.00' });
  t.deepEqual(await boxesOf(app, `?party_external_reference=${reference}`), []);

  await createSeries(app, owner);
  let boxes: Record<string, any>[] = [];
  for (const until = Date.now() + 30_000; boxes.length === 0 && Date.now() < until; await new Promise((resolve) => setTimeout(resolve, 50))) {
    boxes = await boxesOf(app, `?party_external_reference=${reference}`);
  }
  t.deepEqual(boxes.map((b) => [b.admin_id, b.party_kind, b.party_id, b.total_amount_excl_vat]), [[owner, 'roaming_partner', partner.id, '4.00']]);
  const items = (await app.request('GET', `/main/v1/billing-box/${boxes[0]!.id}/cpo-charge-session-roaming`)).body.items;
  t.deepEqual(items.map((i: Record<string, any>) => [i.cpo_charge_session_id, i.amount_excl_vat]), [[session.id, '4.00']]);
});

// Serial (before the others): its repricing must be a batch of its own, without other tests' roaming sessions.
test.serial('a session no longer roaming (its driver\'s partner gave up the id) loses its charge when processed again in a batch without roaming work', async (t) => {
  const owner = (await createAdministration(app)).id;
  await configureBilling(app, owner);
  await createSeries(app, owner);
  const { partner, reference, driver } = await partnerBothWays();
  const evse = await createLocatedEvse(app, owner);
  const charged = await cpoSession(evse.evse_uid, { evco_id: driver, total_roaming_amount_excl_vat: '5.00' });
  t.like(charged, { roaming_partner_id: partner.id, calculated_roaming_amount_excl_vat: '5.00' });
  const [box] = await boxesOf(app, `?party_external_reference=${reference}`);
  t.is(box.total_amount_excl_vat, '5.00');

  // Reprocessed in a batch of its own, which has no roaming work at all.
  const r = await app.request('POST', `/main/v1/roaming-partner/${partner.id}`, { body: { msp_ids: [] } });
  t.is(r.status, 200);
  await app.request('POST', `/main/v1/msp-charge-session/${charged.id}/reprice`);
  t.like(await settledCpoSession(app, charged.id), { roaming_partner_id: null, calculated_roaming_amount_excl_vat: null });
  t.is((await boxesOf(app, `?party_external_reference=${reference}`))[0].total_amount_excl_vat, '0.00', 'withdrawn from the open box');
});

// Found by probing: a partner's session reprocessed into a drop-out (its EVSE switched to
// dropout_all_chargesessions) kept its roaming charge and stayed billed to the partner, also once
// its case was discarded. It now loses the charge as a CPO drop-out loses its reimbursement: deleted
// from an open box, reversed in the partner's next open box when its box was finalized.
test('a partner\'s session that drops out and is discarded is no longer billed to the partner: withdrawn from an open box, reversed after a finalized one', async (t) => {
  const owner = (await createAdministration(app)).id;
  await configureBilling(app, owner);
  await createSeries(app, owner);
  const { partner, reference, driver } = await partnerBothWays();
  const evse = await createLocatedEvse(app, owner);
  const api = (path: string) => `/main/v1${path}`;
  const billed = async () => {
    const lines: string[] = [];
    for (const box of await boxesOf(app, `?party_external_reference=${reference}`)) {
      for (const item of (await app.request('GET', api(`/billing-box/${box.id}/cpo-charge-session-roaming`))).body.items) {
        lines.push(`${box.state} ${item.entry} ${item.cpo_charge_session_id === finalized.id ? 'finalized' : 'open'} ${item.amount_excl_vat}`);
      }
    }
    return lines.sort();
  };

  const finalized = await cpoSession(evse.evse_uid, { evco_id: driver, total_roaming_amount_excl_vat: '4.00' });
  t.like(finalized, { status: 'processed', roaming_partner_id: partner.id, calculated_roaming_amount_excl_vat: '4.00' });
  const [first] = await boxesOf(app, `?party_external_reference=${reference}`);
  for (const step of ['close', 'approve']) t.is((await app.request('POST', api(`/billing-box/${first.id}/${step}`))).status, 200);
  await boxInState(app, first.id, 'ready');
  t.is((await app.request('POST', api(`/billing-box/${first.id}/finalize`))).body.state, 'finalized');
  // The same period, after its box was finalized: the partner's next open box.
  const open = await cpoSession(evse.evse_uid, { evco_id: driver, total_roaming_amount_excl_vat: '2.50' });
  t.deepEqual(await billed(), ['finalized original finalized 4.00', 'open original open 2.50']);

  // The operator drops out every session of the EVSE; both are reprocessed into the drop-out.
  t.is((await app.request('PUT', api(`/cpo-evse/${evse.evse_uid}/dropout-all-chargesessions`), { body: { dropout_all_chargesessions: true } })).status, 200);
  for (const session of [finalized, open]) t.is((await app.request('POST', api(`/msp-charge-session/${session.id}/reprice`))).status, 200);
  const dropped = await Promise.all([finalized, open].map((s) => settledCpoSession(app, s.id)));
  for (const session of dropped) {
    t.like(session, { status: 'dropout', dropout_reason: 'evse_dropout_all_chargesessions', roaming_partner_id: null, calculated_roaming_amount_excl_vat: null });
  }
  const expected = ['finalized original finalized 4.00', 'open reversal finalized -4.00'];
  t.deepEqual(await billed(), expected, 'deleted from the open box; the finalized one reversed in the partner\'s next open box');
  t.is((await app.request('POST', api(`/cpo-dropout-case/${dropped[0].dropout_case_id}/reprocess`), { body: { instruction: 'discard' } })).status, 200);
  for (const session of [finalized, open]) t.is((await settledCpoSession(app, session.id)).status, 'discarded');
  t.deepEqual(await billed(), expected, 'discarding changes nothing more');
  const boxes = await boxesOf(app, `?party_external_reference=${reference}`);
  t.deepEqual(boxes.map((b) => [b.state, b.total_amount_excl_vat]).sort(), [['finalized', '4.00'], ['open', '-4.00']]);
});

// Found by probing: a partner billed under reverse charge (AE) could never be finalized: the refusal
// asked for the customer's custom_fields.vat_number, which a partner has no way to hold. The partner's
// own vat_number is now the buyer's VAT identifier (BT-48).
test('a partner billed under reverse charge: refused while it has no vat_number (named as the partner\'s), then issued with it as BT-48', async (t) => {
  const owner = (await createAdministration(app)).id;
  await configureBilling(app, owner);
  await createSeries(app, owner);
  const { partner, reference, driver } = await partnerBothWays({ vat_kind: 'reverse_charge' });
  const evse = await createLocatedEvse(app, owner);
  t.like(await cpoSession(evse.evse_uid, { evco_id: driver, total_roaming_amount_excl_vat: '4.00' }), { status: 'processed', roaming_partner_id: partner.id });
  const [box] = await boxesOf(app, `?party_external_reference=${reference}`);
  t.like(box.vat_breakdown, [{ vat_kind: 'reverse_charge' }]);
  for (const step of ['close', 'approve']) t.is((await app.request('POST', `/main/v1/billing-box/${box.id}/${step}`)).status, 200);
  await boxInState(app, box.id, 'ready');
  const refused = await app.request('POST', `/main/v1/billing-box/${box.id}/finalize`);
  t.like(refused.body, { code: 'invalid_input' });
  t.regex(refused.body.message, new RegExp(`roaming partner ${partner.id} needs vat_number`));
  t.is((await app.request('POST', `/main/v1/roaming-partner/${partner.id}`, { body: { vat_number: 'BE0123456789' } })).status, 200);
  const finalized = await app.request('POST', `/main/v1/billing-box/${box.id}/finalize`);
  t.is(finalized.body.state, 'finalized', JSON.stringify(finalized.body));
  const xml = (await app.request('GET', `/main/v1/billing-box/${box.id}/document`, { headers: { accept: 'application/xml' } })).body as string;
  t.regex(xml, /<cac:AccountingCustomerParty>[\s\S]*<cac:PartyTaxScheme>\s*<cbc:CompanyID>BE0123456789<\/cbc:CompanyID>[\s\S]*<\/cac:AccountingCustomerParty>/);
  t.regex(xml, /<cac:ClassifiedTaxCategory>\s*<cbc:ID>AE<\/cbc:ID>/);
  t.deepEqual(await en16931Failures(xml), []);
});
