import test from 'ava';
import { startTestApp, type TestApp } from '../../helpers/app.ts';
import { createAdministration } from '../../helpers/factories.ts';
import { ensureVatRate, pricedSubscription, pricingResults, processed, sessionBody, submitSession } from '../../helpers/session-factories.ts';
import { processSessionBatch } from '../../../src/session-processing/process-sessions.service.ts';

let app: TestApp;
let adminId: string;
test.before(async () => {
  app = await startTestApp();
  adminId = (await createAdministration(app)).id;
});
test.after.always(async () => { await app?.close(); });

const api = (path: string) => `/main/v1${path}`;
const balance = async (id: string) => (await app.request('GET', api(`/msp-token-subscription/${id}`))).body.monetary_credit_balance;

async function priceOne(evcoId: string, overrides: Record<string, unknown> = {}) {
  const stored = await submitSession(app, sessionBody(evcoId, overrides));
  const session = await processed(app, stored.id);
  if (session.status !== 'priced') throw new Error(JSON.stringify(session));
  return (await pricingResults(app, stored.id)).at(-1);
}

test('credits pay sessions in order until depleted, excl. VAT, with a credit line', async (t) => {
  const sub = await pricedSubscription(app, adminId, { credit: '8.00' });
  const first = await priceOne(sub.evcoId);
  const credit = first.subtotals.find((s: { kind: string }) => s.kind === 'monetary_credit');
  t.like(credit, { amount_excl_vat: '-5.00', amount_incl_vat: '-6.05', vat_percent: '21.00', rate_label: 'Charge credit' });
  t.is(first.total_excl_vat, '0.00');
  t.is(first.total_incl_vat, '0.00');
  t.is(first.monetary_credit_used, '5.00');
  t.true(first.explanation.some((line: string) => line.startsWith('monetary credit: 5.00')));
  t.is(await balance(sub.subscriptionId), '3.00');

  const second = await priceOne(sub.evcoId);
  t.is(second.monetary_credit_used, '3.00');
  t.is(second.total_excl_vat, '2.00');
  t.is(second.total_incl_vat, '2.42');
  t.is(await balance(sub.subscriptionId), '0.00');

  const third = await priceOne(sub.evcoId);
  t.is(third.monetary_credit_used, '0.00');
  t.falsy(third.subtotals.find((s: { kind: string }) => s.kind === 'monetary_credit'));
  t.is(third.total_excl_vat, '5.00');
});

test('components the plan excludes are not paid by credits', async (t) => {
  const sub = await pricedSubscription(app, adminId, {
    definition: { rates: { energy: { price: '0.50' }, flat: { price: '1.00' } } }, plan: { credit_excluded_components: ['energy'] }, credit: '50',
  });
  const plan = await app.request('GET', api(`/msp-token-subscription-plan/${sub.planId}`));
  t.deepEqual(plan.body.credit_excluded_components, ['energy']);
  const result = await priceOne(sub.evcoId);
  t.is(result.monetary_credit_used, '1.00', 'only the session fee');
  t.is(result.total_excl_vat, '5.00');
  t.is(await balance(sub.subscriptionId), '49.00');
  const bad = await app.request('POST', api(`/msp-token-subscription-plan/${sub.planId}`), { body: { credit_excluded_components: ['fuel'] } });
  t.is(bad.body.param, '$.credit_excluded_components[0]');
});

test('concurrent sessions and concurrent workers never spend a credit twice', async (t) => {
  const sub = await pricedSubscription(app, adminId, { credit: '12.34' });
  const ids = (await Promise.all(Array.from({ length: 8 }, () => submitSession(app, sessionBody(sub.evcoId))))).map((s) => s.id);
  // Extra workers besides the service's own race for the same sessions and the same credit.
  await Promise.all(Array.from({ length: 4 }, async () => { while ((await processSessionBatch(app.orm, 1)) > 0) { /* more */ } }));
  const results = await Promise.all(ids.map(async (id) => { await processed(app, id); return (await pricingResults(app, id)); }));
  t.true(results.every((r) => r.length === 1), 'each session priced once');
  const used = results.map((r) => r[0].monetary_credit_used);
  const cents = used.reduce((sum, amount) => sum + Math.round(Number(amount) * 100), 0);
  t.is(cents, 1234, `credit used: ${used.join(', ')}`);
  t.is(await balance(sub.subscriptionId), '0.00');
  t.true(used.every((amount) => Number(amount) >= 0 && Number(amount) <= 5));
});

