// Without roaming_enabled a session of a roaming partner is priced as before: nothing is
// calculated, no agreement is needed, the reported amounts are shown as reported.
import test from 'ava';
import { startTestApp, type TestApp } from '../../helpers/app.ts';
import { createAdministration } from '../../helpers/factories.ts';
import { createRoamingPartner } from '../../helpers/roaming-factories.ts';
import { pricedSubscription, pricingResults, processed, sessionBody, submitSession } from '../../helpers/session-factories.ts';

let app: TestApp;
test.before(async () => { app = await startTestApp(); });
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
