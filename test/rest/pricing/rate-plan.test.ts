import test from 'ava';
import { startTestApp, type TestApp } from '../../helpers/app.ts';
import { createAdministration, createSubscriptionPlan } from '../../helpers/factories.ts';
import { roamingSetup } from '../../helpers/roaming-factories.ts';

let app: TestApp;
let eurA: string;
let eurB: string;
let sek: string;
test.before(async () => {
  app = await startTestApp();
  eurA = (await createAdministration(app)).id;
  eurB = (await createAdministration(app)).id;
  sek = (await createAdministration(app, { currency: 'SEK', country: 'SE' })).id;
});
test.after.always(async () => { await app?.close(); });

const PATH = '/main/v1/rate-plan';
const DEFINITION = {
  rates: { energy: { price: '0.35', step_size: '0.001' }, time: { price: '0.02', step_size: '1' }, flat: { price: '0.5' }, min_price: '1', max_price: '50' },
  rules: [
    { name: 'DC fast', match: { current_type: 'DC', min_power_kw: '50', countries: ['nl'] }, rates: { energy: { price: '0.59' } }, vat_kind: 'standard' },
    { name: 'Night', match: { time_of_day: { from: '22:00', until: '06:00' }, days_of_week: [1, 2, 3, 4, 5] }, rates: { energy: { price: '0.25' } } },
  ],
};

test('create, get by id and ext_ref, merge-update, versions', async (t) => {
  const created = await app.request('POST', PATH, { body: { name: 'Standard', currency: 'EUR', admin_ids: [eurA.toUpperCase()], external_reference: 'RP-1' } });
  t.is(created.status, 200, JSON.stringify(created.body));
  t.like(created.body, { name: 'Standard', currency: 'EUR', admin_ids: [eurA], external_reference: 'RP-1' });
  const byRef = await app.request('GET', `${PATH}/ext_ref.rp-1`);
  t.is(byRef.body.id, created.body.id);
  const updated = await app.request('POST', `${PATH}/${created.body.id}`, { body: { name: 'Renamed', admin_ids: [eurA, eurB], currency: 'SEK' } });
  t.is(updated.status, 200, JSON.stringify(updated.body));
  t.like(updated.body, { name: 'Renamed', currency: 'EUR', external_reference: 'RP-1' });
  t.deepEqual(updated.body.admin_ids, [eurA, eurB]);

  const v1 = await app.request('POST', `${PATH}/${created.body.id}/version`, { body: { valid_from: '2026-01-01T00:00:00+01:00', definition: DEFINITION } });
  t.is(v1.status, 200, JSON.stringify(v1.body));
  t.is(v1.body.valid_from, '2025-12-31T23:00:00.000Z');
  t.is(v1.body.definition.rates.energy.price, '0.35');
  t.deepEqual(v1.body.definition.rules[0].match.countries, ['NL']);
  t.is(v1.body.definition.rates.min_price, '1.00');
  const again = await app.request('POST', `${PATH}/${created.body.id}/version`, { body: { valid_from: '2025-12-31T23:00:00Z', definition: DEFINITION } });
  t.like(again.body, { code: 'duplicate', param: '$.valid_from' });
  const v2 = await app.request('POST', `${PATH}/ext_ref.RP-1/version`, { body: { valid_from: '2026-06-01T00:00:00Z', definition: { rates: { energy: { price: '0.40' } } } } });
  t.is(v2.status, 200, JSON.stringify(v2.body));
  t.deepEqual(v2.body.definition.rules, []);
  const list = await app.request('GET', `${PATH}/${created.body.id}/version`);
  t.deepEqual(list.body.items.map((v: any) => v.id), [v1.body.id, v2.body.id]);
  const one = await app.request('GET', `${PATH}/${created.body.id}/version/${v2.body.id}`);
  t.deepEqual(one.body, v2.body);
  const other = await app.request('POST', PATH, { body: { name: 'Other', currency: 'EUR' } });
  const wrongPlan = await app.request('GET', `${PATH}/${other.body.id}/version/${v2.body.id}`);
  t.like(wrongPlan.body, { code: 'not_found' });
  t.is((await app.request('GET', `${PATH}/ext_ref.RP-NEW`)).status, 400);
  const upserted = await app.request('POST', `${PATH}/ext_ref.RP-NEW`, { body: { name: 'New', currency: 'EUR' } });
  t.like(upserted.body, { external_reference: 'RP-NEW', admin_ids: [] });
});

