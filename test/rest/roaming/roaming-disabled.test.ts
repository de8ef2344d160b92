// Without roaming_enabled nothing is calculated: a session of POST /charge-session of a roaming
// partner (as CPO) is priced as before with the reported amounts shown as reported, and a partner's
// driver at our EVSE is billed to the partner at the amount the CPMS reported (nothing when none).
import test from 'ava';
import { startTestApp, type TestApp } from '../../helpers/app.ts';
import { boxesOf, configureBilling, createSeries } from '../../helpers/billing-factories.ts';
import { cpoSessionBody, settledCpoSession, createLocatedEvse } from '../../helpers/cpo-factories.ts';
import { createAdministration } from '../../helpers/factories.ts';
import { createRoamingPartner, partySuffix } from '../../helpers/roaming-factories.ts';
import { ensureVatRate, pricedSubscription, pricingResults, processed, sessionBody, submitSession } from '../../helpers/session-factories.ts';

let app: TestApp;
test.before(async () => {
  app = await startTestApp();
  await ensureVatRate(app, 'NL', '21');
});
test.after.always(async () => { await app?.close(); });

test('roaming calculation off: a partner\'s session needs no agreement and gets no calculated amounts', async (t) => {
  const admin = (await createAdministration(app)).id;
  const { evcoId } = await pricedSubscription(app, admin);
  const partner = await createRoamingPartner(app);
  const stored = await submitSession(app, sessionBody(evcoId, { cpo_id: partner.cpo_ids[0], total_roaming_amount_excl_vat: '2.5' }));
  const session = await processed(app, stored.id);
  t.like(session, { status: 'priced', total_roaming_amount_excl_vat: '2.50', calculated_roaming_amount_excl_vat: null,
    calculated_roaming_amount_incl_vat: null, roaming_agreement_id: null });
  const [result] = await pricingResults(app, stored.id);
  t.is(result.roaming_agreement, null);
  t.deepEqual(result.annotations, {});
});

test('roaming calculation off: a partner\'s driver at our EVSE is billed at the reported amount, without an agreement', async (t) => {
  const owner = (await createAdministration(app)).id;
  await configureBilling(app, owner);
  await createSeries(app, owner);
  const s = partySuffix();
  const partner = await createRoamingPartner(app, { cpo_ids: [], msp_ids: [`NL${s}`], external_reference: `RP-${s}` });
  const evse = await createLocatedEvse(app, owner);
  const submit = async (overrides: Record<string, unknown>) =>
    settledCpoSession(app, (await submitSession(app, cpoSessionBody(evse.evse_uid, { evco_id: `NL${s}C12345678`, ...overrides }), '/main/v1/cpo-charge-session')).id);

  const reported = await submit({ total_roaming_amount_excl_vat: '1.255' });
  t.like(reported, { status: 'processed', roaming_partner_id: partner.id, roaming_agreement_id: null, total_roaming_amount_excl_vat: '1.255',
    calculated_roaming_amount_excl_vat: '1.26', calculated_roaming_amount_incl_vat: '1.52', roaming_amount_difference: null });
  const silent = await submit({});
  t.like(silent, { status: 'processed', roaming_partner_id: null, calculated_roaming_amount_excl_vat: null });

  const boxes = await boxesOf(app, `?party_external_reference=RP-${s}`);
  t.is(boxes.length, 1);
  const items = (await app.request('GET', `/main/v1/billing-box/${boxes[0].id}/cpo-charge-session-roaming`)).body.items;
  t.deepEqual(items.map((i: any) => [i.cpo_charge_session_id, i.amount_excl_vat]), [[reported.id, '1.26']]);
});
