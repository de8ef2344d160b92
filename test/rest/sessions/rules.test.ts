import test from 'ava';
import { startTestApp, type TestApp } from '../../helpers/app.ts';
import { createAdministration } from '../../helpers/factories.ts';
import { pricedSubscription, pricingResults, processed, sessionBody, submitSession } from '../../helpers/session-factories.ts';

let app: TestApp;
let evcoId: string;
test.before(async () => {
  app = await startTestApp();
  const adminId = (await createAdministration(app)).id;
  ({ evcoId } = await pricedSubscription(app, adminId, {
    definition: {
      rates: { energy: { price: '0.40' } },
      rules: [
        { name: 'DC', match: { current_type: 'DC' }, rates: { energy: { price: '0.70' } } },
        { name: 'Night', match: { time_of_day: { from: '23:00', until: '07:00' } }, rates: { energy: { price: '0.20' } } },
        { name: 'Weekend at CPO X', match: { cpo_party_ids: ['DE*XYZ'], days_of_week: [6, 7] }, rates: { energy: { price: '0.30' } } },
      ],
    },
  }));
});
test.after.always(async () => { await app?.close(); });

async function ruleOf(start: string, overrides: Record<string, unknown> = {}) {
  const end = new Date(new Date(start).getTime() + 30 * 60_000).toISOString();
  const stored = await submitSession(app, sessionBody(evcoId, { start_date_time: start, end_date_time: end, total_energy_kwh: '1', ...overrides }));
  const session = await processed(app, stored.id);
  if (session.status !== 'priced') throw new Error(JSON.stringify(session));
  return (await pricingResults(app, stored.id))[0].rule.name;
}

test('the first matching rule decides (most specific first)', async (t) => {
  t.is(await ruleOf('2026-03-04T23:30:00+01:00', { power_type: 'dc' }), 'DC', 'DC at night: DC comes first');
  t.is(await ruleOf('2026-03-04T23:30:00+01:00', { power_type: 'ac_3phase' }), 'Night');
  t.is(await ruleOf('2026-03-04T23:30:00+01:00', { power_type: 'DC', auth_method: 'AUTH_REQUEST', connector_format: 'CABLE' }), 'DC', 'OCPI casing');
  t.is(await ruleOf('2026-03-04T12:00:00+01:00'), null, 'no rule: the base rates');
  t.is(await ruleOf('2026-03-07T12:00:00+01:00', { cpo_id: 'DE*XYZ' }), 'Weekend at CPO X');
  t.is(await ruleOf('2026-03-06T12:00:00+01:00', { cpo_id: 'DE*XYZ' }), null, 'a Friday');
});

test('time-of-day matches the local time of the location across DST changes', async (t) => {
  // Europe/Amsterdam: summer time ends 2026-10-25 03:00 CEST -> 02:00 CET, begins 2026-03-29 02:00 CET -> 03:00 CEST.
  t.is(await ruleOf('2026-10-25T05:59:00Z'), 'Night', '06:59 CET');
  t.is(await ruleOf('2026-10-25T06:00:00Z'), null, '07:00 CET');
  t.is(await ruleOf('2026-03-29T04:59:00Z'), 'Night', '06:59 CEST');
  t.is(await ruleOf('2026-03-29T05:00:00Z'), null, '07:00 CEST');
  t.is(await ruleOf('2026-03-29T05:00:00Z', { time_zone: 'America/New_York', address: { country: 'NL' } }), 'Night', '01:00 in New York');
});