test('definitions are validated on write, every failure named', async (t) => {
  const plan = await app.request('POST', PATH, { body: { name: 'Checked', currency: 'EUR' } });
  const bad = await app.request('POST', `${PATH}/${plan.body.id}/version`, {
    body: {
      valid_from: '2026-01-01T00:00:00Z',
      definition: {
        rates: { energy: { price: 0.3 }, time: { price: '-1' }, min_price: '5', max_price: '2', bogus: {} },
        rules: [{ name: '', match: { time_of_day: { from: '25:00', until: '06:00' }, days_of_week: [0], current_type: 'XX' }, rates: {} }],
      },
    },
  });
  t.is(bad.status, 400);
  const params = bad.body.details.map((d: any) => d.param);
  for (const param of ['$.definition.rates.energy.price', '$.definition.rates.time.price', '$.definition.rates.max_price', '$.definition.rates.bogus',
    '$.definition.rules[0].name', '$.definition.rules[0].match.time_of_day', '$.definition.rules[0].match.days_of_week', '$.definition.rules[0].match.current_type']) {
    t.true(params.includes(param), param);
  }
  const notObject = await app.request('POST', `${PATH}/${plan.body.id}/version`, { body: { valid_from: '2026-01-01T00:00:00Z', definition: [] } });
  t.like(notObject.body, { param: '$.definition' });
  const noFrom = await app.request('POST', `${PATH}/${plan.body.id}/version`, { body: { definition: {} } });
  t.like(noFrom.body, { param: '$.valid_from' });
});

