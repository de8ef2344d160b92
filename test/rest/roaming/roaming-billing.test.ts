// Roaming costs in billing over HTTP: revenue items of the administration owning the EVSE (the
// local EVSE's, else the session's), billed to the roaming partner: one box per partner, period,
// series and VAT country; /billing-box/{id}/cpo-charge-session-roaming lists them.
import test from 'ava';
import { startTestApp, type TestApp } from '../../helpers/app.ts';
import { boxesOf, boxInState, configureBilling, createSeries } from '../../helpers/billing-factories.ts';
import { en16931Failures } from '../../helpers/en16931.ts';
import { createEvse } from '../../helpers/cpo-factories.ts';
import { createAdministration } from '../../helpers/factories.ts';
import { partySuffix, roamingSetup, setRoamingEnabled } from '../../helpers/roaming-factories.ts';
import { ensureVatRate, pricedSubscription, processed, sessionBody, submitSession } from '../../helpers/session-factories.ts';

let app: TestApp;
test.before(async () => {
  app = await startTestApp();
  await setRoamingEnabled(app, true);
  await ensureVatRate(app, 'NL', '21');
  await ensureVatRate(app, 'BE', '21');
});
test.after.always(async () => { await app?.close(); });

test('two VAT countries give two boxes for one partner; a session at a local EVSE of another administration is that administration\'s revenue', async (t) => {
  const msp = (await createAdministration(app)).id;
  const owner = (await createAdministration(app)).id;
  for (const admin of [msp, owner]) {
    await configureBilling(app, admin);
    await createSeries(app, admin);
  }
  const { evcoId } = await pricedSubscription(app, msp);
  const reference = `RP-${partySuffix()}`;
  const { partner, agreement, cpoId } = await roamingSetup(app, {}, { external_reference: reference });
  const evse = await createEvse(app, owner);

  const bodies = [
    sessionBody(evcoId, { cpo_id: cpoId, evse_id: `NL*XXX*E${partySuffix()}`, total_roaming_amount_excl_vat: '4.00' }),
    sessionBody(evcoId, { cpo_id: cpoId, evse_id: `BE*XXX*E${partySuffix()}`, total_roaming_amount_excl_vat: '2.00',
      address: { city: 'Gent', country: 'BE' }, time_zone: 'Europe/Brussels' }),
    sessionBody(evcoId, { cpo_id: cpoId, evse_id: evse.evse_id, total_roaming_amount_excl_vat: '1.50' }),
  ];
  const sessions = [];
  for (const body of bodies) sessions.push(await processed(app, (await submitSession(app, body)).id));
  for (const s of sessions) t.like(s, { status: 'priced', roaming_agreement_id: agreement.id });

  const boxes = await boxesOf(app, `?party_external_reference=${reference}`);
  t.is(boxes.length, 3);
  t.true(boxes.every((b) => b.party_kind === 'roaming_partner' && b.party_id === partner.id));
  const ofMsp = boxes.filter((b) => b.admin_id === msp).sort((a, b) => a.vat_country.localeCompare(b.vat_country));
  t.deepEqual(ofMsp.map((b) => b.vat_country), ['BE', 'NL']);
  const ofOwner = boxes.filter((b) => b.admin_id === owner);
  t.deepEqual(ofOwner.map((b) => b.vat_country), ['NL']);

  const nlItems = await app.request('GET', `/main/v1/billing-box/${ofMsp[1].id}/cpo-charge-session-roaming`);
  t.is(nlItems.status, 200);
  t.is(nlItems.body.items.length, 1);
  t.like(nlItems.body.items[0], { msp_charge_session_id: sessions[0].id, amount_excl_vat: '4.00' });
  const ownerItems = await app.request('GET', `/main/v1/billing-box/${ofOwner[0].id}/cpo-charge-session-roaming`);
  t.deepEqual(ownerItems.body.items.map((i: any) => i.msp_charge_session_id), [sessions[2].id]);
  const mspSessions = await app.request('GET', `/main/v1/billing-box/${ofOwner[0].id}/msp-charge-session`);
  t.deepEqual(mspSessions.body.items, [], 'the charging revenue of the driver stays with the MSP customer');

  // The partner's box becomes an invoice to the partner: 1.50 + 21 % VAT.
  for (const step of ['close', 'approve']) t.is((await app.request('POST', `/main/v1/billing-box/${ofOwner[0].id}/${step}`)).status, 200);
  await boxInState(app, ofOwner[0].id, 'ready');
  t.is((await app.request('POST', `/main/v1/billing-box/${ofOwner[0].id}/finalize`)).body.state, 'finalized');
  const xml = (await app.request('GET', `/main/v1/billing-box/${ofOwner[0].id}/document`, { headers: { accept: 'application/xml' } })).body as string;
  t.true(xml.includes(partner.name));
  t.regex(xml, /<cbc:PayableAmount currencyID="EUR">1.82<\/cbc:PayableAmount>/);
  t.deepEqual(await en16931Failures(xml), []);
});