test('a price cap\'s negative adjustment: the credit pays each VAT rate its net, and a session paid in full owes nobody VAT', async (t) => {
  await ensureVatRate(app, 'NL', '9', 'reduced');
  // Energy 5.00 (21 %) and flat 2.00 (9 %) capped at 3.00: an adjustment of -4.00 shared by the rates' nets,
  // -2.86 at 21 % and -1.14 at 9 % (since 2026-11-29; before, -4.00 at 21 %).
  const definition = { rates: { energy: { price: '0.50' }, flat: { price: '2.00', vat_kind: 'reduced' }, max_price: '3.00' }, rules: [] };
  const sub = await pricedSubscription(app, adminId, { definition, credit: '10.00' });
  const result = await priceOne(sub.evcoId);
  t.deepEqual(result.subtotals.filter((s: { kind: string }) => s.kind === 'max_price_adjustment').map((c: any) => [c.vat_kind, c.amount_excl_vat]),
    [['standard', '-2.86'], ['reduced', '-1.14']]);
  t.is(result.monetary_credit_used, '3.00');
  const credits = result.subtotals.filter((s: { kind: string }) => s.kind === 'monetary_credit');
  t.deepEqual(credits.map((c: any) => [c.vat_kind, c.amount_excl_vat, c.amount_incl_vat]), [['standard', '-2.14', '-2.59'], ['reduced', '-0.86', '-0.94']]);
  t.like(result, { total_excl_vat: '0.00', total_vat: '0.00', total_incl_vat: '0.00' });
  // Part of it: the first rate's net first.
  const partly = await priceOne((await pricedSubscription(app, adminId, { definition, credit: '1.50' })).evcoId);
  t.deepEqual(partly.subtotals.filter((s: { kind: string }) => s.kind === 'monetary_credit').map((c: any) => [c.vat_kind, c.amount_excl_vat]),
    [['standard', '-1.50']]);
  // 21 %: 5.00 - 2.86 - 1.50 = 0.64 (incl. 6.05 - 3.46 - 1.82 = 0.77); 9 %: 2.00 - 1.14 = 0.86 (incl. 2.18 - 1.24 = 0.94).
  t.like(partly, { total_excl_vat: '1.50', total_incl_vat: '1.71' });
});

// Found by probing (2026-11-29): a line's VAT is rounded from its unrounded amount, the credit's was
// taken on the rounded net, so a session paid in full could show a cent of VAT owed, either way.
test('a session paid in full owes no cent of VAT, whichever way its lines\' VAT was rounded', async (t) => {
  for (const [price, kwh] of [['0.123457', '1.333'], ['0.50', '10.333']]) {
    const sub = await pricedSubscription(app, adminId, { definition: { rates: { energy: { price } }, rules: [] }, credit: '20.00' });
    const result = await priceOne(sub.evcoId, { total_energy_kwh: kwh });
    const energy = result.subtotals.find((s: { kind: string }) => s.kind === 'energy');
    const credit = result.subtotals.find((s: { kind: string }) => s.kind === 'monetary_credit');
    t.is(credit.amount_excl_vat, `-${energy.amount_excl_vat}`, `${price} x ${kwh}`);
    t.is(credit.amount_incl_vat, `-${energy.amount_incl_vat}`, `${price} x ${kwh}`);
    t.like(result, { total_excl_vat: '0.00', total_vat: '0.00', total_incl_vat: '0.00' }, `${price} x ${kwh}`);
  }
});

test('components with a VAT kind of their own; credit lines per VAT rate', async (t) => {
  await ensureVatRate(app, 'NL', '9', 'reduced');
  const sub = await pricedSubscription(app, adminId, {
    definition: { rates: { energy: { price: '0.50' }, flat: { price: '2.00', vat_kind: 'reduced' } } }, credit: '5.50',
  });
  const result = await priceOne(sub.evcoId);
  const energy = result.subtotals.find((s: { kind: string }) => s.kind === 'energy');
  const flat = result.subtotals.find((s: { kind: string }) => s.kind === 'flat');
  t.like(energy, { vat_kind: 'standard', vat_percent: '21.00', amount_excl_vat: '5.00', amount_incl_vat: '6.05' });
  t.like(flat, { vat_kind: 'reduced', vat_percent: '9.00', amount_excl_vat: '2.00', amount_incl_vat: '2.18' });
  const credits = result.subtotals.filter((s: { kind: string }) => s.kind === 'monetary_credit');
  t.deepEqual(credits.map((c: any) => [c.vat_kind, c.amount_excl_vat, c.amount_incl_vat]), [['standard', '-5.00', '-6.05'], ['reduced', '-0.50', '-0.55']]);
  t.is(result.total_excl_vat, '1.50');
  t.is(result.total_incl_vat, '1.63');
  t.true(result.explanation.some((line: string) => line.includes('own VAT: reduced 9.00 %')));
  const cost = await app.request('GET', `/main/v1/msp-charge-cost-calculation?rate_plan_id=${sub.ratePlanId}&start_date_time=2026-03-02T10:00:00Z`
    + '&end_date_time=2026-03-02T11:00:00Z&energy_kwh=10&country=NL&time_zone=Europe/Amsterdam');
  t.deepEqual(cost.body.subtotals.map((s: any) => s.vat_kind), ['standard', 'reduced']);
  const noRate = await app.request('GET', `/main/v1/msp-charge-cost-calculation?rate_plan_id=${sub.ratePlanId}&start_date_time=2026-03-02T10:00:00Z`
    + '&end_date_time=2026-03-02T11:00:00Z&energy_kwh=10&country=BE&time_zone=Europe/Brussels');
  t.like(noRate.body, { code: 'vat_rate_missing', query_param: 'country' });
});