test('admin_ids must be of the currency; sharing decides visibility; subscription plans check the link', async (t) => {
  const mismatch = await app.request('POST', PATH, { body: { name: 'X', currency: 'EUR', admin_ids: [sek] } });
  t.like(mismatch.body, { code: 'currency_mismatch', param: '$.admin_ids[0]' });
  const unknown = await app.request('POST', PATH, { body: { name: 'X', currency: 'EUR', admin_ids: ['nope'] } });
  t.like(unknown.body, { code: 'not_found', param: '$.admin_ids[0]' });

  const onlyA = await app.request('POST', PATH, { body: { name: 'Only A', currency: 'EUR', admin_ids: [eurA] } });
  const allEur = await app.request('POST', PATH, { body: { name: 'All EUR', currency: 'EUR' } });
  const sekPlan = await app.request('POST', PATH, { body: { name: 'SEK', currency: 'SEK' } });
  const scopedB = await app.credential({ adminIds: [eurB] });
  t.like((await app.request('GET', `${PATH}/${onlyA.body.id}`, { auth: scopedB })).body, { code: 'not_found' });
  t.is((await app.request('GET', `${PATH}/${allEur.body.id}`, { auth: scopedB })).status, 200);
  const listed = (await app.request('GET', PATH, { auth: scopedB })).body.items.map((p: any) => p.id);
  t.true(listed.includes(allEur.body.id));
  t.false(listed.includes(onlyA.body.id));
  t.false(listed.includes(sekPlan.body.id));
  const both = await app.request('POST', PATH, { body: { name: 'A and B', currency: 'EUR', admin_ids: [eurA, eurB] } });
  t.deepEqual(both.body.admin_ids, [eurA, eurB]);
  t.deepEqual((await app.request('GET', `${PATH}/${both.body.id}`, { auth: scopedB })).body.admin_ids, [eurB], 'A is not named to B');
  const listedBoth = (await app.request('GET', PATH, { auth: scopedB })).body.items.find((p: any) => p.id === both.body.id);
  t.deepEqual(listedBoth.admin_ids, [eurB]);
  const noShare = await app.request('POST', PATH, { auth: scopedB, body: { name: 'B', currency: 'EUR' } });
  t.like(noShare.body, { param: '$.admin_ids' });
  const ownShare = await app.request('POST', PATH, { auth: scopedB, body: { name: 'B', currency: 'EUR', admin_ids: [eurB] } });
  t.is(ownShare.status, 200);
  const hijack = await app.request('POST', `${PATH}/${allEur.body.id}`, { auth: scopedB, body: { admin_ids: [eurB] } });
  t.is(hijack.status, 403, 'a plan shared beyond the credential\'s administrations');
  const hijackVersion = await app.request('POST', `${PATH}/${allEur.body.id}/version`, { auth: scopedB, body: { valid_from: '2026-01-01T00:00:00Z', definition: {} } });
  t.is(hijackVersion.status, 403);
  const ownVersion = await app.request('POST', `${PATH}/${ownShare.body.id}/version`, { auth: scopedB, body: { valid_from: '2026-01-01T00:00:00Z', definition: {} } });
  t.is(ownVersion.status, 200, JSON.stringify(ownVersion.body));
  const foreign = await app.request('POST', PATH, { auth: scopedB, body: { name: 'B', currency: 'EUR', admin_ids: [eurA] } });
  t.like(foreign.body, { code: 'not_found', param: '$.admin_ids[0]' });

  const planB = await createSubscriptionPlan(app, eurB);
  const notShared = await app.request('POST', `/main/v1/msp-token-subscription-plan/${planB.id}`, { body: { rate_plan_id: onlyA.body.id } });
  t.like(notShared.body, { code: 'rate_plan_not_shared', param: '$.rate_plan_id' });
  const wrongCurrency = await app.request('POST', '/main/v1/msp-token-subscription-plan', { body: { admin_id: eurB, name: 'P', rate_plan_id: sekPlan.body.id } });
  t.like(wrongCurrency.body, { code: 'currency_mismatch', param: '$.rate_plan_id' });
  const linked = await app.request('POST', `/main/v1/msp-token-subscription-plan/${planB.id}`, { body: { rate_plan_id: allEur.body.id } });
  t.is(linked.status, 200, JSON.stringify(linked.body));
  t.is(linked.body.rate_plan_id, allEur.body.id);
});

test('a plan that prices a roaming agreement serves every administration: a limited credential changes it in no way, even shared with its own alone', async (t) => {
  const plan = await app.request('POST', PATH, { body: { name: 'Roaming of A', currency: 'EUR', admin_ids: [eurA] } });
  const scopedA = await app.credential({ adminIds: [eurA] });
  const before = await app.request('POST', `${PATH}/${plan.body.id}/version`, { auth: scopedA, body: { valid_from: '2025-01-01T00:00:00Z', definition: DEFINITION } });
  t.is(before.status, 200, 'the plan is A\'s alone before an agreement prices with it');
  await roamingSetup(app, { rate_plan_id: plan.body.id });

  const version = await app.request('POST', `${PATH}/${plan.body.id}/version`, { auth: scopedA, body: { valid_from: '2026-01-01T00:00:00Z', definition: {} } });
  t.like(version, { status: 403, body: { code: 'forbidden' } });
  const renamed = await app.request('POST', `${PATH}/${plan.body.id}`, { auth: scopedA, body: { name: 'Hijacked' } });
  t.like(renamed, { status: 403, body: { code: 'forbidden' } });
  const read = await app.request('GET', `${PATH}/${plan.body.id}`);
  t.is(read.body.name, 'Roaming of A');
  t.is((await app.request('GET', `${PATH}/${plan.body.id}/version`)).body.items.length, 1);
  t.is((await app.request('POST', `${PATH}/${plan.body.id}/version`, { body: { valid_from: '2026-01-01T00:00:00Z', definition: {} } })).status, 200,
    'a credential without a limit still changes it');
});

test('admin_ids may not drop an administration whose subscription plan prices with the rate plan: its sharers would change its prices alone', async (t) => {
  const plan = await app.request('POST', PATH, { body: { name: 'A and B, priced by B', currency: 'EUR', admin_ids: [eurA, eurB] } });
  await app.request('POST', `${PATH}/${plan.body.id}/version`, { body: { valid_from: '2025-01-01T00:00:00Z', definition: DEFINITION } });
  await createSubscriptionPlan(app, eurB, { rate_plan_id: plan.body.id });
  const scopedA = await app.credential({ role: 'admin', adminIds: [eurA] });
  const scopedAB = await app.credential({ role: 'admin', adminIds: [eurA, eurB] });
  const unchanged = async (adminIds: string[]) => {
    t.deepEqual((await app.request('GET', `${PATH}/${plan.body.id}`)).body.admin_ids, adminIds);
    t.is((await app.request('GET', `${PATH}/${plan.body.id}/version`)).body.items.length, 1);
  };

  for (const auth of [undefined, scopedAB]) {
    const narrowed = await app.request('POST', `${PATH}/${plan.body.id}`, { auth, body: { name: 'Only A now', admin_ids: [eurA] } });
    t.like(narrowed, { status: 400, body: { code: 'rate_plan_not_shared', param: '$.admin_ids' } });
  }
  const upserted = await app.request('POST', `${PATH}/ext_ref.${encodeURIComponent('RP-NARROW')}`, { body: { name: 'X', currency: 'EUR', admin_ids: [eurA] } });
  t.is(upserted.status, 200, 'a new plan has no subscription plans to keep');
  t.is((await app.request('GET', `${PATH}/${plan.body.id}`)).body.name, 'A and B, priced by B');
  await unchanged([eurA, eurB]);
  const version = await app.request('POST', `${PATH}/${plan.body.id}/version`, { auth: scopedA, body: { valid_from: '2026-01-01T00:00:00Z', definition: {} } });
  t.is(version.status, 403, 'still shared with B, whom A\'s credential cannot see');
  await unchanged([eurA, eurB]);

  // null/[] shares with every administration of the currency: widening is fine, narrowing from it drops B as well.
  const widened = await app.request('POST', `${PATH}/${plan.body.id}`, { body: { admin_ids: null } });
  t.like(widened, { status: 200, body: { admin_ids: [] } });
  const fromAll = await app.request('POST', `${PATH}/${plan.body.id}`, { body: { admin_ids: [eurA] } });
  t.like(fromAll, { status: 400, body: { code: 'rate_plan_not_shared', param: '$.admin_ids' } });
  await unchanged([]);
  const keepsB = await app.request('POST', `${PATH}/${plan.body.id}`, { body: { admin_ids: [eurB.toUpperCase()] } });
  t.like(keepsB, { status: 200, body: { admin_ids: [eurB] } }, 'A prices nothing with it: dropping A is fine');
});

test('a limited credential cannot change a rate plan that a subscription plan of an administration it cannot see prices with (sharing narrowed before the rule)', async (t) => {
  const plan = await app.request('POST', PATH, { body: { name: 'Narrowed earlier', currency: 'EUR', admin_ids: [eurA, eurB] } });
  await createSubscriptionPlan(app, eurB, { rate_plan_id: plan.body.id });
  await app.orm.em.fork().execute('update pricing_rate_plan set admin_ids = ?::jsonb where id = ?', [JSON.stringify([eurA]), plan.body.id]);
  const scopedA = await app.credential({ role: 'admin', adminIds: [eurA] });
  const version = await app.request('POST', `${PATH}/${plan.body.id}/version`, { auth: scopedA, body: { valid_from: '2026-01-01T00:00:00Z', definition: {} } });
  t.like(version, { status: 403, body: { code: 'forbidden' } });
  const renamed = await app.request('POST', `${PATH}/${plan.body.id}`, { auth: scopedA, body: { name: 'Hijacked' } });
  t.like(renamed, { status: 403, body: { code: 'forbidden' } });
  t.is((await app.request('GET', `${PATH}/${plan.body.id}`)).body.name, 'Narrowed earlier');
  t.is((await app.request('GET', `${PATH}/${plan.body.id}/version`)).body.items.length, 0);
});
